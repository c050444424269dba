/**
 * SPEC §4 scores of one run: per-bug %, chain %, per-position %, cost, peak context,
 * each rate with a seeded 95% bootstrap interval over chains.
 *
 * Per-position rates: the position set is the length-3 chains (the paper's Tables
 * 3–4) or all chains; the rate at position p is resolved-at-p / chains of the set
 * with a bug at p, and its interval resamples exactly those chains.
 */
import type { Mode } from "@/lib/schemas/prediction";
import { resolveBootstrap, type BootstrapOptions, type Indices } from "./bootstrap";
import { headlineRatesOf, positionRatesOf, positionValues } from "./rates";
import {
  chainOutcomes,
  countResolved,
  isChainResolved,
  type ChainOutcome,
  type PositionSet,
  type RunResults,
  type Scoring,
} from "./outcomes";
import type { Estimate, PositionRate, RunScores } from "./schemas";

export type ScoreOptions = {
  /** Seq/Seq+Mem scoring; Oracle ignores it. Default strict (the paper's Table 2). */
  scoring?: Scoring;
  /** per-position population; default the length-3 chains (the paper's Tables 3–4) */
  positions?: PositionSet;
  seed?: number;
  draws?: number;
};

/** Per-chain counts, precomputed once so each resample is a few additions. */
export type ChainTotals = { resolved: number[]; bugs: number[]; solved: number[] };

export function chainTotals(outcomes: readonly ChainOutcome[]): ChainTotals {
  return {
    resolved: outcomes.map(countResolved),
    bugs: outcomes.map((o) => o.length),
    solved: outcomes.map((o) => (isChainResolved(o) ? 1 : 0)),
  };
}

/** Per-bug % of the chains at `idx`: resolved bugs / bugs, as a percentage. */
export function perBugPercent(totals: ChainTotals, idx: Indices): number {
  let resolved = 0;
  let bugs = 0;
  for (let k = 0; k < idx.length; k++) {
    const i = idx[k] as number;
    resolved += totals.resolved[i] as number;
    bugs += totals.bugs[i] as number;
  }
  return (100 * resolved) / bugs;
}

export const allIndices = (n: number): number[] => Array.from({ length: n }, (_, i) => i);

/** Per-bug % and chain % with intervals (one resample set for both). */
export function headlineRates(outcomes: readonly ChainOutcome[], boot: BootstrapOptions): { per_bug: Estimate; chain: Estimate } {
  return headlineRatesOf([outcomes], boot)[0]!;
}

function meanOrNull(values: (number | null)[]): number | null {
  const present = values.filter((v): v is number => v !== null);
  return present.length === 0 ? null : present.reduce((a, b) => a + b, 0) / present.length;
}

/** Every SPEC §4 score of one run. Throws when the dataset has no chains. */
export function scoreRun(run: RunResults, opts: ScoreOptions = {}): RunScores {
  const scoring = opts.scoring ?? "strict";
  return scoreOutcomes(chainOutcomes(run, scoring), { system: run.summary.system, mode: run.summary.mode }, opts);
}

/**
 * Every SPEC §4 score of a run's chain outcomes (scored with `opts.scoring`):
 * the whole dataset, or the chains a bug-date window keeps (SPEC §7). Throws
 * when there are no chains.
 */
export function scoreOutcomes(outcomes: readonly ChainOutcome[], run: RunName, opts: ScoreOptions = {}): RunScores {
  return scoreOutcomeSets([{ outcomes, run }], opts)[0]!;
}

type RunName = { system: string; mode: Mode };

/** A run's scores without their intervals: what sorting, filtering and averaging read; cheap enough for every row of a window. */
export type RunValues = Omit<RunScores, "per_bug" | "chain" | "per_position" | "bootstrap"> & {
  per_bug: number;
  chain: number;
  per_position: Omit<PositionRate, "ci">[];
};

/** scoreOutcomes without the bootstrap: the same values, no intervals. */
export function scoreValues(outcomes: readonly ChainOutcome[], run: RunName, opts: Pick<ScoreOptions, "scoring" | "positions"> = {}): RunValues {
  if (outcomes.length === 0) throw new RangeError(`run ${run.system} (${run.mode}): no chains to score`);
  const positions = opts.positions ?? "length3";
  const bugs = outcomes.reduce((a, o) => a + o.length, 0);
  const resolved = outcomes.reduce((a, o) => a + countResolved(o), 0);
  const solved = outcomes.filter(isChainResolved).length;
  return {
    system: run.system,
    mode: run.mode,
    scoring: opts.scoring ?? "strict",
    positions,
    per_bug: (100 * resolved) / bugs,
    chain: (100 * solved) / outcomes.length,
    per_position: positionValues(outcomes, positions),
    cost_per_chain: meanOrNull(outcomes.map((o) => o.cost_usd)),
    peak_context_tokens: meanOrNull(outcomes.map((o) => o.peak_context_tokens)),
    counts: {
      chains: outcomes.length,
      bugs,
      graded: outcomes.reduce((a, o) => a + o.graded, 0),
      resolved,
      chains_resolved: solved,
    },
  };
}

/**
 * scoreOutcomes for many runs over the same chains (a leaderboard's rows under
 * one window), sharing the bootstrap's resamples: the same numbers, much faster.
 */
export function scoreOutcomeSets(sets: readonly { outcomes: readonly ChainOutcome[]; run: RunName }[], opts: ScoreOptions = {}): RunScores[] {
  const boot = resolveBootstrap(opts);
  const values = sets.map(({ outcomes, run }) => scoreValues(outcomes, run, opts));
  const headline = headlineRatesOf(
    sets.map((s) => s.outcomes),
    boot,
  );
  const perPosition = positionRatesOf(
    sets.map((s) => s.outcomes),
    values[0]?.positions ?? "length3",
    boot,
  );
  return values.map((v, i) => ({ ...v, ...headline[i]!, per_position: perPosition[i]!, bootstrap: boot }));
}
