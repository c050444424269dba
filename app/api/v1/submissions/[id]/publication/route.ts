/**
 * POST /api/v1/submissions/[id]/publication with {"action": "request_publication" | "withdraw" | "approve" | "reject", "reason"?}:
 * the team asks for or withdraws publication, a reviewer approves or rejects (a rejection needs a reason).
 * Answers {"visibility": …}. Token scope "submit", or the session cookie from this site. A body that is
 * not a JSON object of that shape is 400 naming the problem (field `body`, `action` or `reason`), one over
 * 16 KB is 413; either way nothing changes.
 */
import { getActingViewer } from "@/lib/auth/viewer";
import { changeVisibility } from "@/lib/submissions/review";
import { errorResponse, json, readJsonBody } from "@/lib/http/requests";

/** the body is one small object; anything bigger is refused (413) unread */
const MAX_BODY_BYTES = 16 * 1024;

export async function POST(req: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  try {
    const viewer = await getActingViewer(req, "submit");
    const { id } = await params;
    const body = await readJsonBody(req, { maxBytes: MAX_BODY_BYTES, example: '{"action": "request_publication"}' });
    return json({ visibility: await changeVisibility(viewer, id, body) });
  } catch (e) {
    return errorResponse(e);
  }
}
