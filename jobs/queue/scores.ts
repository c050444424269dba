/**
 * A submission's stored scores are never lost when they stop being current:
 * a re-run, a re-grade or a refresh first keeps them as a revision, so a board
 * archived on an earlier day (`as_of`, SPEC §6) shows each row as it was
 * stored then. The writers of SubmissionScore (this folder's re-run, the
 * portal's aggregates) replace or remove it only through here.
 */
import type { Tx } from "@/db/tx";

/** Keeps the submission's current scores, if any, as a revision replaced at `now`; the current row is left to the caller. */
export async function keepScoreRevision(tx: Tx, submissionId: string, now: Date): Promise<void> {
  const current = await tx.submissionScore.findUnique({ where: { submissionId }, select: { scores: true, chains: true, graderVersion: true, computedAt: true } });
  if (!current) return;
  await tx.scoreRevision.create({ data: { submissionId, ...current, replacedAt: now } });
}

/** The submission's scores stop being current: kept as a revision, then removed. */
export async function retireScores(tx: Tx, submissionId: string, now: Date): Promise<void> {
  await keepScoreRevision(tx, submissionId, now);
  await tx.submissionScore.deleteMany({ where: { submissionId } });
}
