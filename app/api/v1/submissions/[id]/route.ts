/**
 * GET /api/v1/submissions/[id]: status, visibility, progress (what the
 * submission page polls) and scores. Readable as the page is: public to
 * anyone, otherwise to the team and reviewers (a bearer token with the "read"
 * scope, or the session cookie); anything else is 404.
 */
import { getRequestViewer } from "@/lib/auth/viewer";
import { getSubmissionForViewer, submissionJson } from "@/lib/submissions/view";
import { errorResponse, json } from "@/lib/http";

export async function GET(req: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  try {
    const { id } = await params;
    const viewer = await getRequestViewer(req, "read");
    return json(submissionJson(await getSubmissionForViewer(viewer, id)));
  } catch (e) {
    return errorResponse(e);
  }
}
