/**
 * Keeping the database and Redis in step about dispatched chains: the leases
 * of chains Redis still holds are renewed (so a restarted dispatcher never
 * claims its own chains again), lost ones are given back, and chains the
 * database no longer wants under that lease are withdrawn from Redis.
 */
import type { Queue } from "bullmq";
import type { Redis } from "ioredis";
import { failJob, heartbeatJob, releaseJob, runningLeases, stillRunning, type QueuePolicy } from "@/jobs/queue";
import { EnvironmentError } from "@/core/errors";
import { DISPATCHED_SET, abortKey, chainJobId, type ChainJob } from "../protocol";

/** Lease owners of chains handed to Redis start with this; no embedded worker's id does. */
export const DISPATCH_LEASE_PREFIX = "bullmq-";

/** BullMQ states in which the chain is still Redis's to finish. */
const HELD = new Set(["waiting", "active", "delayed", "prioritized", "waiting-children", "completed"]);

export type RedisSide = { chains: Queue<ChainJob>; redis: Redis; policy: QueuePolicy; log: (line: string) => void };

/** Renews the leases of dispatched chains Redis still holds; gives back those it lost. Answers how many it holds. */
export async function renewDispatched(o: RedisSide): Promise<number> {
  let held = 0;
  for (const { jobId, leaseOwner } of await runningLeases(DISPATCH_LEASE_PREFIX)) {
    const state = await o.chains.getJobState(chainJobId(leaseOwner));
    if (HELD.has(state)) {
      await heartbeatJob({ jobId, workerId: leaseOwner, leaseMs: o.policy.leaseMs });
      held++;
    } else if (state === "failed") {
      // BullMQ gave up on it: its workers kept dying on it (stalled too often)
      await failJob({ jobId, workerId: leaseOwner, error: new EnvironmentError("the chain's workers died while replaying it"), policy: o.policy });
    } else {
      // Redis no longer has it (restarted without persistence): claim it again, the attempt not counted
      await releaseJob({ jobId, workerId: leaseOwner, reason: "the queue lost the chain" });
      o.log(`job ${jobId} (${leaseOwner}): Redis no longer holds it; released to be dispatched again`);
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
export async function withdrawUnwanted(o: RedisSide): Promise<void> {
  const owners = await o.redis.smembers(DISPATCHED_SET);
  const keep = await stillRunning(owners);
  for (const owner of owners) {
    if (keep.has(owner)) continue;
    const state = await o.chains.getJobState(chainJobId(owner));
    if (state === "waiting" || state === "delayed" || state === "prioritized") {
      await o.chains.remove(chainJobId(owner));
      o.log(`${owner}: no longer wanted; taken off the queue`);
    } else if (state === "active") {
      if ((await o.redis.set(abortKey(owner), "1", "EX", 3600, "NX")) === "OK") o.log(`${owner}: no longer wanted; its worker is told to stop`);
      continue;
    }
    await o.redis.srem(DISPATCHED_SET, owner);
  }
}
