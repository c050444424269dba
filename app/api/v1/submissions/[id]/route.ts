/**
 * GET /api/v1/submissions/[id]: status, visibility, progress (what the
 * submission page polls) and scores. Readable as the page is: public to
 * anyone, otherwise to the team and reviewers (a bearer token with the "read"
 * scope, or the session cookie); anything else is 404.
 *
 * DELETE /api/v1/submissions/[id]: the team deletes its private submission
 * once no evaluation of it runs, with everything stored with it (token scope
 * "submit", or the session cookie from this site). Answers {"deleted": id};
 * 403 naming why when it may not (running, not private, run 1 of an entry
 * with later runs), 404 for who cannot read it.
 */
import { getActingViewer, getRequestViewer } from "@/lib/auth/viewer";
import { deleteSubmissionFor } from "@/lib/submissions/removal";
import { getSubmissionForViewer, submissionJson } from "@/lib/submissions/view";
import { errorResponse, json } from "@/lib/http/requests";

export async function GET(req: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  try {
    const { id } = await params;
    const viewer = await getRequestViewer(req, "read");
    return json(submissionJson(await getSubmissionForViewer(viewer, id)));
  } catch (e) {
    return errorResponse(e);
  }
}

export async function DELETE(req: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  try {
    const viewer = await getActingViewer(req, "submit");
    const { id } = await params;
    await deleteSubmissionFor(viewer, id);
    return json({ deleted: id });
  } catch (e) {
    return errorResponse(e);
  }
}
