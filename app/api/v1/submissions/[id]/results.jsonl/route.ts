/** GET /api/v1/submissions/[id]/results.jsonl: the graded bugs as SPEC §3 lines, for whoever may read the submission. */
import { getRequestViewer } from "@/lib/auth/viewer";
import { resultsJsonl } from "@/lib/submissions/downloads";
import { errorResponse } from "@/lib/http/requests";

export async function GET(req: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  try {
    const { id } = await params;
    const viewer = await getRequestViewer(req, "read");
    const text = await resultsJsonl(viewer, id);
    return new Response(text, {
      headers: {
        // ndjson, served as text so a browser shows it
        "content-type": "text/plain; charset=utf-8",
        "content-disposition": `inline; filename="${id}.results.jsonl"`,
        "cache-control": "no-store",
      },
    });
  } catch (e) {
    return errorResponse(e);
  }
}
