/**
 * A prediction line (SPEC §2): one bug's model patch plus optional run metadata.
 */
import { z } from "zod";
import { isUnifiedDiff } from "@/core/diff";

export const MODES = ["oracle", "seq", "seq_mem"] as const;
export const modeSchema = z.enum(MODES);
export type Mode = z.infer<typeof modeSchema>;

const count = z.number().int().nonnegative();

/** Per-bug cost and context figures a system may report; all optional. */
export const predictionMetaSchema = z.object({
  cost_usd: z.number().nonnegative().optional(),
  input_tokens: count.optional(),
  output_tokens: count.optional(),
  peak_context_tokens: count.optional(),
  turns: count.optional(),
  wall_seconds: z.number().nonnegative().optional(),
});
export type PredictionMeta = z.infer<typeof predictionMetaSchema>;

/**
 * What a rollout agent may report about its turn (its metrics file, docs/ROLLOUT.md):
 * the harness measures wall_seconds itself.
 */
export const agentMetricsSchema = predictionMetaSchema.omit({ wall_seconds: true });
export type AgentMetrics = z.infer<typeof agentMetricsSchema>;

/** A bug's model patch: a unified diff or empty; null is how some harnesses write "no patch". */
export const modelPatchSchema = z
  .string()
  .nullable()
  .transform((p) => p ?? "")
  .refine((p) => p.trim() === "" || isUnifiedDiff(p), { message: "not a unified diff (or empty)" });

export const predictionLineSchema = predictionMetaSchema
  .extend({
    continuous_id: z.string().min(1),
    swebench_instance_id: z.string().min(1).optional(),
    /** SWE-bench's name for swebench_instance_id */
    instance_id: z.string().min(1).optional(),
    model_patch: modelPatchSchema,
    model_name_or_path: z.string().min(1).optional(),
    order: z.number().int().positive().optional(),
  })
  .loose()
  .superRefine((line, ctx) => {
    if (!line.swebench_instance_id && !line.instance_id) {
      ctx.addIssue({ code: "custom", path: ["swebench_instance_id"], message: "required (or instance_id)" });
    }
    if (line.swebench_instance_id && line.instance_id && line.swebench_instance_id !== line.instance_id) {
      ctx.addIssue({ code: "custom", path: ["instance_id"], message: "differs from swebench_instance_id" });
    }
  })
  .transform(({ instance_id, ...rest }) => ({
    ...rest,
    swebench_instance_id: (rest.swebench_instance_id ?? instance_id) as string,
  }));

export type PredictionLine = z.infer<typeof predictionLineSchema>;

export const KNOWN_PREDICTION_FIELDS = new Set([
  ...Object.keys(predictionMetaSchema.shape),
  "continuous_id",
  "swebench_instance_id",
  "instance_id",
  "model_patch",
  "model_name_or_path",
  "order",
]);

export const META_FIELDS = Object.keys(predictionMetaSchema.shape) as (keyof PredictionMeta)[];
