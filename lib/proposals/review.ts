/**
 * A reviewer accepts or rejects a proposed chain, with a reason (SPEC §8).
 * The rule is pure (proposalDecision); reviewProposedChain checks who asks,
 * then writes the decision and its audit row in one transaction whose first
 * statement is a compare-and-swap on the chain's review, so two reviewers
 * deciding at once cannot both win.
 *
 * Separation of duties, the rule publication decisions follow
 * (lib/submissions/visibility.ts decisionConflict): no one decides on their own
 * proposal, nor on one by a member of a team they are in.
 */
import { z } from "zod";
import { db } from "@/db/client";
import { FieldError, ForbiddenError, NotFoundError } from "@/core/errors";
import { proposalReviewSchema, proposedChainStatusSchema, type AuditAction, type ProposalReview, type ProposedChainStatus } from "@/core/schemas/columns";
import { canReview, type Viewer } from "@/lib/authz";
import { decisionConflict, NO_TIES, REVIEW_REASON_MAX, type SubmissionRole } from "@/lib/submissions/visibility";
import { openInvitationsSince } from "@/lib/teams/invitations";

export const proposalDecisionRequestSchema = z.object({
  decision: z.enum(["accept", "reject"], { error: 'expected "accept" or "reject"' }),
  reason: z.string({ error: "required: why (shown to the proposer and kept with the release's notes)" }).trim().min(1, "required: why (shown to the proposer and kept with the release's notes)").max(REVIEW_REASON_MAX, `at most ${REVIEW_REASON_MAX} characters`),
});
export type ProposalDecisionRequest = z.infer<typeof proposalDecisionRequestSchema>;

export type ProposalDecision =
  | { ok: true; review: ProposalReview; audit: AuditAction; reason: string }
  | { ok: false; refusal: "forbidden" | "state"; message: string };

/** The decision `request` makes on a chain in `status` and `review`, taken by a viewer in `role`, or why not. */
export function proposalDecision(request: ProposalDecisionRequest, chain: { status: ProposedChainStatus; review: ProposalReview }, role: SubmissionRole): ProposalDecision {
  if (!role.reviewer) return { ok: false, refusal: "forbidden", message: "only a reviewer can accept or reject a proposed chain" };
  const conflict = decisionConflict(role, "proposal");
  if (conflict) return { ok: false, refusal: "forbidden", message: conflict };
  if (chain.review !== "pending") return { ok: false, refusal: "state", message: `this chain was already ${chain.review}` };
  if (request.decision === "accept" && chain.status !== "valid") {
    return { ok: false, refusal: "state", message: chain.status === "validating" ? "this chain is still being validated: it can be accepted once it is valid" : `validation ${chain.status === "refused" ? "refused" : "could not run on"} this chain: only a valid chain can be accepted` };
  }
  return request.decision === "accept"
    ? { ok: true, review: "accepted", audit: "proposed_chain_accepted", reason: request.reason }
    : { ok: true, review: "rejected", audit: "proposed_chain_rejected", reason: request.reason };
}

function parseDecision(input: unknown): ProposalDecisionRequest {
  const parsed = proposalDecisionRequestSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  if (!issue?.path.length) throw new FieldError("body", `${issue?.message ?? "invalid"}; send an object such as {"decision": "accept", "reason": "…"}`);
  throw new FieldError(String(issue.path[0]), issue.message);
}

/**
 * The viewer's role toward a proposal, as a submission's ties are weighed: its proposer (tookPart); on a team
 * with the proposer now (team); ever on a team with the proposer, either of them having left it (formerMember);
 * or holding an open invitation to a team the proposer is on (invited).
 */
async function roleFor(viewer: Viewer, proposedById: string | null, now: Date): Promise<SubmissionRole> {
  const reviewer = canReview(viewer);
  if (viewer.id === proposedById) return { team: false, reviewer, ties: { ...NO_TIES, tookPart: true } };
  if (!proposedById) return { team: false, reviewer, ties: NO_TIES };
  const teamsOf = async (userId: string) => {
    const [members, former] = await Promise.all([
      db.teamMember.findMany({ where: { userId }, select: { teamId: true } }),
      db.formerMember.findMany({ where: { userId }, select: { teamId: true } }),
    ]);
    return { current: new Set(members.map((m) => m.teamId)), ever: new Set([...members, ...former].map((m) => m.teamId)) };
  };
  const [mine, theirs, invitations] = await Promise.all([
    teamsOf(viewer.id),
    teamsOf(proposedById),
    db.teamInvitation.findMany({ where: { userId: viewer.id, createdAt: { gt: openInvitationsSince(now) } }, select: { teamId: true } }),
  ]);
  const team = [...mine.current].some((id) => theirs.current.has(id));
  const formerMember = !team && [...mine.ever].some((id) => theirs.ever.has(id));
  const invited = invitations.some((i) => theirs.current.has(i.teamId));
  return { team, reviewer, ties: { ...NO_TIES, formerMember, invited } };
}

/** Accepts or rejects the proposed chain for the viewer; answers the new review. NotFoundError when the viewer may not read it. */
export async function reviewProposedChain(viewer: Viewer | null, proposedChainId: string, input: unknown, now: Date = new Date()): Promise<ProposalReview> {
  const chain = await db.proposedChain.findUnique({ where: { id: proposedChainId }, select: { status: true, review: true, proposal: { select: { proposedById: true } } } });
  const proposedById = chain?.proposal.proposedById ?? null;
  if (!chain || !viewer || (viewer.id !== proposedById && !canReview(viewer))) throw new NotFoundError("proposed chain");
  const request = parseDecision(input);
  const review = proposalReviewSchema.parse(chain.review);
  const d = proposalDecision(request, { status: proposedChainStatusSchema.parse(chain.status), review }, await roleFor(viewer, proposedById, now));
  if (!d.ok) throw new ForbiddenError(d.message);
  await db.$transaction(async (tx) => {
    const changed = await tx.proposedChain.updateMany({
      where: { id: proposedChainId, review: "pending", ...(d.review === "accepted" ? { status: "valid" } : {}) },
      data: { review: d.review, reviewedById: viewer.id, reviewedAt: now, reviewReason: d.reason },
    });
    if (changed.count === 0) throw new ForbiddenError("the chain changed meanwhile; reload the page and try again");
    await tx.auditLog.create({ data: { actorId: viewer.id, action: d.audit, targetType: "proposed_chain", targetId: proposedChainId, reason: d.reason, createdAt: now } });
  });
  return d.review;
}
