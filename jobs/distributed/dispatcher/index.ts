/**
 * The site's side of the distributed deployment (CHAINSWE_QUEUE=bullmq): it
 * claims chains from the database queue as the embedded worker would, but
 * instead of replaying them it puts them on Redis for `chainswe worker --redis`
 * processes (dispatch.ts), keeps their database leases alive while Redis holds
 * them (leases.ts), and stores what the workers report (reports.ts).
 *
 * Every write goes through the database queue's own lease-checked functions
 * (complete, fail, release, progress), under the lease the chain was claimed
 * with, so a report from a superseded attempt changes nothing and a report seen
 * twice lands once. Nothing lives only in this process: killed and restarted,
 * the dispatcher first renews the leases of the chains Redis still holds (so it
 * never claims its own chains again), and the reports that arrived meanwhile
 * wait in Redis until it reads them.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { Queue, Worker, type Job } from "bullmq";
import { Redis } from "ioredis";
import type { QueueLoaders, QueuePolicy } from "@/jobs/queue";
import { coerceError } from "@/core/errors";
import { CHAINS_QUEUE, QUEUE_PREFIX, REPORTS_QUEUE, redisConnection, reportSchema, type ChainJob } from "../protocol";
import { dispatchOne } from "./dispatch";
import { renewDispatched, withdrawUnwanted, type RedisSide } from "./leases";
import { storeReport } from "./reports";

export { DISPATCH_LEASE_PREFIX } from "./leases";

export type DispatcherOptions = {
  redisUrl: string;
  policy: QueuePolicy;
  /** chains on Redis at once (waiting or being replayed) */
  maxInFlight: number;
  pollMs: number;
  /** the chain, predictions and aggregates, through the portal's data layer (lib/site/queue-loaders.ts) */
  loaders: QueueLoaders;
  log: (line: string) => void;
};

export type Dispatcher = { stop(): Promise<void> };

export function startDispatcher(o: DispatcherOptions): Dispatcher {
  const connection = redisConnection(o.redisUrl);
  // the producer fails fast while Redis is away (the chain is released and claimed again later)
  const chains = new Queue<ChainJob>(CHAINS_QUEUE, { connection: { ...connection, maxRetriesPerRequest: 1, enableOfflineQueue: false }, prefix: QUEUE_PREFIX });
  chains.on("error", () => {});
  // the set of dispatched chains and the abort keys
  const redis = new Redis({ ...connection, maxRetriesPerRequest: 1, enableOfflineQueue: false });
  redis.on("error", () => {});
  const side: RedisSide = { chains, redis, policy: o.policy, log: o.log };

  // a report that cannot be stored (database away) is retried by BullMQ, not lost
  const reports = new Worker(REPORTS_QUEUE, async (job: Job) => storeReport(reportSchema.parse(job.data), o), { connection, prefix: QUEUE_PREFIX, concurrency: 1 });
  reports.on("error", (e) => o.log(`dispatcher: reports: ${coerceError(e).message}`));

  let stopping = false;
  const loop = (async () => {
    while (!stopping) {
      try {
        // renewal first: after a restart, the chains Redis holds are ours again before anything is claimed
        let inFlight = await renewDispatched(side);
        await withdrawUnwanted(side);
        while (!stopping && inFlight < o.maxInFlight && (await dispatchOne({ ...side, loaders: o.loaders }))) inFlight++;
      } catch (e) {
        o.log(`dispatcher: ${coerceError(e).message.split("\n")[0]}`);
      }
      await sleep(o.pollMs);
    }
  })();
  o.log(`dispatcher: chains to Redis ${connection.host}:${connection.port} (up to ${o.maxInFlight} at once), lease ${o.policy.leaseMs} ms`);

  return {
    async stop() {
      stopping = true;
      await loop;
      await reports.close();
      await chains.close();
      redis.disconnect();
    },
  };
}
