/**
 * Handing in a graded chain. In one transaction: the caller's lease is checked
 * (by the conditional update that marks the job done, which also takes the
 * write lock first), every BugResult of the chain is inserted, and the
 * submission's status is settled. So either the whole chain lands or nothing.
 *
 * No bug is graded twice: a worker whose lease expired and was taken over (or
 * whose job was cancelled, or that hands in twice) matches no running job it
 * owns and writes nothing; and the unique (submissionId, continuousId, order)
 * key refuses a second row for a bug should that check ever be bypassed.
 */
import type { BugArtifacts } from "@/evaluator/replay";
import { db } from "@/db/client";
import { assertOneChain, bugResultRow, textBytes } from "./results";
import type { SubmissionStatus } from "@/core/schemas/columns";
import { settleSubmission } from "./settle";

export type CompleteOptions = { jobId: string; workerId: string; bugs: BugArtifacts[]; now?: Date };

export type CompleteResult =
  | { accepted: true; graded: number; submissionId: string; submissionStatus: SubmissionStatus }
  /** the caller did not own the running job: nothing was written */
  | { accepted: false };

/** The chain the job grades and how many bugs it has in the submission's dataset version. */
async function chainOfJob(jobId: string): Promise<{ continuousId: string; length: number } | null> {
  const job = await db.evaluationJob.findUnique({
    where: { id: jobId },
    select: { continuousId: true, submission: { select: { datasetVersionId: true } } },
  });
  if (!job) return null;
  const length = await db.bug.count({
    where: { chain: { continuousId: job.continuousId, datasetVersionId: job.submission.datasetVersionId } },
  });
  return { continuousId: job.continuousId, length };
}

export async function completeJob(o: CompleteOptions): Promise<CompleteResult> {
  const now = o.now ?? new Date();
  const chain = await chainOfJob(o.jobId);
  if (!chain) return { accepted: false };
  assertOneChain(chain.continuousId, o.bugs);
  if (o.bugs.length !== chain.length) {
    // a chain is graded whole (SPEC §3: a Seq chain is never aborted); a partial one is a bug in the caller
    throw new Error(`${chain.continuousId}: ${o.bugs.length} graded bug(s) handed in for a chain of ${chain.length}`);
  }
  return db.$transaction(
    async (tx) => {
      const owned = await tx.evaluationJob.updateMany({
        where: { id: o.jobId, status: "running", leaseOwner: o.workerId },
        data: { status: "done", leaseExpiresAt: null, finishedAt: now, lastError: null },
      });
      // nothing written yet, so returning (not throwing) leaves the database as it was
      if (owned.count === 0) return { accepted: false } as const;
      const { submissionId } = await tx.evaluationJob.findUniqueOrThrow({ where: { id: o.jobId }, select: { submissionId: true } });
      const rows = o.bugs.map((a) => bugResultRow(submissionId, a));
      await tx.bugResult.createMany({ data: rows });
      // the logs count against the team's storage from now on
      await tx.submission.update({ where: { id: submissionId }, data: { resultBytes: { increment: BigInt(textBytes(rows)) } } });
      const submissionStatus = await settleSubmission(tx, submissionId);
      return { accepted: true, graded: o.bugs.length, submissionId, submissionStatus } as const;
    },
    // logs can be large and slots in one process share one connection: wait for it, and allow a big insert
    { maxWait: 30_000, timeout: 120_000 },
  );
}
