/** GET /api/v1/submissions/[id]/logs/[chain]/[order]: one graded bug's full test log, for whoever may read the submission. */
import { getRequestViewer } from "@/lib/auth/viewer";
import { bugLog } from "@/lib/submissions/downloads";
import { errorResponse, textFileResponse } from "@/lib/http";
import { bugOrderParam } from "@/lib/submissions/urls";

export async function GET(req: Request, { params }: { params: Promise<{ id: string; chain: string; order: string }> }): Promise<Response> {
  try {
    const { id, chain, order } = await params;
    const viewer = await getRequestViewer(req, "read");
    const log = await bugLog(viewer, id, chain, bugOrderParam(order));
    return textFileResponse(req, log);
  } catch (e) {
    return errorResponse(e);
  }
}
