/**
 * The embedded evaluation worker: the site process runs
 * CHAINSWE_SITE_WORKERS slots of the durable queue's worker pool, so the quick
 * start needs no second process. Started once per process from
 * instrumentation.ts; nothing lives only in memory, so a site killed at any
 * moment loses nothing (its leases run out and the chains are claimed again).
 * With CHAINSWE_QUEUE=bullmq the site replays nothing itself: it runs the
 * dispatcher, which hands chains to `chainswe worker --redis` processes on
 * other machines and stores their reports (jobs/distributed).
 * Either way the site also runs the notification delivery loop
 * (lib/notifications/loop.ts): webhooks and e-mail are sent from the site only,
 * and the hourly cleanup of cancelled submissions (lib/submissions/removal.ts).
 */
import { hostname } from "node:os";
import { env } from "@/env";
import { DEFAULT_QUEUE_POLICY, startWorkerPool, type WorkerPool } from "@/jobs/queue";
import { assertEngine, defaultLimits } from "@/evaluator/sandbox";
import { coerceError } from "@/core/errors";
import { startDeliveryLoop, type DeliveryLoop } from "@/lib/notifications/loop";
import { portalLoaders } from "@/lib/site/queue-loaders";
import { purgeCancelledSubmissions } from "@/lib/submissions/removal";

const holder = globalThis as { chainsweSiteWorker?: Pick<WorkerPool, "stop">; chainsweDeliveryLoop?: DeliveryLoop; chainsweCleanup?: NodeJS.Timeout };

const CLEANUP_EVERY_MS = 3600_000;

/** Deletes cancelled submissions past CHAINSWE_CANCELLED_KEEP_DAYS, now and hourly; safe in several site processes at once (each deletion checks its row). */
function startSiteCleanup(): void {
  if (holder.chainsweCleanup) return;
  const log = (line: string) => process.stderr.write(`${new Date().toISOString()} [cleanup] ${line}\n`);
  const run = () =>
    void purgeCancelledSubmissions(env().CHAINSWE_CANCELLED_KEEP_DAYS)
      .then((n) => n > 0 && log(`deleted ${n} cancelled submission(s)`))
      .catch((e: unknown) => log(`failed: ${coerceError(e).message}`));
  holder.chainsweCleanup = setInterval(run, CLEANUP_EVERY_MS);
  holder.chainsweCleanup.unref();
  run();
}

/** Webhook and e-mail deliveries; nothing to hand back on stopping (a claim left behind runs out: lib/notifications/deliveries.ts). */
function startSiteDeliveries(): void {
  if (holder.chainsweDeliveryLoop) return;
  holder.chainsweDeliveryLoop = startDeliveryLoop({
    pollMs: 1000,
    log: (line) => process.stderr.write(`${new Date().toISOString()} [notifications] ${line}\n`),
  });
}

async function startSiteDispatcher(redisUrl: string | undefined): Promise<void> {
  if (!redisUrl) throw new Error("CHAINSWE_QUEUE=bullmq needs REDIS_URL");
  const e = env();
  const { startDispatcher } = await import("@/jobs/distributed/dispatcher");
  const dispatcher = startDispatcher({
    redisUrl,
    loaders: portalLoaders,
    policy: { ...DEFAULT_QUEUE_POLICY, leaseMs: e.CHAINSWE_LEASE_S * 1000 },
    maxInFlight: e.CHAINSWE_DISPATCH_MAX,
    pollMs: 1000,
    log: (line) => process.stderr.write(`${new Date().toISOString()} [dispatcher] ${line}\n`),
  });
  holder.chainsweSiteWorker = dispatcher;
  stopOnSignal(() => dispatcher.stop());
}

/** How long a stopping site waits for its chains to be handed back before it exits anyway. */
const STOP_GRACE_MS = 20_000;

/**
 * The site's server (server.ts) leaves SIGTERM/SIGINT to the app: the site
 * stops its worker or dispatcher, so running chains go back to the queue at
 * once instead of waiting out their lease, then exits.
 */
function stopOnSignal(stop: () => Promise<unknown>): void {
  const onSignal = (signal: NodeJS.Signals) => {
    // 0 once the chains are back, as `chainswe worker` does; 1 if the grace ran out first
    const code = 0;
    process.stderr.write(`${new Date().toISOString()} [worker] ${signal}: handing running chains back\n`);
    const grace = setTimeout(() => process.exit(1), STOP_GRACE_MS);
    grace.unref();
    void stop()
      .catch((e: unknown) => process.stderr.write(`stopping the worker failed: ${coerceError(e).message}\n`))
      .finally(() => process.exit(code));
  };
  process.once("SIGTERM", onSignal);
  process.once("SIGINT", onSignal);
}

export async function startSiteWorker(): Promise<void> {
  const { CHAINSWE_SITE_WORKERS, CHAINSWE_LEASE_S, CHAINSWE_QUEUE, REDIS_URL } = env();
  startSiteDeliveries();
  startSiteCleanup();
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
    loaders: portalLoaders,
    limits: defaultLimits(),
    flakyRuns: env().CHAINSWE_FLAKY_RUNS,
    log,
  });
  holder.chainsweSiteWorker = pool;
  // a clean stop hands running chains back at once instead of waiting out the lease
  stopOnSignal(() => pool.stop({ release: true }));
}
