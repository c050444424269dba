/**
 * What a worker holds once it has claimed a job: the job row's lease fields
 * plus the payload it needs to replay the chain, parsed with zod so a row
 * written by an older or broken writer fails loudly here, not mid-replay.
 * Also the queue's tunables, with the defaults the CLI worker uses.
 */
import { z } from "zod";
import { testEditPolicySchema } from "@/core/schemas/manifest";
import type { Chain } from "@/core/schemas/dataset";
import { modeSchema, type PredictionLine } from "@/core/schemas/prediction";

/**
 * What a worker reads and recomputes through the portal's data layer, handed
 * in by the process that starts it (lib/site/queue-loaders.ts: the site's worker,
 * `chainswe worker`, the dispatcher), so the queue imports no portal feature.
 */
export type QueueLoaders = {
  /** a chain of a dataset version, null when unknown */
  chain(datasetVersion: string, continuousId: string): Promise<Chain | null>;
  /** one chain's predictions of a submission (order → line) */
  predictions(submissionId: string, continuousId: string): Promise<Map<number, PredictionLine>>;
  /** the submission's last chain landed: its scores and chain-error analyses, computed once */
  aggregates(submissionId: string): Promise<{ analyses: number }>;
};

/** Everything needed to grade one chain of one submission. */
export const evaluationJobPayloadSchema = z.object({
  submissionId: z.string().min(1),
  continuousId: z.string().min(1),
  /** DatasetVersion.version, the key getChain takes */
  datasetVersion: z.string().min(1),
  mode: modeSchema,
  /** System.name: the `system` of every graded bug */
  system: z.string().min(1),
  /** what the replay does with the model patches' test edits (SPEC §7); the submission's, fixed when it was made */
  testEdits: testEditPolicySchema.default("keep"),
});
export type EvaluationJobPayload = z.infer<typeof evaluationJobPayloadSchema>;

export const claimedJobSchema = z.object({
  jobId: z.string().min(1),
  /** the lease owner this claim was made under; every later write checks it */
  leaseOwner: z.string().min(1),
  leaseExpiresAt: z.date(),
  /** claims so far, this one included */
  attempts: z.number().int().positive(),
  payload: evaluationJobPayloadSchema,
});
export type ClaimedJob = z.infer<typeof claimedJobSchema>;

/** When a job that failed for a retryable reason may run again. */
export type BackoffPolicy = {
  /** delay after the first failed attempt; doubles with each further one */
  baseMs: number;
  maxMs: number;
};

export type QueuePolicy = {
  /** a claim lasts this long unless heartbeated */
  leaseMs: number;
  /** claims a job gets before a retryable failure (or a dead worker) fails it for good */
  maxAttempts: number;
  backoff: BackoffPolicy;
};

export const DEFAULT_QUEUE_POLICY: QueuePolicy = {
  leaseMs: 60_000,
  maxAttempts: 5,
  backoff: { baseMs: 5_000, maxMs: 10 * 60_000 },
};
