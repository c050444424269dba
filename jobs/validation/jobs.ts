/**
 * A proposed chain's validation job (SPEC §8) on the workers' queue: queued
 * with the proposal, claimed under a lease, heartbeated, handed in or failed,
 * with the same rules as an evaluation job (jobs/queue/policy.ts: what is
 * runnable, what a failure does). The worker pool claims one only when no
 * evaluation job is runnable (jobs/queue/worker.ts), so an evaluation waits at
 * most for the one job a slot is running. Each write is a conditional update
 * on the caller's lease, so a worker whose lease was taken over writes nothing.
 */
import { db } from "@/db/client";
import type { Tx } from "@/db/tx";
import { chainSchema, type Chain } from "@/core/schemas/dataset";
import { parseColumn } from "@/core/schemas/columns";
import { versionRulesSchema, type FlakyRule } from "@/core/schemas/manifest";
import type { ChainValidationResult } from "@/core/dataset/proposal-validation";
import { failureOutcome, runnableJobWhere, type FailureOutcome } from "@/jobs/queue/policy";
import type { QueuePolicy } from "@/jobs/queue/payload";

/** The validation jobs of a new proposal's chains, queued in the proposal's transaction. */
export async function enqueueValidations(tx: Tx, proposedChainIds: string[]): Promise<void> {
  await tx.validationJob.createMany({ data: proposedChainIds.map((proposedChainId) => ({ proposedChainId })) });
}

export type ClaimedValidation = {
  jobId: string;
  leaseOwner: string;
  attempts: number;
  proposedChainId: string;
  chain: Chain;
  /** gold replays of the chain: the filter's run and the flakiness check's repeats */
  runs: number;
  rule: FlakyRule;
};

const MAX_RACES = 8;

/** Validation jobs whose worker died maxAttempts times fail for good (as jobs/queue/claim.ts does for evaluations). */
async function failExhausted(now: Date, maxAttempts: number): Promise<void> {
  const exhausted = await db.validationJob.findMany({
    where: { status: "running", leaseExpiresAt: { lt: now }, attempts: { gte: maxAttempts } },
    select: { id: true, attempts: true, proposedChainId: true },
  });
  for (const job of exhausted) {
    const error = `environment error: the worker's lease expired ${job.attempts} time(s) (worker killed or hung)`;
    await db.$transaction(async (tx) => {
      const changed = await tx.validationJob.updateMany({
        where: { id: job.id, status: "running", leaseExpiresAt: { lt: now }, attempts: job.attempts },
        data: { status: "failed", leaseOwner: null, leaseExpiresAt: null, finishedAt: now, lastError: error },
      });
      if (changed.count === 1) await tx.proposedChain.update({ where: { id: job.proposedChainId }, data: { status: "failed", refusal: error } });
    });
  }
}

/** Claims the oldest runnable validation job for `workerId`, or null. `runs`: the flakiness check's setting (CHAINSWE_FLAKY_RUNS). */
export async function claimValidationJob(o: { workerId: string; policy: Pick<QueuePolicy, "leaseMs" | "maxAttempts">; runs: number; now?: Date }): Promise<ClaimedValidation | null> {
  const now = o.now ?? new Date();
  await failExhausted(now, o.policy.maxAttempts);
  for (let race = 0; race < MAX_RACES; race++) {
    const candidate = await db.validationJob.findFirst({
      where: { ...runnableJobWhere(now), attempts: { lt: o.policy.maxAttempts } },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      select: { id: true, attempts: true },
    });
    if (!candidate) return null;
    const won = await db.validationJob.updateMany({
      where: { id: candidate.id, attempts: candidate.attempts, ...runnableJobWhere(now) },
      data: { status: "running", leaseOwner: o.workerId, leaseExpiresAt: new Date(now.getTime() + o.policy.leaseMs), attempts: { increment: 1 }, startedAt: now },
    });
    if (won.count === 0) continue;
    const row = await db.validationJob.findUniqueOrThrow({
      where: { id: candidate.id },
      select: { attempts: true, proposedChain: { select: { id: true, record: true, proposal: { select: { datasetVersion: { select: { rules: true } } } } } } },
    });
    const rules = parseColumn(versionRulesSchema, row.proposedChain.proposal.datasetVersion.rules, "DatasetVersion.rules");
    return {
      jobId: candidate.id,
      leaseOwner: o.workerId,
      attempts: row.attempts,
      proposedChainId: row.proposedChain.id,
      chain: chainSchema.parse(JSON.parse(row.proposedChain.record)),
      runs: o.runs,
      rule: rules.flaky_tests ?? "drop",
    };
  }
  return null;
}

