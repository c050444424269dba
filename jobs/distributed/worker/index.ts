/**
 * `chainswe worker --redis URL`: a worker for the distributed deployment. It
 * takes chain jobs from Redis (BullMQ), replays each in a sandbox on its own
 * Docker engine (DOCKER_HOST or the local socket; replay-job.ts) and reports
 * back through the reports queue. It never opens the database: the job carries
 * what the replay needs, and the site stores the reports (dispatcher/).
 *
 * A worker killed outright holds its job's lock until it runs out; BullMQ then
 * marks the job stalled and gives it to another worker, which replays the chain
 * from the start under the same lease. The dead worker's container is removed
 * by whichever worker on that engine next notices that its owner's presence key
 * in Redis has expired (presence.ts).
 */
import { hostname } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { Queue, Worker, type Job } from "bullmq";
import { Redis } from "ioredis";
import type { SandboxLimits } from "@/evaluator/sandbox";
import { coerceError } from "@/core/errors";
import { CHAINS_QUEUE, QUEUE_PREFIX, REPORTS_QUEUE, abortKey, chainJobSchema, redisConnection, reportJobId, type Report } from "../protocol";
import { beat, leave, reapOrphans, type Presence } from "./presence";
import { Replay, replayJob } from "./replay-job";

export { WORKER_LABEL } from "./presence";

export type DistributedWorkerOptions = {
  redisUrl: string;
  concurrency: number;
  /** unique among all workers: the default is host:pid */
  workerId: string;
  limits: SandboxLimits;
  /** how long a job stays locked without renewal before it counts as stalled (BullMQ lockDuration) */
  lockMs: number;
  log: (line: string) => void;
};

export type DistributedWorker = {
  /** stops taking jobs; with `release`, stops the running chains and gives them back at once */
  stop(opts?: { release?: boolean }): Promise<void>;
};

export async function startDistributedWorker(o: DistributedWorkerOptions): Promise<DistributedWorker> {
  const connection = redisConnection(o.redisUrl);
  const reports = new Queue<Report>(REPORTS_QUEUE, { connection, prefix: QUEUE_PREFIX });
  const queueId = `redis:${connection.host}:${connection.port}/${connection.db ?? 0}`;
  const presence: Presence = { redis: new Redis(connection), workerId: o.workerId, queueId, ttlS: Math.max(5, Math.ceil((o.lockMs * 3) / 1000)), log: o.log };
  const running = new Set<Replay>();

  const report = async (r: Report) => {
    const jobId = reportJobId(r);
    // the site retries a report it could not store (its database away) for a good while before giving up on it
    await reports.add(r.kind, r, { ...(jobId ? { jobId } : {}), attempts: 30, backoff: { type: "exponential", delay: 1000 }, removeOnComplete: true, removeOnFail: 1000 });
  };

  async function take(bullJob: Job): Promise<void> {
    const replay = new Replay(chainJobSchema.parse(bullJob.data));
    running.add(replay);
    try {
      await replayJob(replay, { workerId: o.workerId, queueId, limits: o.limits, report, log: o.log });
    } finally {
      running.delete(replay);
    }
  }

  await beat(presence);
  await reapOrphans(presence);
  const worker = new Worker(CHAINS_QUEUE, take, {
    connection,
    prefix: QUEUE_PREFIX,
    concurrency: o.concurrency,
    lockDuration: o.lockMs,
    stalledInterval: Math.max(1000, Math.floor(o.lockMs / 2)),
    // a chain that stalls its worker again and again (it kills it) is failed by the site after its attempts
    maxStalledCount: 5,
  });
  worker.on("error", (e) => o.log(`worker ${o.workerId}: ${coerceError(e).message}`));
  /** Stops the chains the site no longer wants (cancelled, re-run): their containers go at once. */
  const honourAborts = async () => {
    for (const r of running) {
      if (!r.reason && (await presence.redis.exists(abortKey(r.job.leaseOwner)))) r.stop("cancelled or re-run on the site");
    }
  };
  let ticks = 0;
  const reapEvery = Math.max(1, Math.floor(presence.ttlS / 3));
  const timer = setInterval(() => {
    void honourAborts().catch(() => {});
    if (ticks++ % reapEvery !== 0) return;
    void beat(presence).catch(() => {});
    void reapOrphans(presence);
  }, 1000);
  o.log(`worker ${o.workerId} on ${hostname()}: ${o.concurrency} slot(s), Redis ${connection.host}:${connection.port}, lock ${o.lockMs} ms`);

  return {
    async stop(opts = {}) {
      clearInterval(timer);
      if (opts.release) for (const r of running) r.stop("the worker stopped");
      await worker.close();
      // the last reports of released chains are queued before close returns; give Redis a moment for them
      while (running.size > 0) await sleep(50);
      await leave(presence);
      presence.redis.disconnect();
      await reports.close();
    },
  };
}
