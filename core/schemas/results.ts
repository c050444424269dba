/**
 * What the evaluator writes (SPEC §3 "Evaluation output") and `report` reads back.
 * results.jsonl holds one gradedBug per line; errors.jsonl one runError per line.
 */
import { z } from "zod";
import { modeSchema, predictionMetaSchema } from "./prediction";

export const FINGERPRINTS = ["no_usable_patch", "broke_working_code", "left_unfixed"] as const;
export const fingerprintSchema = z.enum(FINGERPRINTS);
export type Fingerprint = z.infer<typeof fingerprintSchema>;

export const APPLY_METHODS = ["git_apply", "git_apply_reject", "patch"] as const;
export const applyMethodSchema = z.enum(APPLY_METHODS);
export type ApplyMethod = z.infer<typeof applyMethodSchema>;

const sha256 = z.string().regex(/^[0-9a-f]{64}$/, "expected a sha256 in hex");
const semver = z.string().regex(/^\d+\.\d+\.\d+$/, "expected a semantic version");

const testSplit = z.object({ success: z.array(z.string()), failure: z.array(z.string()) });
export type TestSplit = z.infer<typeof testSplit>;

export const gradedBugSchema = predictionMetaSchema.extend({
  continuous_id: z.string(),
  swebench_instance_id: z.string(),
  order: z.number().int().positive(),
  mode: modeSchema,
  /** the system's model_name_or_path */
  system: z.string(),
  resolved: z.boolean(),
  patch_applied: z.boolean(),
  apply_method: applyMethodSchema.nullable(),
  fingerprint: fingerprintSchema.nullable(),
  /** a listed test's status was contradicted in the log: flagged for reviewers */
  tampered: z.boolean(),
  fail_to_pass: testSplit,
  pass_to_pass: testSplit,
  exit_code: z.number().int().nullable(),
  timed_out: z.boolean(),
  /** the harness stopped the run at a disk limit (size or paths of the container's writable layer) */
  limit_exceeded: z.enum(["disk_bytes", "disk_files"]).optional(),
  /** seconds inside the test command */
  duration_s: z.number().nonnegative(),
  /** files the applied model patch touched (M_k); empty when not applied */
  model_files: z.array(z.string()),
  /** files the gold patch touches (F_k) */
  gold_files: z.array(z.string()),
  /** files the test patch touches */
  test_files: z.array(z.string()),
  /** model edits to hidden-test territory that were discarded before the run */
  discarded_files: z.array(z.string()),
  /**
   * Which grader produced this result (SPEC §7, core/grading/version.ts). Optional:
   * results graded before grader versions existed carry none.
   */
  grader_version: semver.optional(),
  /** the chainswe package version that graded it */
  package_version: z.string().optional(),
  /** canonical name of the parser that read the log */
  log_parser: z.string().optional(),
  /** sha256 of the chain's dataset record (canonical JSON) */
  record_sha256: sha256.optional(),
  /** sha256 of the bug's prediction line (canonical JSON); null when the bug had no prediction */
  prediction_sha256: sha256.nullable().optional(),
  /** SPEC §7 "Close to gold": the model patch's similarity to the gold patch (core/diff/similarity.ts); null when gold adds no code; absent in results of an older release */
  gold_similarity: z.number().min(0).max(1).nullable().optional(),
});
export type GradedBug = z.infer<typeof gradedBugSchema>;

export const runErrorSchema = z.object({
  kind: z.enum(["environment", "dataset"]),
  continuous_id: z.string(),
  order: z.number().int().positive().optional(),
  message: z.string(),
  at: z.string(),
});
export type RunError = z.infer<typeof runErrorSchema>;

/** DIR/summary.json: what was run, so `report` needs nothing but the directory. */
export const runSummarySchema = z.object({
  system: z.string(),
  mode: modeSchema,
  dataset: z.object({
    path: z.string(),
    sha256: z.string(),
    chains: z.array(z.object({ continuous_id: z.string(), length: z.number().int().positive() })),
  }),
  predictions: z.object({ path: z.string(), sha256: z.string() }),
  chains_selected: z.array(z.string()).nullable(),
  started_at: z.string(),
  finished_at: z.string().nullable(),
  chains_graded: z.number().int().nonnegative(),
  chains_failed: z.number().int().nonnegative(),
  bugs_graded: z.number().int().nonnegative(),
  bugs_resolved: z.number().int().nonnegative(),
  /** wall time of the latest invocation (a resumed run counts only itself) */
  wall_seconds: z.number().nonnegative(),
  /** time inside test commands, summed over every graded bug in the directory */
  test_seconds: z.number().nonnegative(),
  limits: z.object({
    memory_bytes: z.number(),
    nano_cpus: z.number(),
    pids: z.number(),
    test_timeout_s: z.number(),
  }),
});
export type RunSummary = z.infer<typeof runSummarySchema>;