const owned = (jobId: string, workerId: string) => ({ id: jobId, status: "running", leaseOwner: workerId });

export async function heartbeatValidation(o: { jobId: string; workerId: string; leaseMs: number; now?: Date }): Promise<boolean> {
  const now = o.now ?? new Date();
  const extended = await db.validationJob.updateMany({ where: owned(o.jobId, o.workerId), data: { leaseExpiresAt: new Date(now.getTime() + o.leaseMs) } });
  return extended.count === 1;
}

/** The verdict a validation hands in: judged (valid or refused), or refused by a dataset error (a test patch that does not apply). */
export type ValidationVerdict = {
  result: ChainValidationResult | null;
  validated: Chain | null;
  /** null when valid */
  refusal: string | null;
  log: string;
};

/** Hands in a verdict: the job done and the chain valid or refused, in one transaction; false when the caller no longer owns the job. */
export async function completeValidation(o: { jobId: string; workerId: string; verdict: ValidationVerdict; now?: Date }): Promise<boolean> {
  const now = o.now ?? new Date();
  const { result, validated, refusal, log } = o.verdict;
  return db.$transaction(async (tx) => {
    const done = await tx.validationJob.updateMany({ where: owned(o.jobId, o.workerId), data: { status: "done", leaseExpiresAt: null, finishedAt: now, lastError: null } });
    if (done.count === 0) return false;
    const { proposedChainId } = await tx.validationJob.findUniqueOrThrow({ where: { id: o.jobId }, select: { proposedChainId: true } });
    await tx.proposedChain.update({
      where: { id: proposedChainId },
      data: {
        status: refusal ? "refused" : "valid",
        validation: result ? JSON.stringify(result) : null,
        validatedRecord: validated ? JSON.stringify(validated) : null,
        refusal,
        log,
      },
    });
    return true;
  }, { maxWait: 30_000, timeout: 120_000 });
}

/** An attempt that threw (not a verdict): retried with backoff, or failed for good with the chain marked failed. Null when not ours. */
export async function failValidation(o: { jobId: string; workerId: string; error: unknown; policy: Pick<QueuePolicy, "maxAttempts" | "backoff">; now?: Date }): Promise<FailureOutcome | null> {
  const now = o.now ?? new Date();
  return db.$transaction(async (tx) => {
    const touched = await tx.validationJob.updateMany({ where: owned(o.jobId, o.workerId), data: { leaseExpiresAt: now } });
    if (touched.count === 0) return null;
    const job = await tx.validationJob.findUniqueOrThrow({ where: { id: o.jobId }, select: { attempts: true, proposedChainId: true } });
    const outcome = failureOutcome(o.error, job.attempts, o.policy, now);
    const common = { lastError: outcome.lastError, leaseOwner: null, leaseExpiresAt: null };
    if (outcome.status === "failed") {
      await tx.validationJob.update({ where: { id: o.jobId }, data: { ...common, status: "failed", finishedAt: now } });
      await tx.proposedChain.update({ where: { id: job.proposedChainId }, data: { status: "failed", refusal: outcome.lastError } });
    } else {
      await tx.validationJob.update({ where: { id: o.jobId }, data: { ...common, status: "queued", runAfter: outcome.runAfter } });
    }
    return outcome;
  }, { maxWait: 30_000 });
}

/** Gives the job back at once, the attempt not counted (the worker is stopping). */
export async function releaseValidation(o: { jobId: string; workerId: string; reason: string; now?: Date }): Promise<boolean> {
  const now = o.now ?? new Date();
  const released = await db.validationJob.updateMany({
    where: { ...owned(o.jobId, o.workerId), attempts: { gt: 0 } },
    data: { status: "queued", leaseOwner: null, leaseExpiresAt: null, runAfter: now, attempts: { decrement: 1 }, lastError: `released: ${o.reason}` },
  });
  return released.count === 1;
}
