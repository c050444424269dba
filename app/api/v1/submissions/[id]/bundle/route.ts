/** GET /api/v1/submissions/[id]/bundle: a completed submission as a reproducibility bundle (.tar.gz) that `chainswe verify` checks. */
import { getRequestViewer } from "@/lib/auth/viewer";
import { errorResponse } from "@/lib/http/requests";
import { submissionBundle } from "@/lib/submissions/bundle";

export async function GET(req: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  try {
    const { id } = await params;
    const viewer = await getRequestViewer(req, "read");
    const { filename, archive } = await submissionBundle(viewer, id);
    return new Response(new Uint8Array(archive), {
      headers: { "content-type": "application/gzip", "content-disposition": `attachment; filename="${filename}"`, "cache-control": "no-store" },
    });
  } catch (e) {
    return errorResponse(e);
  }
}
