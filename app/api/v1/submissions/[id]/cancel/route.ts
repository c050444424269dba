/** POST /api/v1/submissions/[id]/cancel: the team cancels a queued or running evaluation (token scope "submit", or the session cookie from this site). */
import { getRequestViewer } from "@/lib/auth/viewer";
import { cancelSubmissionFor } from "@/lib/data/visibility";
import { UnauthorizedError } from "@/lib/errors";
import { assertSameOrigin, errorResponse, json } from "@/lib/http";

export async function POST(req: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  try {
    assertSameOrigin(req);
    const { id } = await params;
    const viewer = await getRequestViewer(req, "submit");
    if (!viewer) throw new UnauthorizedError();
    return json(await cancelSubmissionFor(viewer, id));
  } catch (e) {
    return errorResponse(e);
  }
}
