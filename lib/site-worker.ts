/**
 * The embedded evaluation worker (issue 3, item 5): the site process runs
 * CHAINSWE_SITE_WORKERS slots of the durable queue's worker pool, so the quick
 * start needs no second process. Started once per process from
 * instrumentation.ts; nothing lives only in memory, so a site killed at any
 * moment loses nothing (its leases run out and the chains are claimed again).
 * With CHAINSWE_QUEUE=bullmq the site replays nothing itself: it runs the
 * dispatcher, which hands chains to `chainswe worker --redis` processes on
 * other machines and stores their reports (evaluator/distributed).
 */
import { hostname } from "node:os";
import { env } from "@/env";
import { DEFAULT_QUEUE_POLICY, startWorkerPool, type WorkerPool } from "@/evaluator/queue";
import { assertEngine, defaultLimits } from "@/evaluator/sandbox";
import { coerceError } from "@/lib/errors";

const holder = globalThis as { chainsweSiteWorker?: Pick<WorkerPool, "stop"> };

async function startSiteDispatcher(redisUrl: string | undefined): Promise<void> {
  if (!redisUrl) throw new Error("CHAINSWE_QUEUE=bullmq needs REDIS_URL");
  const e = env();
  const { startDispatcher } = await import("@/evaluator/distributed/dispatcher");
  const dispatcher = startDispatcher({
    redisUrl,
    policy: { ...DEFAULT_QUEUE_POLICY, leaseMs: e.CHAINSWE_LEASE_S * 1000 },
    maxInFlight: e.CHAINSWE_DISPATCH_MAX,
    pollMs: 1000,
    log: (line) => process.stderr.write(`${new Date().toISOString()} [dispatcher] ${line}\n`),
  });
  holder.chainsweSiteWorker = dispatcher;
  const stop = () => void dispatcher.stop();
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}

export async function startSiteWorker(): Promise<void> {
  const { CHAINSWE_SITE_WORKERS, CHAINSWE_LEASE_S, CHAINSWE_QUEUE, REDIS_URL } = env();
  if (holder.chainsweSiteWorker) return;
  if (CHAINSWE_QUEUE === "bullmq") return startSiteDispatcher(REDIS_URL);
  if (CHAINSWE_SITE_WORKERS === 0) return;
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
