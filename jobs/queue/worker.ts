/**
 * The embedded worker pool: `concurrency` slots, each claiming one chain at a
 * time and replaying it (run-job.ts). Each slot is its own lease owner
 * ("<workerId>/<slot>"), so two slots of one process never act on each other's
 * jobs. Nothing is kept in memory that the database does not also hold: a pool
 * killed at any moment loses at most the chains it was replaying, which are
 * claimed again once their leases run out.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { defaultLimits, type SandboxLimits } from "@/evaluator/sandbox";
import { db } from "@/db/client";
import { coerceError } from "@/core/errors";
import { claimJob } from "./claim";
import { DEFAULT_QUEUE_POLICY, type BackoffPolicy, type ClaimedJob, type QueueLoaders, type QueuePolicy } from "./payload";
import { reapOrphanSandboxes } from "./reap";
import { ChainRun } from "./run-job";
import { claimValidationJob, ValidationRun, type ClaimedValidation } from "@/jobs/validation";

export type WorkerPoolOptions = {
  concurrency: number;
  leaseMs: number;
  /** how long an idle slot waits before looking for work again */
  pollMs: number;
  /** unique among the workers sharing the database, e.g. host:pid */
  workerId: string;
  /** the chain, predictions and aggregates, through the portal's data layer (lib/site/queue-loaders.ts) */
  loaders: QueueLoaders;
  maxAttempts?: number;
  backoff?: BackoffPolicy;
  limits?: SandboxLimits;
  log?: (line: string) => void;
  /** remove dead workers' sandboxes (default true); off only where no Docker engine is meant to be reached */
  reapOrphans?: boolean;
  /** stop once no job is queued or running anywhere (a batch run, e.g. seeding the demo), instead of polling forever */
  untilIdle?: boolean;
  /** gold runs of a proposed chain's validation (CHAINSWE_FLAKY_RUNS); default 3 */
  flakyRuns?: number;
};

export type WorkerPool = {
  /**
   * Stops claiming. By default waits for the chains being replayed to finish;
   * with `release`, aborts them (their sandboxes are removed) and gives their
   * jobs back to the queue at once, for a quick shutdown.
   */
  stop(opts?: { release?: boolean }): Promise<void>;
  /** settles when every slot has stopped (with `untilIdle`, when the queue ran dry) */
  done: Promise<void>;
};

type Slot = { workerId: string; run: ChainRun | ValidationRun | undefined };

/** What a slot takes, highest priority first (the queue view shows it): an evaluation, else a proposed chain's validation. */
export const JOB_PRIORITIES = { evaluation: 1, validation: 2 } as const;

export type NextJob = { kind: "evaluation"; job: ClaimedJob } | { kind: "validation"; job: ClaimedValidation };

/**
 * The job a free slot claims: a validation only when no evaluation is
 * runnable, so an evaluation waits at most for the one job each slot is running.
 */
export async function claimNextJob(o: { workerId: string; policy: QueuePolicy; flakyRuns: number }): Promise<NextJob | null> {
  const job = await claimJob({ workerId: o.workerId, policy: o.policy });
  if (job) return { kind: "evaluation", job };
  const validation = await claimValidationJob({ workerId: o.workerId, policy: o.policy, runs: o.flakyRuns });
  return validation ? { kind: "validation", job: validation } : null;
}

export function startWorkerPool(o: WorkerPoolOptions): WorkerPool {
  const policy: QueuePolicy = {
    leaseMs: o.leaseMs,
    maxAttempts: o.maxAttempts ?? DEFAULT_QUEUE_POLICY.maxAttempts,
    backoff: o.backoff ?? DEFAULT_QUEUE_POLICY.backoff,
  };
  const log = o.log ?? ((line: string) => process.stderr.write(`${new Date().toISOString()} ${line}\n`));
  const ctx = { policy, limits: o.limits ?? defaultLimits(), loaders: o.loaders, log };
  const idle = new AbortController();
  let stopping = false;

  const reap = () => (o.reapOrphans === false ? Promise.resolve(0) : reapOrphanSandboxes(log));
  const rest = () => sleep(o.pollMs, undefined, { signal: idle.signal }).catch(() => {});

  async function loop(slot: Slot): Promise<void> {
    while (!stopping) {
      let next: NextJob | null = null;
      try {
        next = await claimNextJob({ workerId: slot.workerId, policy, flakyRuns: o.flakyRuns ?? 3 });
      } catch (e) {
        log(`${slot.workerId}: claiming failed: ${coerceError(e).message}`);
      }
      if (next?.kind === "validation") {
        slot.run = new ValidationRun(next.job, ctx);
        await slot.run.run();
        slot.run = undefined;
        continue;
      }
      const job = next?.job;
      if (!job) {
        if (o.untilIdle && (await queueIsDry())) return;
        await rest();
        continue;
      }
      // an earlier attempt's worker may have died with its sandbox still running
      if (job.attempts > 1) await reap();
      slot.run = new ChainRun(job, ctx);
      await slot.run.run();
      slot.run = undefined;
    }
  }

  const open = { where: { status: { in: ["queued", "running"] } } };
  const queueIsDry = async () => (await db.evaluationJob.count(open)) + (await db.validationJob.count(open)) === 0;

  const slots: Slot[] = Array.from({ length: Math.max(1, o.concurrency) }, (_, i) => ({ workerId: `${o.workerId}/${i}`, run: undefined }));
  const started = reap().then(() => Promise.all(slots.map(loop)));
  log(`worker ${o.workerId}: ${slots.length} slot(s), lease ${policy.leaseMs} ms, up to ${policy.maxAttempts} attempt(s) per chain`);

  return {
    async stop(opts = {}) {
      stopping = true;
      idle.abort();
      if (opts.release) for (const slot of slots) slot.run?.abort("released");
      await started;
    },
    done: started.then(() => undefined),
  };
}
