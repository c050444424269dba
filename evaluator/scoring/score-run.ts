/**
 * SPEC §4 scores of one run: per-bug %, chain %, per-position %, cost, peak context,
 * each rate with a seeded 95% bootstrap interval over chains.
 *
 * Per-position rates: the position set is the length-3 chains (the paper's Tables
 * 3–4) or all chains; the rate at position p is resolved-at-p / chains of the set
 * with a bug at p, and its interval resamples exactly those chains.
 */
import type { Mode } from "@/lib/schemas/prediction";
import { bootstrapIntervals, resolveBootstrap, type BootstrapOptions, type Indices } from "./bootstrap";
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

function chainPercent(totals: ChainTotals, idx: Indices): number {
  let solved = 0;
  for (let k = 0; k < idx.length; k++) solved += totals.solved[idx[k] as number] as number;
  return (100 * solved) / idx.length;
}

export const allIndices = (n: number): number[] => Array.from({ length: n }, (_, i) => i);

/** Per-bug % and chain % with intervals (one resample set for both). */
export function headlineRates(
  outcomes: readonly ChainOutcome[],
  boot: BootstrapOptions,
): { per_bug: Estimate; chain: Estimate } {
  const totals = chainTotals(outcomes);
  const all = allIndices(outcomes.length);
  const [bugCi, chainCi] = bootstrapIntervals(
    outcomes.length,
    [(idx) => perBugPercent(totals, idx), (idx) => chainPercent(totals, idx)],
    boot,
  );
  return {
    per_bug: { value: perBugPercent(totals, all), ci: bugCi as [number, number] },
    chain: { value: chainPercent(totals, all), ci: chainCi as [number, number] },
  };
}

const hitRate =
  (hits: readonly number[]) =>
  (idx: Indices): number => {
    let sum = 0;
    for (let k = 0; k < idx.length; k++) sum += hits[idx[k] as number] as number;
    return (100 * sum) / idx.length;
  };

/** Resolution rate at each position 1..max of the position set. */
export function positionRates(
  outcomes: readonly ChainOutcome[],
  positions: PositionSet,
  boot: BootstrapOptions,
): PositionRate[] {
  const pool = positions === "length3" ? outcomes.filter((o) => o.length === 3) : outcomes;
  const maxLength = Math.max(0, ...pool.map((o) => o.length));
  // columns[i] = 1/0 per chain with a bug at position i+1, in pool order
  const columns = Array.from({ length: maxLength }, (_, i) =>
    pool.filter((o) => o.length > i).map((o) => (o.resolved[i] ? 1 : 0)),
  );
  // populations are nested (length ≥ p), so equal sizes mean the same chains: one resample set each
  const bySize = new Map<number, number[]>();
  columns.forEach((col, i) => bySize.set(col.length, [...(bySize.get(col.length) ?? []), i]));
  const intervals = new Map<number, [number, number]>();
  for (const [n, cols] of bySize) {
    const cis = bootstrapIntervals(n, cols.map((i) => hitRate(columns[i] as number[])), boot);
    cols.forEach((c, j) => intervals.set(c, cis[j] as [number, number]));
  }
  return columns.map((col, i) => ({
    position: i + 1,
    value: hitRate(col)(allIndices(col.length)),
    ci: intervals.get(i) as [number, number],
    n: col.length,
  }));
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
export function scoreOutcomes(outcomes: readonly ChainOutcome[], run: { system: string; mode: Mode }, opts: ScoreOptions = {}): RunScores {
  const scoring = opts.scoring ?? "strict";
  const positions = opts.positions ?? "length3";
  const boot = resolveBootstrap(opts);
  if (outcomes.length === 0) {
    throw new RangeError(`run ${run.system} (${run.mode}): no chains to score`);
  }
  return {
    system: run.system,
    mode: run.mode,
    scoring,
    positions,
    ...headlineRates(outcomes, boot),
    per_position: positionRates(outcomes, positions, boot),
    cost_per_chain: meanOrNull(outcomes.map((o) => o.cost_usd)),
    peak_context_tokens: meanOrNull(outcomes.map((o) => o.peak_context_tokens)),
    counts: {
      chains: outcomes.length,
      bugs: outcomes.reduce((a, o) => a + o.length, 0),
      graded: outcomes.reduce((a, o) => a + o.graded, 0),
      resolved: outcomes.reduce((a, o) => a + countResolved(o), 0),
      chains_resolved: outcomes.filter(isChainResolved).length,
    },
    bootstrap: boot,
  };
}
