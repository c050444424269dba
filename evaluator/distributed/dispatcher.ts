/**
 * The site's side of the distributed deployment (CHAINSWE_QUEUE=bullmq): it
 * claims chains from the database queue as the embedded worker would, but
 * instead of replaying them it puts them on Redis for `chainswe worker --redis`
 * processes, keeps their database leases alive while Redis holds them, and
 * stores what the workers report.
 *
 * Every write goes through the database queue's own lease-checked functions
 * (complete, fail, release, progress), under the lease the chain was claimed
 * with, so a report from a superseded attempt changes nothing and a report seen
 * twice lands once. Nothing lives only in this process: killed and restarted,
 * the dispatcher first renews the leases of the chains Redis still holds (so it
 * never claims its own chains again), and the reports that arrived meanwhile
 * wait in Redis until it reads them.
 */
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { Queue, Worker, type Job } from "bullmq";
import { Redis } from "ioredis";
import { claimJob, completeJob, failJob, releaseJob, heartbeatJob, storeAggregates, type QueueLoaders, type QueuePolicy } from "@/evaluator/queue";
import { recordBugProgress } from "@/evaluator/queue/progress";
import { db } from "@/lib/db";
import { DatasetError, EnvironmentError, coerceError } from "@/lib/errors";
import {
  CHAINS_QUEUE,
  DISPATCHED_SET,
  QUEUE_PREFIX,
  abortKey,
  REPORTS_QUEUE,
  chainJobId,
  fromWireError,
  redisConnection,
  reportSchema,
  type ChainJob,
  type Report,
} from "./protocol";

/** Lease owners of chains handed to Redis start with this; no embedded worker's id does. */
export const DISPATCH_LEASE_PREFIX = "bullmq-";

export type DispatcherOptions = {
  redisUrl: string;
  policy: QueuePolicy;
  /** chains on Redis at once (waiting or being replayed) */
  maxInFlight: number;
  pollMs: number;
  /** the chain, predictions and aggregates, through the portal's data layer (lib/queue-loaders.ts) */
  loaders: QueueLoaders;
  log: (line: string) => void;
};

export type Dispatcher = { stop(): Promise<void> };

/** BullMQ states in which the chain is still Redis's to finish. */
const HELD = new Set(["waiting", "active", "delayed", "prioritized", "waiting-children", "completed"]);

