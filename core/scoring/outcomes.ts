/**
 * From graded bugs to per-chain outcomes (SPEC §4). Pure data in, pure data out.
 *
 * Invariants:
 * - the run summary's `dataset.chains` is the population: every denominator counts
 *   all of its chains and bugs, graded or not; a bug missing from the results is
 *   unresolved; results for chains or orders outside the dataset are ignored;
 * - only bugs of the run's own mode (`summary.mode`) are read, and when a bug
 *   (chain, order) appears twice the later line wins;
 * - strict scoring (Seq and Seq+Mem only) keeps a bug resolved only while every
 *   earlier bug of its chain is resolved; Oracle bugs are always scored on their own.
 */
import type { GradedBug, RunSummary } from "@/core/schemas/results";
import { isTestPath } from "@/core/diff";
import type { ChainRecord, Effort, Scoring } from "./schemas";

// the names live beside the report's shapes (schemas.ts), which import nothing from here
export { POSITION_SETS, SCORINGS, type PositionSet, type Scoring } from "./schemas";

export type RunResults = { summary: RunSummary; bugs: GradedBug[] };

/** One chain of the dataset as a run left it. */
export type ChainOutcome = {
  continuous_id: string;
  length: number;
  /** resolved[i] = bug at position i+1, after strict/lenient scoring */
  resolved: boolean[];
  /** bugs of this chain present in the results */
  graded: number;
  /** sum of cost_usd over the chain's bugs that carry one; null when none does */
  cost_usd: number | null;
  /** max peak_context_tokens over the chain's bugs that carry one; null when none does */
  peak_context_tokens: number | null;
  /** the chain's summed effort (all null in records of an older release) */
  effort: Effort;
};

export const NO_EFFORT: Effort = { input_tokens: null, output_tokens: null, steps: null, wall_seconds: null };

/** Bugs of a run by chain id, then by order (only the run's own mode; later line wins). */
export function indexBugs(run: RunResults): Map<string, Map<number, GradedBug>> {
  const byChain = new Map<string, Map<number, GradedBug>>();
  for (const bug of run.bugs) {
    if (bug.mode !== run.summary.mode) continue;
    let chain = byChain.get(bug.continuous_id);
    if (!chain) {
      chain = new Map();
      byChain.set(bug.continuous_id, chain);
    }
    chain.set(bug.order, bug);
  }
  return byChain;
}

/** Apply strict scoring: a bug stays resolved only if all earlier ones are. */
export function applyScoring(own: readonly boolean[], strict: boolean): boolean[] {
  if (!strict) return [...own];
  let intact = true;
  return own.map((r) => {
    intact = intact && r;
    return intact;
  });
}

function sumOrNull(values: (number | undefined)[]): number | null {
  const present = values.filter((v): v is number => v !== undefined);
  return present.length === 0 ? null : present.reduce((a, b) => a + b, 0);
}

function maxOrNull(values: (number | undefined)[]): number | null {
  const present = values.filter((v): v is number => v !== undefined);
  return present.length === 0 ? null : Math.max(...present);
}

/**
 * The positions of a chain's graded bugs whose model patch edits tests (SPEC §7):
 * a file it touched (applied, or discarded before the run) under a test path of
 * the chain (any bug's test patch, or a test glob).
 */
export function testEditPositions(bugs: readonly (GradedBug | undefined)[]): number[] {
  const testPaths = new Set(bugs.flatMap((b) => b?.test_files ?? []));
  return bugs.flatMap((b, i) => (b && [...b.model_files, ...b.discarded_files].some((f) => isTestPath(f, testPaths)) ? [i + 1] : []));
}

/** Every dataset chain of the run, in dataset order, as the run left it. */
export function chainRecords(run: RunResults): ChainRecord[] {
  const index = indexBugs(run);
  return run.summary.dataset.chains.map(({ continuous_id, length }) => {
    const graded = index.get(continuous_id) ?? new Map<number, GradedBug>();
    const bugs = Array.from({ length }, (_, i) => graded.get(i + 1));
    return {
      continuous_id,
      bugs: bugs.map((b) => (b === undefined ? null : b.resolved ? 1 : 0)),
      cost_usd: sumOrNull(bugs.map((b) => b?.cost_usd)),
      peak_context_tokens: maxOrNull(bugs.map((b) => b?.peak_context_tokens)),
      test_edits: testEditPositions(bugs),
      gold_similarity: bugs.map((b) => b?.gold_similarity ?? null),
      effort: {
        input_tokens: sumOrNull(bugs.map((b) => b?.input_tokens)),
        output_tokens: sumOrNull(bugs.map((b) => b?.output_tokens)),
        steps: sumOrNull(bugs.map((b) => b?.turns)),
        wall_seconds: sumOrNull(bugs.map((b) => b?.wall_seconds)),
      },
    };
  });
}

/**
 * Chain records scored strict or lenient; a run of `mode` (Oracle bugs are
 * always scored on their own). `withoutTestEdits`: a bug whose patch edits
 * tests counts as unresolved (the leaderboard's scores without test-editing patches).
 */
export function scoreChainRecords(records: readonly ChainRecord[], scoring: Scoring, mode: RunSummary["mode"], withoutTestEdits = false): ChainOutcome[] {
  const strict = scoring === "strict" && mode !== "oracle";
  return records.map((r) => ({
    continuous_id: r.continuous_id,
    length: r.bugs.length,
    resolved: applyScoring(
      r.bugs.map((b, i) => b === 1 && !(withoutTestEdits && r.test_edits?.includes(i + 1))),
      strict,
    ),
    graded: r.bugs.filter((b) => b !== null).length,
    cost_usd: r.cost_usd,
    peak_context_tokens: r.peak_context_tokens,
    effort: r.effort ?? NO_EFFORT,
  }));
}

/** Every dataset chain of the run, in dataset order, scored strict or lenient. */
export function chainOutcomes(run: RunResults, scoring: Scoring): ChainOutcome[] {
  return scoreChainRecords(chainRecords(run), scoring, run.summary.mode);
}

export function countResolved(outcome: ChainOutcome): number {
  return outcome.resolved.filter(Boolean).length;
}

/** Chains whose bugs are all resolved (the same under strict and lenient). */
export function isChainResolved(outcome: ChainOutcome): boolean {
  return outcome.resolved.every(Boolean);
}
