/** POST /api/v1/submissions/[id]/rerun: a reviewer grades the submission again from scratch (token scope "submit", or the session cookie from this site). */
import { getActingViewer } from "@/lib/auth/viewer";
import { rerunSubmission } from "@/lib/submissions/review";
import { errorResponse, json } from "@/lib/http/requests";

export async function POST(req: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  try {
    const viewer = await getActingViewer(req, "submit");
    const { id } = await params;
    return json(await rerunSubmission(viewer, id));
  } catch (e) {
    return errorResponse(e);
  }
}
