/**
 * Live progress of a running chain: each graded bug's verdict lands in
 * EvaluationJob.progress as the replay goes, so the submission page can show
 * bugs before the chain's results are handed in (complete.ts). Display only:
 * BugResult rows stay the results.
 *
 * Same lease rule as every other worker write: the transaction's first
 * statement is a conditional update on (running, leaseOwner), which checks the
 * lease and takes the write lock at once. A worker that lost its lease (taken
 * over, cancelled, re-run) writes nothing. A new attempt starts empty: the
 * claim resets the column (claim.ts).
 */
import { db } from "@/db/client";
import { columnJson, jobProgressSchema, parseColumn, type JobProgress } from "@/core/schemas/columns";

export type BugProgress = JobProgress[number];

export type ProgressOptions = { jobId: string; workerId: string; bug: BugProgress; now?: Date };

/** The list with `bug` put in its place (a repeated order replaces the earlier entry), in order. */
export function withBug(progress: JobProgress, bug: BugProgress): JobProgress {
  return [...progress.filter((p) => p.order !== bug.order), bug].sort((a, b) => a.order - b.order);
}

/** True when the bug was recorded; false when the caller no longer owns the running job (nothing written). */
export async function recordBugProgress(o: ProgressOptions): Promise<boolean> {
  const now = o.now ?? new Date();
  return db.$transaction(
    async (tx) => {
      const owned = await tx.evaluationJob.updateMany({
        where: { id: o.jobId, status: "running", leaseOwner: o.workerId },
        data: { updatedAt: now },
      });
      if (owned.count === 0) return false;
      const row = await tx.evaluationJob.findUniqueOrThrow({ where: { id: o.jobId }, select: { progress: true } });
      const progress = withBug(parseColumn(jobProgressSchema, row.progress, "EvaluationJob.progress"), o.bug);
      await tx.evaluationJob.update({ where: { id: o.jobId }, data: { progress: columnJson(jobProgressSchema, progress) } });
      return true;
    },
    // slots of one process share one connection: wait for another slot's transaction to end
    { maxWait: 30_000 },
  );
}
