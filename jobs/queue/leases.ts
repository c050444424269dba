/**
 * What the database says about leases held elsewhere: the dispatcher hands
 * chains to Redis under leases of its own and asks here which of them the
 * database still wants. Reads only; every write goes through claim, heartbeat,
 * complete, fail and release, checked against the lease.
 */
import { db } from "@/db/client";

export type HeldLease = { jobId: string; leaseOwner: string };

/** Running jobs whose lease owner starts with `prefix` (the chains one dispatcher handed out). */
export async function runningLeases(prefix: string): Promise<HeldLease[]> {
  const jobs = await db.evaluationJob.findMany({
    where: { status: "running", leaseOwner: { startsWith: prefix } },
    select: { id: true, leaseOwner: true },
  });
  return jobs.map((j) => ({ jobId: j.id, leaseOwner: j.leaseOwner! }));
}

/** Those of `owners` that still hold a running job. */
export async function stillRunning(owners: string[]): Promise<Set<string>> {
  if (owners.length === 0) return new Set();
  const jobs = await db.evaluationJob.findMany({ where: { status: "running", leaseOwner: { in: owners } }, select: { leaseOwner: true } });
  return new Set(jobs.map((j) => j.leaseOwner!));
}

/** The chain a job replays (its continuous id), or null for an unknown job. */
export async function chainOfJob(jobId: string): Promise<string | null> {
  return (await db.evaluationJob.findUnique({ where: { id: jobId }, select: { continuousId: true } }))?.continuousId ?? null;
}
