/**
 * GET /api/v1/dataset/[version]/held-out?team=<slug>: the version's held-out
 * problem statements (SPEC §8) for a signed-in member of that team (session
 * or token with scope `read`), as JSON Lines; every download is in the audit
 * log. 401 signed out, 403 not a member of the team, 404 unknown version,
 * 400 without `team` (docs/API.md).
 */
import { getRequestViewer } from "@/lib/auth/viewer";
import { heldOutDownload } from "@/lib/dataset/held-out";
import { errorResponse } from "@/lib/http/requests";

export async function GET(req: Request, { params }: { params: Promise<{ version: string }> }): Promise<Response> {
  try {
    const { version } = await params;
    const { filename, jsonl } = await heldOutDownload(await getRequestViewer(req, "read"), version, new URL(req.url).searchParams);
    return new Response(jsonl, {
      headers: {
        "content-type": "application/x-ndjson; charset=utf-8",
        "content-disposition": `attachment; filename="${filename}"`,
        "cache-control": "no-store, private",
      },
    });
  } catch (e) {
    return errorResponse(e);
  }
}
