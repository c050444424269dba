/** GET /api/v1/submissions/[id]/predictions.jsonl: the team's patches, for the team and reviewers only (404 for anyone else, even when public). */
import { getRequestViewer } from "@/lib/auth/viewer";
import { predictionsJsonl } from "@/lib/submissions/downloads";
import { errorResponse } from "@/lib/http/requests";

export async function GET(req: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  try {
    const { id } = await params;
    const viewer = await getRequestViewer(req, "read");
    const text = await predictionsJsonl(viewer, id);
    return new Response(text, {
      headers: {
        "content-type": "text/plain; charset=utf-8",
        "content-disposition": `inline; filename="${id}.predictions.jsonl"`,
        "cache-control": "no-store",
      },
    });
  } catch (e) {
    return errorResponse(e);
  }
}
