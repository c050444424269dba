/**
 * POST /api/v1/submissions/[id]/publication with {"action": "request_publication" | "withdraw" | "approve" | "reject", "reason"?}:
 * the team asks for or withdraws publication, a reviewer approves or rejects (a rejection needs a reason).
 * Answers {"visibility": …}. Token scope "submit", or the session cookie from this site.
 */
import { getActingViewer } from "@/lib/auth/viewer";
import { changeVisibility } from "@/lib/data/visibility";
import { FieldError } from "@/lib/errors";
import { errorResponse, json } from "@/lib/http";

export async function POST(req: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  try {
    const viewer = await getActingViewer(req, "submit");
    const { id } = await params;
    const body: unknown = await req.json().catch(() => {
      throw new FieldError("body", 'expected JSON such as {"action": "request_publication"}');
    });
    return json({ visibility: await changeVisibility(viewer, id, body) });
  } catch (e) {
    return errorResponse(e);
  }
}
