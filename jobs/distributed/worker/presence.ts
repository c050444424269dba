/**
 * A worker's presence key in Redis tells the other workers on its Docker
 * engine that its containers are alive. Containers whose worker's key has
 * expired are orphans (their worker died) and are removed by whichever worker
 * on that engine notices first — only this deployment's (the queue label).
 */
import type { Redis } from "ioredis";
import { QUEUE_LABEL } from "@/jobs/queue/labels";
import { docker } from "@/evaluator/sandbox";
import { coerceError } from "@/core/errors";
import { QUEUE_PREFIX } from "../protocol";

export const WORKER_LABEL = "chainswe.worker";
const presenceKey = (workerId: string) => `${QUEUE_PREFIX}:worker:${workerId}`;

export type Presence = { redis: Redis; workerId: string; queueId: string; ttlS: number; log: (line: string) => void };

export async function beat(p: Presence): Promise<void> {
  await p.redis.set(presenceKey(p.workerId), String(Date.now()), "EX", p.ttlS);
}

export async function leave(p: Presence): Promise<void> {
  await p.redis.del(presenceKey(p.workerId)).catch(() => {});
}

/** Removes containers on this engine whose worker's presence key has expired. */
export async function reapOrphans(p: Presence): Promise<void> {
  try {
    const containers = await docker().listContainers({ all: true, filters: { label: [WORKER_LABEL, `${QUEUE_LABEL}=${p.queueId}`] } });
    for (const c of containers) {
      const owner = c.Labels[WORKER_LABEL]!;
      if (owner === p.workerId || (await p.redis.exists(presenceKey(owner)))) continue;
      await docker().getContainer(c.Id).remove({ force: true, v: true }).catch(() => {});
      p.log(`removed orphaned sandbox ${c.Id.slice(0, 12)} of worker ${owner}`);
    }
  } catch (e) {
    p.log(`could not reap orphaned sandboxes: ${coerceError(e).message}`);
  }
}
