/**
 * Shapes of the scores (SPEC §4) as they appear in `chainswe report --json`.
 * Rates are percentages (0–100); intervals are 95% bootstrap percentile intervals.
 */
import { z } from "zod";
import { modeSchema } from "@/core/schemas/prediction";

export const SCORINGS = ["strict", "lenient"] as const;
export type Scoring = (typeof SCORINGS)[number];

export const POSITION_SETS = ["length3", "all"] as const;
export type PositionSet = (typeof POSITION_SETS)[number];

export const scoringSchema = z.enum(SCORINGS);
export const positionSetSchema = z.enum(POSITION_SETS);

export const intervalSchema = z.tuple([z.number(), z.number()]);

/** A rate in percent with its 95% bootstrap interval. */
export const estimateSchema = z.object({ value: z.number(), ci: intervalSchema });
export type Estimate = z.infer<typeof estimateSchema>;

export const positionRateSchema = estimateSchema.extend({
  position: z.number().int().positive(),
  /** chains of the position set with a bug at this position (the denominator) */
  n: z.number().int().positive(),
});
export type PositionRate = z.infer<typeof positionRateSchema>;

/**
 * What an agent spent, summed over a chain's bugs that report it (SPEC §7
 * "Efficiency"): tokens, steps (its prediction's `turns`) and wall time; null
 * where no bug reports the figure.
 */
export const effortSchema = z.object({
  input_tokens: z.number().nullable(),
  output_tokens: z.number().nullable(),
  steps: z.number().nullable(),
  wall_seconds: z.number().nullable(),
});
export type Effort = z.infer<typeof effortSchema>;

/**
 * One chain as a run left it, before scoring (SPEC §4): per position, 1 resolved,
 * 0 graded and unresolved, null not graded. Stored per submission, so a bug-date
 * window (SPEC §7) rescores the chains it keeps without the graded bugs.
 */
export const chainRecordSchema = z.object({
  continuous_id: z.string(),
  bugs: z.array(z.union([z.literal(0), z.literal(1), z.null()])).min(1),
  cost_usd: z.number().nullable(),
  peak_context_tokens: z.number().nullable(),
  /** positions whose model patch edits tests (SPEC §7 "Test edits"); absent in records of an older release */
  test_edits: z.array(z.number().int().positive()).optional(),
  /** the chain's summed effort; absent in records of an older release */
  effort: effortSchema.optional(),
  /** per position, the bug's similarity to gold (SPEC §7 "Close to gold"); null when not known; absent in records of an older release */
  gold_similarity: z.array(z.number().nullable()).optional(),
});
export type ChainRecord = z.infer<typeof chainRecordSchema>;

export const bootstrapInfoSchema = z.object({
  seed: z.number().int(),
  draws: z.number().int().positive(),
});

const count = z.number().int().nonnegative();

/** The lowest and highest of a rate over a row's runs. */
export const spanSchema = z.object({ min: z.number(), max: z.number() });

/**
 * A row of k ≥ 2 runs (SPEC §7 "Repeated runs"): its rates are means over the
 * runs; this is how they spread, and chain pass^k.
 */
export const runSpreadSchema = z.object({
  k: z.number().int().min(2),
  per_bug: spanSchema,
  chain: spanSchema,
  /** share of chains every run solved (a solved chain is the same under strict and lenient scoring), with its interval */
  pass_k: estimateSchema,
  per_position: z.array(spanSchema.extend({ position: z.number().int().positive() })),
  /** each run's own per-bug % and chain %, run 1..k */
  by_run: z.array(z.object({ per_bug: z.number(), chain: z.number() })),
});
export type RunSpread = z.infer<typeof runSpreadSchema>;

export const runScoresSchema = z.object({
  system: z.string(),
  mode: modeSchema,
  scoring: scoringSchema,
  positions: positionSetSchema,
  per_bug: estimateSchema,
  chain: estimateSchema,
  per_position: z.array(positionRateSchema),
  /** mean over chains (with any cost reported) of the chain's summed cost_usd */
  cost_per_chain: z.number().nullable(),
  /** mean over chains (with any value reported) of the chain's max peak_context_tokens */
  peak_context_tokens: z.number().nullable(),
  /** per figure, the mean over chains (with any value reported) of the chain's summed effort; absent in scores of an older release */
  effort_per_chain: effortSchema.optional(),
  counts: z.object({
    chains: count,
    bugs: count,
    /** bugs present in the results */
    graded: count,
    /** bugs resolved under this scoring */
    resolved: count,
    chains_resolved: count,
  }),
  bootstrap: bootstrapInfoSchema,
  /** only for a row of several runs: counts then sum over its runs (graded, resolved, chains_resolved) */
  runs: runSpreadSchema.optional(),
});
export type RunScores = z.infer<typeof runScoresSchema>;

export const pairedComparisonSchema = z.object({
  scoring: scoringSchema,
  a: z.object({ system: z.string(), mode: modeSchema, per_bug: z.number() }),
  b: z.object({ system: z.string(), mode: modeSchema, per_bug: z.number() }),
  /** chains both runs cover, and their bugs */
  chains: count,
  bugs: count,
  /** per-bug % of a minus per-bug % of b, percentage points, paired bootstrap interval */
  difference: estimateSchema,
  /** chains where a resolved more / fewer / as many bugs as b */
  wins: count,
  losses: count,
  ties: count,
  /** exact two-sided sign test of wins against losses (core/statistics) */
  sign_test_p: z.number(),
  /**
   * the same test on per-bug success: over the bugs of those chains, those only a / only b
   * resolved (the discordant pairs) and the exact McNemar p-value; absent in reports of an older release
   */
  per_bug_test: z.object({ a_only: count, b_only: count, mcnemar_p: z.number() }).optional(),
  bootstrap: bootstrapInfoSchema,
});
export type PairedComparison = z.infer<typeof pairedComparisonSchema>;
