/** GET /api/v1/submissions/[id]/trajectories/[chain]/[order]: one bug's trajectory log as uploaded, for whoever may read the submission's trajectories. */
import { getRequestViewer } from "@/lib/auth/viewer";
import { bugTrajectoryLog } from "@/lib/submissions/downloads";
import { errorResponse, textFileResponse } from "@/lib/http";
import { bugOrderParam } from "@/lib/submissions/urls";

export async function GET(req: Request, { params }: { params: Promise<{ id: string; chain: string; order: string }> }): Promise<Response> {
  try {
    const { id, chain, order } = await params;
    const viewer = await getRequestViewer(req, "read");
    const log = await bugTrajectoryLog(viewer, id, chain, bugOrderParam(order));
    return textFileResponse(req, log);
  } catch (e) {
    return errorResponse(e);
  }
}
