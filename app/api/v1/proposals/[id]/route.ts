/**
 * GET /api/v1/proposals/[id]: a proposal's chains, each with its validation
 * (status, per-bug results over the gold runs, flaky tests, refusal) and
 * review. Its proposer and reviewers only (token scope "read" or the session
 * cookie); anyone else gets 404. `chainswe propose --wait` polls it.
 */
import { getRequestViewer } from "@/lib/auth/viewer";
import { getProposal } from "@/lib/proposals/data";
import { proposalJson } from "@/lib/proposals/view";
import { errorResponse, json } from "@/lib/http/requests";

export const dynamic = "force-dynamic";

export async function GET(req: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  try {
    const { id } = await params;
    const viewer = await getRequestViewer(req, "read");
    return json(proposalJson(await getProposal(viewer, id)));
  } catch (e) {
    return errorResponse(e);
  }
}
