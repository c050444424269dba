/**
 * The evaluation's own changes that start outside a worker: queueing a new
 * submission's chains, the team's cancel, a reviewer's re-run. With claim,
 * heartbeat, complete and fail, this folder is the only writer of job rows
 * and of a submission's evaluation status; the portal's data layer calls
 * these inside its own transactions (with its authorization and audit rows).
 */
import type { Tx } from "@/db/tx";
import { retireScores } from "./scores";
import { settleSubmission } from "./settle";

/** One job per chain, queued, in dataset order: claims take the oldest job first, ties broken by id, and cuids grow. */
export async function enqueueChains(tx: Tx, submissionId: string, continuousIds: string[]): Promise<void> {
  await tx.evaluationJob.createMany({ data: continuousIds.map((continuousId) => ({ submissionId, continuousId })) });
}

export type CancelOutcome = { cancelledJobs: number; status: string };

/**
 * Cancels every job not yet finished (a worker still replaying one loses its
 * lease at its next heartbeat and hands in nothing); results already graded
 * stay. Null for an unknown submission. The transaction must not have read
 * before: this writes first, taking the write lock before anything is read.
 */
export async function cancelEvaluation(tx: Tx, submissionId: string, now: Date): Promise<CancelOutcome | null> {
  const jobs = await tx.evaluationJob.updateMany({
    where: { submissionId, status: { in: ["queued", "running"] } },
    data: { status: "cancelled", leaseOwner: null, leaseExpiresAt: null, finishedAt: now },
  });
  const submission = await tx.submission.findUnique({ where: { id: submissionId }, select: { status: true } });
  if (!submission) return null;
  if (submission.status === "queued" || submission.status === "running") {
    await tx.submission.update({ where: { id: submissionId }, data: { status: "cancelled", finishedAt: now } });
    return { cancelledJobs: jobs.count, status: "cancelled" };
  }
  return { cancelledJobs: jobs.count, status: await settleSubmission(tx, submissionId) };
}

/**
 * Queues every chain again from scratch: the results are kept as an earlier
 * attempt (keepAsEarlierAttempt) and leave the submission, and what was
 * computed from them goes (scores, chain-error analyses; the re-run's completion
 * recomputes them). A worker still replaying a chain holds a lease that no
 * longer matches (leaseOwner reset), so its heartbeat, progress and hand-in
 * are refused. Answers how many jobs were queued.
 */
export async function requeueEvaluation(tx: Tx, submissionId: string, now: Date, replacedById: string | null = null): Promise<number> {
  const jobs = await tx.evaluationJob.updateMany({
    where: { submissionId },
    data: { status: "queued", attempts: 0, leaseOwner: null, leaseExpiresAt: null, runAfter: now, lastError: null, progress: "[]", startedAt: null, finishedAt: null },
  });
  // after the first write: the transaction holds the write lock before it reads
  await keepAsEarlierAttempt(tx, submissionId, now, replacedById);
  await tx.bugResult.deleteMany({ where: { submissionId } });
  await retireScores(tx, submissionId, now);
  await tx.chainErrorAnalysis.deleteMany({ where: { OR: [{ seqSubmissionId: submissionId }, { oracleSubmissionId: submissionId }] } });
  await tx.submission.update({ where: { id: submissionId }, data: { status: "queued", finishedAt: null, resultBytes: 0 } });
  return jobs.count;
}

/**
 * The submission's results as they stand, kept as its next earlier attempt (its
 * graded bugs and their logs, its status and end) before a re-run replaces them.
 * Nothing is kept when nothing was graded.
 */
async function keepAsEarlierAttempt(tx: Tx, submissionId: string, now: Date, replacedById: string | null): Promise<void> {
  const rows = await tx.bugResult.findMany({ where: { submissionId }, omit: { id: true, submissionId: true }, orderBy: [{ continuousId: "asc" }, { order: "asc" }] });
  if (rows.length === 0) return;
  const submission = await tx.submission.findUniqueOrThrow({ where: { id: submissionId }, select: { status: true, finishedAt: true, _count: { select: { earlierAttempts: true } } } });
  await tx.earlierAttempt.create({
    data: {
      submissionId,
      attempt: submission._count.earlierAttempts + 1,
      status: submission.status,
      finishedAt: submission.finishedAt,
      replacedAt: now,
      replacedById,
      bugsGraded: rows.length,
      bugsResolved: rows.filter((r) => r.resolved).length,
      results: rows.map(({ log: _log, ...row }) => `${JSON.stringify(row)}\n`).join(""),
      logs: JSON.stringify(Object.fromEntries(rows.map((r) => [`${r.continuousId}/${r.order}`, r.log]))),
    },
  });
}
