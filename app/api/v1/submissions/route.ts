/**
 * POST /api/v1/submissions: upload predictions (multipart/form-data; fields in
 * lib/submissions/intake.ts submissionRequestSchema, the file in part `predictions`)
 * for one of the viewer's teams' systems. 201 with {id, chains, predictions,
 * warnings, url}; errors as lib/http/requests.ts maps them (422 lists every bad line).
 *
 * GET /api/v1/submissions: the submissions the viewer may read, newest first,
 * filtered and paged (lib/submissions/list.ts).
 *
 * Both take a bearer token (scope "submit" / "read") or the session cookie.
 * docs/API.md describes them for users.
 */
import { getActingViewer, getRequestViewer } from "@/lib/auth/viewer";
import { receiveSubmission } from "@/lib/submissions/intake";
import { listSubmissions, parseSubmissionListQuery } from "@/lib/submissions/list";
import { errorResponse, json } from "@/lib/http/requests";

// busboy, temp files and the database: Node, never cached
export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export async function POST(req: Request): Promise<Response> {
  try {
    const viewer = await getActingViewer(req, "submit");
    const created = await receiveSubmission(viewer, req);
    return json(created, { status: 201, headers: { location: created.url } });
  } catch (e) {
    return errorResponse(e);
  }
}

export async function GET(req: Request): Promise<Response> {
  try {
    const viewer = await getRequestViewer(req, "read");
    const url = new URL(req.url);
    const page = await listSubmissions(viewer, parseSubmissionListQuery(url.searchParams));
    let next: string | null = null;
    if (page.nextCursor) {
      url.searchParams.set("cursor", page.nextCursor);
      next = `${url.pathname}?${url.searchParams}`;
    }
    return json({ ...page, next });
  } catch (e) {
    return errorResponse(e);
  }
}
