/**
 * SPEC §4 scores of one run: per-bug %, chain %, per-position %, cost, peak context,
 * each rate with a seeded 95% bootstrap interval over chains.
 *
 * Per-position rates: the position set is the length-3 chains (the paper's Tables
 * 3–4) or all chains; the rate at position p is resolved-at-p / chains of the set
 * with a bug at p, and its interval resamples exactly those chains.
 */
import type { Mode } from "@/core/schemas/prediction";
import { resolveBootstrap, type BootstrapOptions, type Indices } from "./bootstrap";
import { groupTotals, headlineRatesOf, positionRatesOf, positionValues, type RunGroup } from "./rates";
import {
  chainOutcomes,
  countResolved,
  isChainResolved,
  type ChainOutcome,
  type PositionSet,
  type RunResults,
  type Scoring,
} from "./outcomes";
import type { Estimate, PositionRate, RunScores, RunSpread } from "./schemas";

export type ScoreOptions = {
  /** Seq/Seq+Mem scoring; Oracle ignores it. Default strict (the paper's Table 2). */
  scoring?: Scoring;
  /** per-position population; default the length-3 chains (the paper's Tables 3–4) */
  positions?: PositionSet;
  /** from chain records: a bug whose model patch edits tests counts as unresolved (SPEC §7) */
  withoutTestEdits?: boolean;
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
  const { per_bug, chain } = headlineRatesOf([[outcomes]], boot)[0]!;
  return { per_bug, chain };
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
  return scoreOutcomeSets([{ runs: [outcomes], run }], opts)[0]!;
}

type RunName = { system: string; mode: Mode };

/** A row's scores without their intervals: what sorting, filtering and averaging read; cheap enough for every row of a window. */
export type RunValues = Omit<RunScores, "per_bug" | "chain" | "per_position" | "bootstrap" | "runs"> & {
  per_bug: number;
  chain: number;
  per_position: Omit<PositionRate, "ci">[];
  runs?: Omit<RunSpread, "pass_k"> & { pass_k: number };
};

/** scoreOutcomes without the bootstrap: the same values, no intervals. */
export function scoreValues(outcomes: readonly ChainOutcome[], run: RunName, opts: Pick<ScoreOptions, "scoring" | "positions"> = {}): RunValues {
  return scoreGroupValues([outcomes], run, opts);
}

/**
 * What one solved chain costs: the mean cost per chain over the chain solve
 * rate (equal to total cost / chains solved when every chain reports a cost;
 * for repeated runs, over all of them). Null without a cost or a solved chain.
 */
export function costPerSolvedChain(v: Pick<RunValues, "cost_per_chain" | "chain">): number | null {
  return v.cost_per_chain === null || v.chain === 0 ? null : v.cost_per_chain / (v.chain / 100);
}

const spanOf = (xs: number[]) => ({ min: Math.min(...xs), max: Math.max(...xs) });

/**
 * The values of a row of runs 1..k over the same chains (SPEC §7 "Repeated
 * runs"): rates are means over the runs, with their spread and chain pass^k
 * when k ≥ 2 (counts then sum over the runs); one run is scored as itself.
 */
export function scoreGroupValues(group: RunGroup, run: RunName, opts: Pick<ScoreOptions, "scoring" | "positions"> = {}): RunValues {
  const outcomes = group[0] ?? [];
  if (outcomes.length === 0) throw new RangeError(`run ${run.system} (${run.mode}): no chains to score`);
  const positions = opts.positions ?? "length3";
  const k = group.length;
  const bugs = outcomes.reduce((a, o) => a + o.length, 0);
  const totals = groupTotals(group);
  const resolved = totals.resolved.reduce((a, b) => a + b, 0);
  const solved = totals.solved.reduce((a, b) => a + b, 0);
  const perPosition = positionValues(group, positions);
  const values: RunValues = {
    system: run.system,
    mode: run.mode,
    scoring: opts.scoring ?? "strict",
    positions,
    per_bug: (100 * resolved) / (k * bugs),
    chain: (100 * solved) / (k * outcomes.length),
    per_position: perPosition,
    cost_per_chain: meanOrNull(group.map((r) => meanOrNull(r.map((o) => o.cost_usd)))),
    peak_context_tokens: meanOrNull(group.map((r) => meanOrNull(r.map((o) => o.peak_context_tokens)))),
    effort_per_chain: {
      input_tokens: meanOrNull(group.map((r) => meanOrNull(r.map((o) => o.effort.input_tokens)))),
      output_tokens: meanOrNull(group.map((r) => meanOrNull(r.map((o) => o.effort.output_tokens)))),
      steps: meanOrNull(group.map((r) => meanOrNull(r.map((o) => o.effort.steps)))),
      wall_seconds: meanOrNull(group.map((r) => meanOrNull(r.map((o) => o.effort.wall_seconds)))),
    },
    counts: {
      chains: outcomes.length,
      bugs,
      graded: group.reduce((a, r) => a + r.reduce((b, o) => b + o.graded, 0), 0),
      resolved,
      chains_resolved: solved,
    },
  };
  if (k === 1) return values;
  const each = group.map((r) => scoreGroupValues([r], run, opts));
  values.runs = {
    k,
    per_bug: spanOf(each.map((v) => v.per_bug)),
    chain: spanOf(each.map((v) => v.chain)),
    pass_k: (100 * totals.passed.reduce((a, b) => a + b, 0)) / outcomes.length,
    per_position: perPosition.map((p, i) => ({ position: p.position, ...spanOf(each.map((v) => v.per_position[i]!.value)) })),
    by_run: each.map((v) => ({ per_bug: v.per_bug, chain: v.chain })),
  };
  return values;
}

/**
 * The scores of many rows over the same chains (a leaderboard's rows under
 * one window), each row one run or several (runs 1..k), sharing the
 * bootstrap's resamples: the same numbers as each scored alone, much faster.
 */
export function scoreOutcomeSets(sets: readonly { runs: RunGroup; run: RunName }[], opts: ScoreOptions = {}): RunScores[] {
  const boot = resolveBootstrap(opts);
  const values = sets.map(({ runs, run }) => scoreGroupValues(runs, run, opts));
  const groups = sets.map((s) => s.runs);
  const headline = headlineRatesOf(groups, boot);
  const perPosition = positionRatesOf(groups, values[0]?.positions ?? "length3", boot);
  return values.map(({ runs, ...v }, i) => {
    const { pass_k, ...rates } = headline[i]!;
    return { ...v, ...rates, per_position: perPosition[i]!, bootstrap: boot, ...(runs ? { runs: { ...runs, pass_k } } : {}) };
  });
}
