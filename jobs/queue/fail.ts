/**
 * Ending a claimed job without results: `failJob` for an attempt that threw,
 * `releaseJob` for a worker that is stopping and gives its job back.
 *
 * A DatasetError fails the job for good with its message; any other error
 * sends it back to the queue with exponential backoff until maxAttempts claims,
 * then fails it (policy.ts). Neither ever writes a BugResult. Both are no-ops
 * for a caller that no longer owns the running job. Each transaction's first
 * statement is the conditional update, so it checks the lease and takes the
 * write lock at once.
 */
import { db } from "@/db/client";
import type { QueuePolicy } from "./payload";
import { failureOutcome, type FailureOutcome } from "./policy";
import { settleSubmission } from "./settle";

export type FailOptions = {
  jobId: string;
  workerId: string;
  error: unknown;
  policy: Pick<QueuePolicy, "maxAttempts" | "backoff">;
  now?: Date;
};

const owned = (jobId: string, workerId: string) => ({ id: jobId, status: "running", leaseOwner: workerId });

/** What happened to the job, or null when the caller did not own it (nothing changed). */
export async function failJob(o: FailOptions): Promise<FailureOutcome | null> {
  const now = o.now ?? new Date();
  return db.$transaction(async (tx) => {
    // ends the lease; returning without a further write when it matched nothing leaves everything as it was
    const touched = await tx.evaluationJob.updateMany({ where: owned(o.jobId, o.workerId), data: { leaseExpiresAt: now } });
    if (touched.count === 0) return null;
    const job = await tx.evaluationJob.findUniqueOrThrow({ where: { id: o.jobId }, select: { attempts: true, submissionId: true } });
    const outcome = failureOutcome(o.error, job.attempts, o.policy, now);
    await tx.evaluationJob.update({
      where: { id: o.jobId },
      data:
        outcome.status === "failed"
          ? { status: "failed", lastError: outcome.lastError, leaseOwner: null, leaseExpiresAt: null, finishedAt: now }
          : { status: "queued", lastError: outcome.lastError, leaseOwner: null, leaseExpiresAt: null, runAfter: outcome.runAfter },
    });
    await settleSubmission(tx, job.submissionId);
    return outcome;
    // slots of one process share one connection: wait for another slot's transaction to end
  }, { maxWait: 30_000 });
}

export type ReleaseOptions = { jobId: string; workerId: string; reason: string; now?: Date };

/**
 * Gives a job back at once, as if this claim had not happened (the attempt is
 * not counted): the worker is stopping, not the chain failing.
 */
export async function releaseJob(o: ReleaseOptions): Promise<boolean> {
  const now = o.now ?? new Date();
  const released = await db.evaluationJob.updateMany({
    where: { ...owned(o.jobId, o.workerId), attempts: { gt: 0 } },
    data: { status: "queued", leaseOwner: null, leaseExpiresAt: null, runAfter: now, attempts: { decrement: 1 }, lastError: `released: ${o.reason}` },
  });
  return released.count === 1;
}
