/**
 * The queue's decisions as pure functions (no Prisma, no clock of its own), so
 * the rules are testable without a database: which jobs are runnable, what a
 * failure does to a job, and what a submission's status is given its jobs'.
 *
 * Invariants:
 * - a DatasetError fails its job for good: replaying the same chain again
 *   cannot fix the dataset;
 * - anything else (EnvironmentError, a bug in this program) is retried with
 *   exponential backoff until the job has been claimed maxAttempts times;
 * - neither ever becomes a BugResult: only complete.ts writes those.
 */
import { DatasetError, EnvironmentError, coerceError } from "@/core/errors";
import type { JobStatus, SubmissionStatus } from "@/core/schemas/columns";
import type { BackoffPolicy } from "./payload";

/** Statuses a worker may still act on; the others are final. */
export const OPEN_JOB_STATUSES = ["queued", "running"] as const satisfies readonly JobStatus[];

/**
 * Prisma filter for a job a worker may claim at `now`: queued and due, or
 * running under a lease that has run out (its worker died or hung).
 */
export function runnableJobWhere(now: Date) {
  return {
    runAfter: { lte: now },
    OR: [{ status: "queued" }, { status: "running", leaseExpiresAt: { lt: now } }],
  };
}

/** Delay before attempt `attempts + 1`: base, 2×base, 4×base… capped (after graphile-worker's failJobs). */
export function backoffMs(attempts: number, policy: BackoffPolicy): number {
  const exponent = Math.max(0, Math.min(attempts - 1, 30));
  return Math.min(policy.maxMs, policy.baseMs * 2 ** exponent);
}

export type FailureOutcome =
  | { status: "failed"; lastError: string }
  | { status: "queued"; lastError: string; runAfter: Date };

/** Kind and message of an error as stored in EvaluationJob.lastError. */
export function describeJobError(error: unknown): string {
  const err = coerceError(error);
  if (err instanceof DatasetError) {
    return `dataset error${err.order !== undefined ? ` at bug ${err.order}` : ""}: ${err.message}`;
  }
  if (err instanceof EnvironmentError) return `environment error: ${err.message}`;
  return `error: ${err.stack ?? err.message}`;
}

/** What a failed attempt does to its job. `attempts` counts claims, the failed one included. */
export function failureOutcome(
  error: unknown,
  attempts: number,
  policy: { maxAttempts: number; backoff: BackoffPolicy },
  now: Date,
): FailureOutcome {
  const lastError = describeJobError(error);
  if (coerceError(error) instanceof DatasetError) return { status: "failed", lastError };
  if (attempts >= policy.maxAttempts) {
    return { status: "failed", lastError: `${lastError} (gave up after ${attempts} attempt(s))` };
  }
  return { status: "queued", lastError, runAfter: new Date(now.getTime() + backoffMs(attempts, policy.backoff)) };
}

/**
 * A submission's status from its jobs'. Cancelled is final. While any job is
 * open the submission is running, unless none has been claimed yet. Once all
 * are final: completed when every chain was graded, failed when any failed.
 */
export function settledSubmissionStatus(
  current: SubmissionStatus,
  jobs: { status: JobStatus; attempts: number }[],
): SubmissionStatus {
  if (current === "cancelled" || jobs.length === 0) return current;
  const open = jobs.filter((j) => j.status === "queued" || j.status === "running");
  if (open.length > 0) {
    const untouched = jobs.every((j) => j.status === "queued" && j.attempts === 0);
    return untouched && current === "queued" ? "queued" : "running";
  }
  if (jobs.every((j) => j.status === "done")) return "completed";
  if (jobs.some((j) => j.status === "failed")) return "failed";
  return "cancelled";
}
