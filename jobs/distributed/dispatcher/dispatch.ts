/**
 * Handing one chain to Redis: claimed from the database queue under a lease
 * of the dispatcher's own, with everything the replay needs in the job, so a
 * worker never opens the database.
 */
import { randomUUID } from "node:crypto";
import { claimJob, failJob, releaseJob, type QueueLoaders } from "@/jobs/queue";
import { DatasetError, coerceError } from "@/core/errors";
import { DISPATCHED_SET, chainJobId, type ChainJob } from "../protocol";
import { DISPATCH_LEASE_PREFIX, type RedisSide } from "./leases";

/** False when no chain was waiting. */
export async function dispatchOne(o: RedisSide & { loaders: QueueLoaders }): Promise<boolean> {
  const leaseOwner = `${DISPATCH_LEASE_PREFIX}${randomUUID()}`;
  const claimed = await claimJob({ workerId: leaseOwner, policy: o.policy });
  if (!claimed) return false;
  const { payload } = claimed;
  try {
    const chain = await o.loaders.chain(payload.datasetVersion, payload.continuousId);
    if (!chain) throw new DatasetError(`no chain ${payload.continuousId} in dataset version ${payload.datasetVersion}`, payload.continuousId);
    const predictions = [...(await o.loaders.predictions(payload.submissionId, payload.continuousId)).values()];
    const job: ChainJob = { jobId: claimed.jobId, leaseOwner, attempts: claimed.attempts, submissionId: payload.submissionId, mode: payload.mode, system: payload.system, testEdits: payload.testEdits, chain, predictions };
    await o.redis.sadd(DISPATCHED_SET, leaseOwner);
    await o.chains.add("chain", job, { jobId: chainJobId(leaseOwner), removeOnComplete: { age: 3600 }, removeOnFail: { age: 24 * 3600 } });
    o.log(`job ${claimed.jobId} (${leaseOwner}): ${payload.continuousId} (${payload.mode}) queued for the workers`);
  } catch (e) {
    if (e instanceof DatasetError) await failJob({ jobId: claimed.jobId, workerId: leaseOwner, error: e, policy: o.policy });
    else await releaseJob({ jobId: claimed.jobId, workerId: leaseOwner, reason: `could not queue it: ${coerceError(e).message}` });
    throw e;
  }
  return true;
}
