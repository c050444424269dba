/**
 * A rollout's outcome for one bug, `<chain>/<order>.json` beside the bug's
 * trajectory log (docs/ROLLOUT.md, "Output"): how the agent's turn ended.
 * Unknown fields are kept, not refused, so that files written by later
 * versions of the harness still read.
 */
import { z } from "zod";
import { agentMetricsSchema, modeSchema } from "./prediction";

export const trajectoryOutcomeSchema = z
  .object({
    continuous_id: z.string().min(1),
    swebench_instance_id: z.string().min(1),
    order: z.number().int().positive(),
    mode: modeSchema,
    /** stopped at the time limit (then the recorded patch is empty) */
    timed_out: z.boolean(),
    /** the agent command's exit code; null when it was stopped or ended by a signal */
    exit_code: z.number().int().nullable(),
    /** measured by the harness */
    wall_seconds: z.number().nonnegative(),
    /** the recorded model_patch is empty (or whitespace) */
    patch_empty: z.boolean(),
    /** where the patch came from: the container's tree, or the agent's CHAINSWE_PATCH_FILE */
    patch_source: z.enum(["tree", "patch_file"]),
    /** what the agent reported in its metrics file (as accepted) */
    metrics: agentMetricsSchema.loose(),
    warnings: z.array(z.string()),
  })
  .loose();

export type TrajectoryOutcome = z.infer<typeof trajectoryOutcomeSchema>;