export function startDispatcher(o: DispatcherOptions): Dispatcher {
  const connection = redisConnection(o.redisUrl);
  // the producer fails fast while Redis is away (the chain is released and claimed again later)
  const chains = new Queue<ChainJob>(CHAINS_QUEUE, { connection: { ...connection, maxRetriesPerRequest: 1, enableOfflineQueue: false }, prefix: QUEUE_PREFIX });
  chains.on("error", () => {});
  // the set of dispatched chains and the abort keys
  const redis = new Redis({ ...connection, maxRetriesPerRequest: 1, enableOfflineQueue: false });
  redis.on("error", () => {});
  const name = (jobId: string, leaseOwner: string) => `job ${jobId} (${leaseOwner})`;

  async function handle(r: Report): Promise<void> {
    const lease = { jobId: r.jobId, workerId: r.leaseOwner };
    switch (r.kind) {
      case "progress":
        await recordBugProgress({ ...lease, bug: r.bug });
        return;
      case "graded": {
        const done = await completeJob({ ...lease, bugs: r.bugs });
        o.log(`${name(r.jobId, r.leaseOwner)}: ${done.accepted ? `graded by ${r.workerId}, ${r.bugs.filter((b) => b.bug.resolved).length}/${r.bugs.length} resolved` : "graded again or superseded; ignored"}`);
        if (done.accepted && done.submissionStatus === "completed") await storeAggregates(done.submissionId, o.loaders, o.log);
        return;
      }
      case "failed": {
        const continuousId = (await db.evaluationJob.findUnique({ where: { id: r.jobId }, select: { continuousId: true } }))?.continuousId ?? "?";
        const outcome = await failJob({ ...lease, error: fromWireError(r.error, continuousId), policy: o.policy });
        o.log(`${name(r.jobId, r.leaseOwner)}: failed on ${r.workerId}: ${outcome ? (outcome.status === "failed" ? `for good: ${outcome.lastError}` : `retry after ${outcome.runAfter.toISOString()}: ${outcome.lastError.split("\n")[0]}`) : "superseded; ignored"}`);
        return;
      }
      case "released":
        await releaseJob({ ...lease, reason: `${r.workerId}: ${r.reason}` });
        o.log(`${name(r.jobId, r.leaseOwner)}: released by ${r.workerId} (${r.reason})`);
    }
  }

  // a report that cannot be stored (database away) is retried by BullMQ, not lost
  const reports = new Worker(REPORTS_QUEUE, async (job: Job) => handle(reportSchema.parse(job.data)), { connection, prefix: QUEUE_PREFIX, concurrency: 1 });
  reports.on("error", (e) => o.log(`dispatcher: reports: ${coerceError(e).message}`));

  /** Renews the leases of dispatched chains Redis still holds; gives back those it lost. Answers how many it holds. */
  async function renew(): Promise<number> {
    const dispatched = await db.evaluationJob.findMany({
      where: { status: "running", leaseOwner: { startsWith: DISPATCH_LEASE_PREFIX } },
      select: { id: true, leaseOwner: true },
    });
    let held = 0;
    for (const job of dispatched) {
      const leaseOwner = job.leaseOwner!;
      const state = await chains.getJobState(chainJobId(leaseOwner));
      if (HELD.has(state)) {
        await heartbeatJob({ jobId: job.id, workerId: leaseOwner, leaseMs: o.policy.leaseMs });
        held++;
      } else if (state === "failed") {
        // BullMQ gave up on it: its workers kept dying on it (stalled too often)
        await failJob({ jobId: job.id, workerId: leaseOwner, error: new EnvironmentError("the chain's workers died while replaying it"), policy: o.policy });
      } else {
        // Redis no longer has it (restarted without persistence): claim it again, the attempt not counted
        await releaseJob({ jobId: job.id, workerId: leaseOwner, reason: "the queue lost the chain" });
        o.log(`${name(job.id, leaseOwner)}: Redis no longer holds it; released to be dispatched again`);
      }
    }
    return held;
  }

  /**
   * Chains on Redis that the database no longer wants under that lease (the
   * team cancelled, a reviewer re-ran, or the chain settled): a waiting one is
   * taken off the queue, a running one is told to stop (its worker watches the
   * abort key), a finished one is forgotten.
   */
  async function withdrawUnwanted(): Promise<void> {
    const owners = await redis.smembers(DISPATCHED_SET);
    if (owners.length === 0) return;
    const wanted = await db.evaluationJob.findMany({ where: { status: "running", leaseOwner: { in: owners } }, select: { leaseOwner: true } });
    const keep = new Set(wanted.map((w) => w.leaseOwner));
    for (const owner of owners) {
      if (keep.has(owner)) continue;
      const state = await chains.getJobState(chainJobId(owner));
      if (state === "waiting" || state === "delayed" || state === "prioritized") {
        await chains.remove(chainJobId(owner));
        o.log(`${owner}: no longer wanted; taken off the queue`);
      } else if (state === "active") {
        if ((await redis.set(abortKey(owner), "1", "EX", 3600, "NX")) === "OK") o.log(`${owner}: no longer wanted; its worker is told to stop`);
        continue;
      }
      await redis.srem(DISPATCHED_SET, owner);
    }
  }

  async function dispatchOne(): Promise<boolean> {
    const leaseOwner = `${DISPATCH_LEASE_PREFIX}${randomUUID()}`;
    const claimed = await claimJob({ workerId: leaseOwner, policy: o.policy });
    if (!claimed) return false;
    const { payload } = claimed;
    try {
      const chain = await o.loaders.chain(payload.datasetVersion, payload.continuousId);
      if (!chain) throw new DatasetError(`no chain ${payload.continuousId} in dataset version ${payload.datasetVersion}`, payload.continuousId);
      const predictions = [...(await o.loaders.predictions(payload.submissionId, payload.continuousId)).values()];
      const job: ChainJob = { jobId: claimed.jobId, leaseOwner, attempts: claimed.attempts, submissionId: payload.submissionId, mode: payload.mode, system: payload.system, chain, predictions };
      await redis.sadd(DISPATCHED_SET, leaseOwner);
      await chains.add("chain", job, { jobId: chainJobId(leaseOwner), removeOnComplete: { age: 3600 }, removeOnFail: { age: 24 * 3600 } });
      o.log(`${name(claimed.jobId, leaseOwner)}: ${payload.continuousId} (${payload.mode}) queued for the workers`);
    } catch (e) {
      if (e instanceof DatasetError) await failJob({ jobId: claimed.jobId, workerId: leaseOwner, error: e, policy: o.policy });
      else await releaseJob({ jobId: claimed.jobId, workerId: leaseOwner, reason: `could not queue it: ${coerceError(e).message}` });
      throw e;
    }
    return true;
  }

  let stopping = false;
  const loop = (async () => {
    while (!stopping) {
      try {
        // renewal first: after a restart, the chains Redis holds are ours again before anything is claimed
        let inFlight = await renew();
        await withdrawUnwanted();
        while (!stopping && inFlight < o.maxInFlight && (await dispatchOne())) inFlight++;
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
