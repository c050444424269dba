/**
 * The embedded evaluation worker (issue 3, item 5): the site process runs
 * CHAINSWE_SITE_WORKERS slots of the durable queue's worker pool, so the quick
 * start needs no second process. Started once per process from
 * instrumentation.ts; nothing lives only in memory, so a site killed at any
 * moment loses nothing (its leases run out and the chains are claimed again).
 */
import { hostname } from "node:os";
import { env } from "@/env";
import { startWorkerPool, type WorkerPool } from "@/evaluator/queue";
import { assertEngine, defaultLimits } from "@/evaluator/sandbox";
import { coerceError } from "@/lib/errors";

const holder = globalThis as { chainsweSiteWorker?: WorkerPool };

export async function startSiteWorker(): Promise<void> {
  const { CHAINSWE_SITE_WORKERS, CHAINSWE_LEASE_S } = env();
  if (CHAINSWE_SITE_WORKERS === 0 || holder.chainsweSiteWorker) return;
  const log = (line: string) => process.stderr.write(`${new Date().toISOString()} [worker] ${line}\n`);
  // the pool still starts without an engine: its chains fail as retryable environment errors, never as grades
  await assertEngine().catch((e: unknown) => log(`${coerceError(e).message}; chains will be retried until it answers`));
  const pool = startWorkerPool({
    concurrency: CHAINSWE_SITE_WORKERS,
    leaseMs: CHAINSWE_LEASE_S * 1000,
    pollMs: 1000,
    workerId: `site:${hostname()}:${process.pid}`,
    limits: defaultLimits(),
    log,
  });
  holder.chainsweSiteWorker = pool;
  // a clean stop hands running chains back at once instead of waiting out the lease
  const stop = () => void pool.stop({ release: true });
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}
