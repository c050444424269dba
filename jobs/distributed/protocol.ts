/**
 * What the site and the distributed workers say to each other through Redis
 * (BullMQ). Two queues:
 *
 * - `chains`: the site's dispatcher puts one job per claimed chain, carrying
 *   everything the replay needs (the chain record, the predictions, the mode),
 *   so a worker needs a Docker engine and Redis, never the database.
 * - `reports`: workers put what happened (a bug's progress, the graded chain,
 *   a failure, a release); the site stores it. Reports carry the lease they
 *   were made under, and the site checks it on every write, so a report from a
 *   superseded attempt changes nothing and a repeated one is harmless.
 *
 * The queue of record stays the database (EvaluationJob): its lease, attempts
 * and backoff decide retries; BullMQ moves the work and notices dead workers
 * (a stalled job goes back to the queue and another worker takes it).
 */
import { z } from "zod";
import { testEditPolicySchema } from "@/core/schemas/manifest";
import { DatasetError, EnvironmentError } from "@/core/errors";
import { chainSchema } from "@/core/schemas/dataset";
import { modeSchema, predictionLineSchema } from "@/core/schemas/prediction";
import { fingerprintSchema, gradedBugSchema } from "@/core/schemas/results";

export const CHAINS_QUEUE = "chains";
export const REPORTS_QUEUE = "reports";
/** every key lives under this prefix, so one Redis can serve other things too */
export const QUEUE_PREFIX = "chainswe";

export const chainJobSchema = z.object({
  /** EvaluationJob.id */
  jobId: z.string().min(1),
  /** the lease the dispatcher claimed the job under; every report repeats it */
  leaseOwner: z.string().min(1),
  attempts: z.number().int().positive(),
  submissionId: z.string().min(1),
  mode: modeSchema,
  system: z.string().min(1),
  /** the submission's test-edit policy (SPEC §7); absent from a dispatcher of an older release: keep */
  testEdits: testEditPolicySchema.default("keep"),
  chain: chainSchema,
  predictions: z.array(predictionLineSchema),
});
export type ChainJob = z.infer<typeof chainJobSchema>;

const bugArtifactsSchema = z.object({ bug: gradedBugSchema, log: z.string(), modelPatch: z.string() });

/** An error as it crosses the wire: its kind decides whether the database retries the chain. */
export const wireErrorSchema = z.object({
  kind: z.enum(["dataset", "environment", "other"]),
  message: z.string(),
  order: z.number().int().positive().optional(),
});
export type WireError = z.infer<typeof wireErrorSchema>;

const lease = { jobId: z.string().min(1), leaseOwner: z.string().min(1) };

export const reportSchema = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("progress"),
    ...lease,
    bug: z.object({ order: z.number().int().positive(), resolved: z.boolean(), fingerprint: fingerprintSchema.nullable() }),
  }),
  z.object({ kind: z.literal("graded"), ...lease, workerId: z.string(), bugs: z.array(bugArtifactsSchema) }),
  z.object({ kind: z.literal("failed"), ...lease, workerId: z.string(), error: wireErrorSchema }),
  z.object({ kind: z.literal("released"), ...lease, workerId: z.string(), reason: z.string() }),
]);
export type Report = z.infer<typeof reportSchema>;

export function toWireError(error: unknown, continuousId: string): WireError {
  if (error instanceof DatasetError) return { kind: "dataset", message: error.message, ...(error.order !== undefined ? { order: error.order } : {}) };
  if (error instanceof EnvironmentError) return { kind: "environment", message: error.message };
  const e = error instanceof Error ? error : new Error(String(error));
  return { kind: "other", message: `${continuousId}: ${e.stack ?? e.message}` };
}

/** The error again, of the class the retry policy (jobs/queue/policy.ts) looks at. */
export function fromWireError(w: WireError, continuousId: string): Error {
  if (w.kind === "dataset") return new DatasetError(w.message, continuousId, w.order);
  if (w.kind === "environment") return new EnvironmentError(w.message);
  return new Error(w.message);
}

/** Lease owners of every chain the dispatcher has put on Redis and not yet seen settled. */
export const DISPATCHED_SET = `${QUEUE_PREFIX}:dispatched`;

/** Set by the site when a chain on Redis is no longer wanted (cancelled, re-run): its worker stops it. */
export const abortKey = (leaseOwner: string) => `${QUEUE_PREFIX}:abort:${leaseOwner}`;

/** BullMQ job ids may not contain ':'; a lease owner made by the dispatcher never does. */
export const chainJobId = (leaseOwner: string) => leaseOwner;

/** Reports that must not be lost or doubled get ids of their own; progress reports are many and need none. */
export function reportJobId(r: Report): string | undefined {
  return r.kind === "progress" ? undefined : `${r.leaseOwner}.${r.kind}`;
}

/** ioredis options from a redis:// URL, as BullMQ wants them for blocking workers. */
export function redisConnection(url: string): { host: string; port: number; username?: string; password?: string; db?: number; maxRetriesPerRequest: null } {
  const u = new URL(url);
  if (u.protocol !== "redis:") throw new Error(`REDIS_URL must be a redis:// URL, got ${JSON.stringify(u.protocol)}`);
  const db = u.pathname.length > 1 ? Number(u.pathname.slice(1)) : undefined;
  return {
    host: u.hostname || "127.0.0.1",
    port: u.port ? Number(u.port) : 6379,
    ...(u.username ? { username: decodeURIComponent(u.username) } : {}),
    ...(u.password ? { password: decodeURIComponent(u.password) } : {}),
    ...(db !== undefined && Number.isInteger(db) ? { db } : {}),
    // a worker waits out a Redis restart instead of failing its commands
    maxRetriesPerRequest: null,
  };
}
