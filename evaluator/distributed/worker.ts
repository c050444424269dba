/**
 * `chainswe worker --redis URL`: a worker for the distributed deployment. It
 * takes chain jobs from Redis (BullMQ), replays each in a sandbox on its own
 * Docker engine (DOCKER_HOST or the local socket) and reports back through the
 * reports queue. It never opens the database: the job carries what the replay
 * needs, and the site stores the reports (dispatcher.ts).
 *
 * A worker killed outright holds its job's lock until it runs out; BullMQ then
 * marks the job stalled and gives it to another worker, which replays the chain
 * from the start under the same lease. The dead worker's container is removed
 * by whichever worker on that engine next notices that its owner's presence key
 * in Redis has expired.
 */
import { hostname } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { Queue, Worker, type Job } from "bullmq";
import { Redis } from "ioredis";
import { QUEUE_LABEL } from "@/evaluator/queue/labels";
import { replayInSandbox, type BugArtifacts } from "@/evaluator/replay";
import { ChainStop } from "@/evaluator/replay/chain-stop";
import { docker, type SandboxLimits } from "@/evaluator/sandbox";
import { coerceError } from "@/lib/errors";
import {
  CHAINS_QUEUE,
  QUEUE_PREFIX,
  REPORTS_QUEUE,
  abortKey,
  chainJobSchema,
  redisConnection,
  reportJobId,
  toWireError,
  type ChainJob,
  type Report,
} from "./protocol";

export const WORKER_LABEL = "chainswe.worker";
const presenceKey = (workerId: string) => `${QUEUE_PREFIX}:worker:${workerId}`;

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

/** A chain being replayed here, stoppable by the site (its abort key) or by this worker's stop. */
class Replay extends ChainStop {
  constructor(readonly job: ChainJob) {
    super();
  }
}

export async function startDistributedWorker(o: DistributedWorkerOptions): Promise<DistributedWorker> {
  const connection = redisConnection(o.redisUrl);
  const reports = new Queue<Report>(REPORTS_QUEUE, { connection, prefix: QUEUE_PREFIX });
  // this worker's presence key, which tells other workers on its engine that its containers are alive
  const presence = new Redis(connection);
  const running = new Set<Replay>();
  const queueId = `redis:${connection.host}:${connection.port}/${connection.db ?? 0}`;
  const presenceTtlS = Math.max(5, Math.ceil((o.lockMs * 3) / 1000));

  const report = async (r: Report) => {
    const jobId = reportJobId(r);
    // the site retries a report it could not store (its database away) for a good while before giving up on it
    await reports.add(r.kind, r, { ...(jobId ? { jobId } : {}), attempts: 30, backoff: { type: "exponential", delay: 1000 }, removeOnComplete: true, removeOnFail: 1000 });
  };

  const beat = async () => {
    await presence.set(presenceKey(o.workerId), String(Date.now()), "EX", presenceTtlS);
  };

  /** Containers on this engine whose worker's presence key has expired: their worker died. */
  const reapOrphans = async () => {
    try {
      // only this deployment's sandboxes: another queue on the same engine has its own reaper
      const containers = await docker().listContainers({ all: true, filters: { label: [WORKER_LABEL, `${QUEUE_LABEL}=${queueId}`] } });
      for (const c of containers) {
        const owner = c.Labels[WORKER_LABEL]!;
        if (owner === o.workerId || (await presence.exists(presenceKey(owner)))) continue;
        await docker().getContainer(c.Id).remove({ force: true, v: true }).catch(() => {});
        o.log(`removed orphaned sandbox ${c.Id.slice(0, 12)} of worker ${owner}`);
      }
    } catch (e) {
      o.log(`could not reap orphaned sandboxes: ${coerceError(e).message}`);
    }
  };

  async function process(bullJob: Job): Promise<void> {
    const job = chainJobSchema.parse(bullJob.data);
    const name = `${job.chain.continuous_id} (${job.mode}, job ${job.jobId}, attempt ${job.attempts})`;
    const lease = { jobId: job.jobId, leaseOwner: job.leaseOwner };
    const replay = new Replay(job);
    running.add(replay);
    o.log(`${name}: taken`);
    try {
      const bugs = await replayInSandbox({
        input: {
          chain: job.chain,
          mode: job.mode,
          system: job.system,
          // the dispatcher sends every prediction with its order (0 would match no bug: orders start at 1)
          predictions: new Map(job.predictions.map((p) => [p.order ?? 0, p])),
        },
        limits: o.limits,
        labels: {
          [QUEUE_LABEL]: queueId,
          "chainswe.job": job.jobId,
          "chainswe.lease": job.leaseOwner,
          "chainswe.submission": job.submissionId,
          "chainswe.chain": job.chain.continuous_id,
          "chainswe.mode": job.mode,
          [WORKER_LABEL]: o.workerId,
        },
        onBug: async (a: BugArtifacts) => {
          const { order, resolved, fingerprint } = a.bug;
          o.log(`${name}: bug ${order} ${resolved ? "resolved" : `unresolved (${fingerprint})`}`);
          // display only: a lost progress report costs nothing
          await report({ kind: "progress", ...lease, bug: { order, resolved, fingerprint } }).catch(() => {});
        },
        onSandbox: replay.attach,
        checkStopped: replay.throwIfStopped,
        log: (line) => o.log(`${name}: ${line}`),
      });
      await report({ kind: "graded", ...lease, workerId: o.workerId, bugs });
      o.log(`${name}: done, ${bugs.filter((b) => b.bug.resolved).length}/${bugs.length} resolved`);
    } catch (e) {
      if (replay.reason) {
        await report({ kind: "released", ...lease, workerId: o.workerId, reason: replay.reason });
        o.log(`${name}: released (${replay.reason})`);
      } else {
        const error = toWireError(e, job.chain.continuous_id);
        await report({ kind: "failed", ...lease, workerId: o.workerId, error });
        o.log(`${name}: failed: ${error.kind} error: ${error.message.split("\n")[0]}`);
      }
    } finally {
      running.delete(replay);
    }
  }

  await beat();
  await reapOrphans();
  const worker = new Worker(CHAINS_QUEUE, process, {
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
      if (!r.reason && (await presence.exists(abortKey(r.job.leaseOwner)))) r.stop("cancelled or re-run on the site");
    }
  };
  let ticks = 0;
  const reapEvery = Math.max(1, Math.floor(presenceTtlS / 3));
  const timer = setInterval(() => {
    void honourAborts().catch(() => {});
    if (ticks++ % reapEvery !== 0) return;
    void beat().catch(() => {});
    void reapOrphans();
  }, 1000);
  o.log(`worker ${o.workerId} on ${hostname()}: ${o.concurrency} slot(s), Redis ${connection.host}:${connection.port}, lock ${o.lockMs} ms`);

  return {
    async stop(opts = {}) {
      clearInterval(timer);
      if (opts.release) for (const r of running) r.stop("the worker stopped");
      await worker.close();
      // the last reports of released chains are queued before close returns; give Redis a moment for them
      while (running.size > 0) await sleep(50);
      await presence.del(presenceKey(o.workerId)).catch(() => {});
      presence.disconnect();
      await reports.close();
    },
  };
}
