/** GET /api/v1/submissions/[id]/logs/[chain]/[order]: one graded bug's full test log, for whoever may read the submission. */
import { getRequestViewer } from "@/lib/auth/viewer";
import { bugLog } from "@/lib/submissions/downloads";
import { errorResponse } from "@/lib/http";

export async function GET(req: Request, { params }: { params: Promise<{ id: string; chain: string; order: string }> }): Promise<Response> {
  try {
    const { id, chain, order } = await params;
    const viewer = await getRequestViewer(req, "read");
    // anything but a plain positive integer names no bug: bugLog answers 404
    const log = await bugLog(viewer, id, chain, /^[1-9][0-9]{0,5}$/.test(order) ? Number(order) : Number.NaN);
    return new Response(log.text, {
      headers: {
        "content-type": "text/plain; charset=utf-8",
        // shown in the browser unless ?download=1 asks for a file; either way the name says which bug it is
        "content-disposition": `${new URL(req.url).searchParams.get("download") === "1" ? "attachment" : "inline"}; filename="${log.filename}"`,
        "cache-control": "no-store",
      },
    });
  } catch (e) {
    return errorResponse(e);
  }
}
