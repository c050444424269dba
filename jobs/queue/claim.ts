/**
 * Claiming the oldest runnable job under a lease.
 *
 * Two workers never both win: the claim is one conditional UPDATE (compare and
 * swap) whose WHERE repeats the runnable condition and the attempts seen, so
 * once one worker's update lands the row no longer matches anyone else's. A
 * loser just looks again. Why not read and write in one interactive
 * transaction: on SQLite a transaction that reads before it writes deadlocks
 * against another process doing the same (SQLITE_BUSY with no wait), while a
 * single UPDATE takes the write lock first and waits its turn.
 */
import { db } from "@/db/client";
import { claimedJobSchema, type ClaimedJob, type QueuePolicy } from "./payload";
import { runnableJobWhere } from "./policy";
import { settleSubmission } from "./settle";

export type ClaimOptions = {
  /** lease owner: unique per worker slot (see worker.ts) */
  workerId: string;
  policy: Pick<QueuePolicy, "leaseMs" | "maxAttempts">;
  now?: Date;
};

/** Losing this many races in a row means heavy contention: report nothing, poll again later. */
const MAX_RACES = 8;

/**
 * Jobs whose worker died maxAttempts times (each claim counts) fail for good
 * instead of being claimed again: a chain that kills its worker every time
 * would otherwise loop forever.
 */
async function failExhaustedJobs(now: Date, maxAttempts: number): Promise<void> {
  const exhausted = await db.evaluationJob.findMany({
    where: { status: "running", leaseExpiresAt: { lt: now }, attempts: { gte: maxAttempts } },
    select: { id: true, attempts: true },
  });
  for (const job of exhausted) {
    await db.$transaction(async (tx) => {
      // the conditional update comes first: it takes the write lock and skips a job someone else settled meanwhile
      const changed = await tx.evaluationJob.updateMany({
        where: { id: job.id, status: "running", leaseExpiresAt: { lt: now }, attempts: job.attempts },
        data: {
          status: "failed",
          leaseOwner: null,
          leaseExpiresAt: null,
          finishedAt: now,
          lastError: `environment error: the worker's lease expired ${job.attempts} time(s) (worker killed or hung)`,
        },
      });
      if (changed.count === 0) return;
      const { submissionId } = await tx.evaluationJob.findUniqueOrThrow({ where: { id: job.id }, select: { submissionId: true } });
      await settleSubmission(tx, submissionId);
    });
  }
}

async function claimedJob(jobId: string): Promise<ClaimedJob> {
  const row = await db.evaluationJob.findUniqueOrThrow({
    where: { id: jobId },
    include: { submission: { include: { datasetVersion: true, system: true } } },
  });
  return claimedJobSchema.parse({
    jobId: row.id,
    leaseOwner: row.leaseOwner,
    leaseExpiresAt: row.leaseExpiresAt,
    attempts: row.attempts,
    payload: {
      submissionId: row.submissionId,
      continuousId: row.continuousId,
      datasetVersion: row.submission.datasetVersion.version,
      mode: row.submission.mode,
      system: row.submission.system.name,
      testEdits: row.submission.testEditPolicy,
    },
  });
}

/** Claims the oldest runnable job for `workerId`, or answers null when there is none. */
export async function claimJob(o: ClaimOptions): Promise<ClaimedJob | null> {
  const now = o.now ?? new Date();
  await failExhaustedJobs(now, o.policy.maxAttempts);
  for (let race = 0; race < MAX_RACES; race++) {
    const candidate = await db.evaluationJob.findFirst({
      where: { ...runnableJobWhere(now), attempts: { lt: o.policy.maxAttempts } },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      select: { id: true, attempts: true, submissionId: true },
    });
    if (!candidate) return null;
    const won = await db.evaluationJob.updateMany({
      where: { id: candidate.id, attempts: candidate.attempts, ...runnableJobWhere(now) },
      data: {
        status: "running",
        leaseOwner: o.workerId,
        leaseExpiresAt: new Date(now.getTime() + o.policy.leaseMs),
        attempts: { increment: 1 },
        startedAt: now,
        // a new attempt shows only its own bugs (progress.ts)
        progress: "[]",
      },
    });
    if (won.count === 0) continue;
    // queued → running; idempotent, so no transaction is needed with the claim
    await db.submission.updateMany({ where: { id: candidate.submissionId, status: "queued" }, data: { status: "running" } });
    return claimedJob(candidate.id);
  }
  return null;
}
