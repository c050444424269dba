/**
 * POST /api/v1/proposals: propose chains for a dataset version (multipart/form-data:
 * field `dataset_version`, the dataset records in file part `chains`;
 * lib/proposals/intake.ts). 201 with {id, chains, warnings, url}; errors as
 * lib/http/requests.ts maps them (422 lists every bad record by line and field).
 *
 * GET /api/v1/proposals: the proposals the viewer may read (their own; all for
 * reviewers), newest first.
 *
 * Both take a bearer token (scope "submit" / "read") or the session cookie.
 * docs/API.md describes them.
 */
import { getActingViewer, getRequestViewer } from "@/lib/auth/viewer";
import { listProposals } from "@/lib/proposals/data";
import { receiveProposal } from "@/lib/proposals/intake";
import { errorResponse, json } from "@/lib/http/requests";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export async function POST(req: Request): Promise<Response> {
  try {
    const viewer = await getActingViewer(req, "submit");
    const created = await receiveProposal(viewer, req);
    return json(created, { status: 201, headers: { location: created.url } });
  } catch (e) {
    return errorResponse(e);
  }
}

export async function GET(req: Request): Promise<Response> {
  try {
    const viewer = await getRequestViewer(req, "read");
    const rows = await listProposals(viewer);
    return json({ proposals: rows.map((r) => ({ id: r.id, dataset_version: r.datasetVersion, proposed_by: r.proposedBy, created_at: r.createdAt.toISOString(), chains: r.chains, validating: r.validating, valid: r.valid, refused: r.refused, accepted: r.accepted, rejected: r.rejected, url: `/dataset/proposals/${r.id}` })) });
  } catch (e) {
    return errorResponse(e);
  }
}
