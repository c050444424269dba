/**
 * Extending a lease while a chain runs. Only the current owner of a running
 * job can: a worker whose lease ran out and was claimed by another (or whose
 * job was cancelled) gets false and must stop working on the chain.
 */
import { db } from "@/db/client";

export type HeartbeatOptions = { jobId: string; workerId: string; leaseMs: number; now?: Date };

/** True when the lease now runs until now + leaseMs; false when the caller no longer owns the job. */
export async function heartbeatJob(o: HeartbeatOptions): Promise<boolean> {
  const now = o.now ?? new Date();
  const extended = await db.evaluationJob.updateMany({
    where: { id: o.jobId, status: "running", leaseOwner: o.workerId },
    data: { leaseExpiresAt: new Date(now.getTime() + o.leaseMs) },
  });
  return extended.count === 1;
}
