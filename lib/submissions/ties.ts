/**
 * A viewer's ties to a submission besides being on its team now
 * (SubmissionTies, ./visibility.ts), each of which bars a reviewer's decision
 * on it: a membership of the team that ended (FormerMember), an open
 * invitation to it, or taking part in the submission (its uploader, or an
 * audit row of a team action on it by the viewer). Read from the database;
 * the rule that weighs them is pure.
 */
import { db } from "@/db/client";
import type { AuditAction } from "@/core/schemas/columns";
import { openInvitationsSince } from "@/lib/teams/invitations";
import type { SubmissionTies } from "@/lib/submissions/visibility";

/** What a team does to its own submission; a reviewer's decisions are not among them. */
export const TEAM_ACTIONS = [
  "publication_requested",
  "publication_withdrawn",
  "submission_cancelled",
  "trajectories_shown",
  "trajectories_hidden",
] as const satisfies readonly AuditAction[];

export async function submissionTies(userId: string, s: { id: string; teamId: string; submittedById: string | null }, now: Date = new Date()): Promise<SubmissionTies> {
  const [former, invitation, acted] = await Promise.all([
    db.formerMember.findFirst({ where: { teamId: s.teamId, userId }, select: { id: true } }),
    db.teamInvitation.findFirst({ where: { teamId: s.teamId, userId, createdAt: { gt: openInvitationsSince(now) } }, select: { id: true } }),
    db.auditLog.findFirst({ where: { targetType: "submission", targetId: s.id, actorId: userId, action: { in: [...TEAM_ACTIONS] } }, select: { id: true } }),
  ]);
  return { formerMember: !!former, invited: !!invitation, tookPart: s.submittedById === userId || !!acted };
}
