/**
 * Containers left behind by workers that died. A worker killed mid-chain (kill
 * -9, OOM, power) cannot remove its sandbox, and the container would run on.
 * Every queue sandbox is labelled with its job and the lease it ran under; a
 * container is an orphan unless that job is still running under that very
 * lease and the lease has not run out. Workers reap at start and whenever they
 * claim a job an earlier attempt may have left a container for.
 */
import { createHash } from "node:crypto";
import { env } from "@/env";
import { docker } from "@/evaluator/sandbox";
import { sqliteFilePath } from "@/db/url";
import { QUEUE_LABEL } from "./labels";
import { db } from "@/db/client";
import { coerceError } from "@/core/errors";
import type { ClaimedJob } from "./payload";

export const JOB_LABEL = "chainswe.job";
export { QUEUE_LABEL };

/** This process's database queue, as a label value: a digest of where the database is. */
export function databaseQueueId(): string {
  const url = env().DATABASE_URL;
  return `db:${createHash("sha256").update(sqliteFilePath(url) ?? url).digest("hex").slice(0, 16)}`;
}
export const LEASE_LABEL = "chainswe.lease";
export const SUBMISSION_LABEL = "chainswe.submission";

/** Labels of the sandbox a claimed job runs in (next to Sandbox's own chainswe.sandbox=1). */
export function jobSandboxLabels(job: ClaimedJob): Record<string, string> {
  return {
    [QUEUE_LABEL]: databaseQueueId(),
    [JOB_LABEL]: job.jobId,
    [LEASE_LABEL]: job.leaseOwner,
    [SUBMISSION_LABEL]: job.payload.submissionId,
    "chainswe.chain": job.payload.continuousId,
    "chainswe.mode": job.payload.mode,
  };
}

/** Labels of the sandbox a proposed chain's validation runs in: reaped like an evaluation's. */
export function validationSandboxLabels(job: { jobId: string; leaseOwner: string; proposedChainId: string; continuousId: string }): Record<string, string> {
  return {
    [QUEUE_LABEL]: databaseQueueId(),
    [JOB_LABEL]: job.jobId,
    [LEASE_LABEL]: job.leaseOwner,
    "chainswe.proposed_chain": job.proposedChainId,
    "chainswe.chain": job.continuousId,
    "chainswe.mode": "oracle",
  };
}

type JobLease = { status: string; leaseOwner: string | null; leaseExpiresAt: Date | null };

/** True when no live worker can be using a container labelled with this lease owner. */
export function isOrphan(leaseLabel: string | undefined, job: JobLease | undefined, now: Date): boolean {
  if (!job || job.status !== "running" || job.leaseOwner !== leaseLabel) return true;
  return job.leaseExpiresAt === null || job.leaseExpiresAt.getTime() <= now.getTime();
}

/** Removes every orphaned queue sandbox; answers how many. Engine trouble is reported, never thrown. */
export async function reapOrphanSandboxes(log: (line: string) => void, now: Date = new Date()): Promise<number> {
  try {
    const containers = await docker().listContainers({ all: true, filters: { label: [JOB_LABEL, `${QUEUE_LABEL}=${databaseQueueId()}`] } });
    const ids = [...new Set(containers.map((c) => c.Labels[JOB_LABEL]).filter((id): id is string => !!id))];
    // a proposed chain's validation runs under the same labels (jobs/validation)
    const select = { id: true, status: true, leaseOwner: true, leaseExpiresAt: true } as const;
    const [jobs, validations] = await Promise.all([
      db.evaluationJob.findMany({ where: { id: { in: ids } }, select }),
      db.validationJob.findMany({ where: { id: { in: ids } }, select }),
    ]);
    const byId = new Map([...jobs, ...validations].map((j) => [j.id, j]));
    let reaped = 0;
    for (const c of containers) {
      const jobId = c.Labels[JOB_LABEL];
      if (!isOrphan(c.Labels[LEASE_LABEL], jobId ? byId.get(jobId) : undefined, now)) continue;
      await docker()
        .getContainer(c.Id)
        .remove({ force: true, v: true })
        .catch((e: unknown) => {
          if ((e as { statusCode?: number }).statusCode !== 404) throw e;
        });
      log(`removed orphaned sandbox ${c.Id.slice(0, 12)} of job ${jobId} (lease ${c.Labels[LEASE_LABEL]})`);
      reaped++;
    }
    return reaped;
  } catch (e) {
    log(`could not reap orphaned sandboxes: ${coerceError(e).message}`);
    return 0;
  }
}
