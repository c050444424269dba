/**
 * The `chainswe report --json` document (SPEC §5 "Analysis output"); its
 * plain-text rendering in the paper's table styles is ./report-text.ts.
 *
 * Invariants:
 * - runs are matched by `summary.system`; one run per (system, mode), else it throws;
 * - every mode carries both strict and lenient scores (Oracle's are identical);
 * - relative changes are fractions (−0.29 = −29%) of the unrounded rates against the
 *   same system's Oracle under the same scoring and position set; null without Oracle;
 * - systems keep the order in which their first run was given; modes are
 *   oracle, seq, seq_mem; chain errors are sorted (see ./index).
 */
import { z } from "zod";
import { MODES, modeSchema, type Mode } from "@/core/schemas/prediction";
import {
  CI_LEVEL,
  bootstrapInfoSchema,
  pairedComparison,
  pairedComparisonSchema,
  positionSetSchema,
  relativeChange,
  resolveBootstrap,
  runScoresSchema,
  scoreRun,
  type PositionSet,
  type RunResults,
  type RunScores,
} from "@/core/scoring";
import {
  chainErrorBreakdown,
  chainErrorBreakdownSchema,
  chainErrors,
  chainErrorSchema,
  compareChainErrors,
  type ChainError,
  type ChainErrorBreakdown,
} from "./index";

export const REPORT_VERSION = 1;

const relativeBlockSchema = z.object({
  per_bug: z.number().nullable(),
  chain: z.number().nullable(),
  per_position: z.array(z.object({ position: z.number().int().positive(), value: z.number().nullable() })),
});
export type RelativeBlock = z.infer<typeof relativeBlockSchema>;

export const modeReportSchema = z.object({
  mode: modeSchema,
  strict: runScoresSchema,
  lenient: runScoresSchema,
  /** vs the same system's Oracle, per scoring; null for Oracle itself or when it is absent */
  relative_to_oracle: z.object({ strict: relativeBlockSchema, lenient: relativeBlockSchema }).nullable(),
  /** this mode minus Oracle in per-bug points, strict scoring, paired on shared chains */
  paired_vs_oracle: pairedComparisonSchema.nullable(),
});
export type ModeReport = z.infer<typeof modeReportSchema>;

export const reportSchema = z.object({
  version: z.literal(REPORT_VERSION),
  bootstrap: bootstrapInfoSchema.extend({ level: z.number() }),
  positions: positionSetSchema,
  systems: z.array(z.object({ system: z.string(), modes: z.array(modeReportSchema) })),
  chain_errors: z.array(chainErrorSchema),
  chain_error_breakdowns: z.array(chainErrorBreakdownSchema),
});
export type Report = z.infer<typeof reportSchema>;

export type ReportOptions = { positions?: PositionSet; seed?: number; draws?: number };

/** Runs by system (first-seen order), then by mode. */
export function groupRuns(runs: readonly RunResults[]): Map<string, Map<Mode, RunResults>> {
  const bySystem = new Map<string, Map<Mode, RunResults>>();
  for (const run of runs) {
    const { system, mode } = run.summary;
    const modes = bySystem.get(system) ?? new Map<Mode, RunResults>();
    if (modes.has(mode)) throw new RangeError(`two ${mode} runs for system ${system}: give one run per system and mode`);
    modes.set(mode, run);
    bySystem.set(system, modes);
  }
  return bySystem;
}

function relativeBlock(scores: RunScores, oracle: RunScores): RelativeBlock {
  return {
    per_bug: relativeChange(scores.per_bug.value, oracle.per_bug.value),
    chain: relativeChange(scores.chain.value, oracle.chain.value),
    per_position: scores.per_position.map(({ position, value }) => ({
      position,
      value: relativeChange(value, oracle.per_position.find((p) => p.position === position)?.value ?? null),
    })),
  };
}

function modeReports(modes: Map<Mode, RunResults>, opts: Required<ReportOptions>): ModeReport[] {
  const score = (run: RunResults) => {
    const strict = scoreRun(run, { ...opts, scoring: "strict" });
    // Oracle ignores the scoring choice: the lenient scores are the strict ones, relabelled
    const lenient =
      run.summary.mode === "oracle"
        ? { ...strict, scoring: "lenient" as const }
        : scoreRun(run, { ...opts, scoring: "lenient" });
    return { strict, lenient };
  };
  const oracleRun = modes.get("oracle");
  const oracle = oracleRun ? score(oracleRun) : null;
  return MODES.flatMap((mode): ModeReport[] => {
    const run = modes.get(mode);
    if (!run) return [];
    const scores = mode === "oracle" && oracle ? oracle : score(run);
    const compared = mode !== "oracle" && oracle && oracleRun;
    return [
      {
        mode,
        ...scores,
        relative_to_oracle: compared
          ? {
              strict: relativeBlock(scores.strict, oracle.strict),
              lenient: relativeBlock(scores.lenient, oracle.lenient),
            }
          : null,
        paired_vs_oracle: compared ? pairedComparison(run, oracleRun, { ...opts, scoring: "strict" }) : null,
      },
    ];
  });
}

/** The SPEC §5 analysis document for a set of runs (any systems, any modes). */
export function buildReport(runs: readonly RunResults[], opts: ReportOptions = {}): Report {
  const boot = resolveBootstrap(opts);
  const resolved = { positions: opts.positions ?? "length3", ...boot } satisfies Required<ReportOptions>;
  const systems: Report["systems"] = [];
  const errors: ChainError[] = [];
  const breakdowns: ChainErrorBreakdown[] = [];
  for (const [system, modes] of groupRuns(runs)) {
    systems.push({ system, modes: modeReports(modes, resolved) });
    const oracle = modes.get("oracle");
    if (!oracle) continue;
    for (const mode of ["seq", "seq_mem"] as const) {
      const seq = modes.get(mode);
      if (!seq) continue;
      const found = chainErrors(oracle, seq);
      errors.push(...found);
      breakdowns.push(chainErrorBreakdown(found, seq));
    }
  }
  return {
    version: REPORT_VERSION,
    bootstrap: { ...boot, level: CI_LEVEL },
    positions: resolved.positions,
    systems,
    chain_errors: errors.sort(compareChainErrors),
    chain_error_breakdowns: breakdowns,
  };
}
