/**
 * Budget curves (SPEC §4 "Budget curves"): per-bug % and chain % under a cap on
 * one kind of per-bug effort (cost, steps or wall time).
 *
 * Invariants:
 * - a bug whose effort exceeds the cap counts as unresolved, and in Seq and
 *   Seq+Mem so does every later bug of its chain (the state they were graded
 *   on would not have existed): a lower bound on what the cap allows;
 * - a graded bug with no effort recorded is left out and counted; in Seq its
 *   later bugs are left out too (whether the cap cuts them depends on it), and
 *   its chain is left out of chain %; a bug missing from the results is
 *   unresolved at every cap and spent nothing;
 * - the caps are the distinct effort values of the bugs on the curve, so the
 *   step curve is exact: between two caps nothing changes.
 */
import { z } from "zod";
import type { GradedBug } from "@/core/schemas/results";
import type { Mode } from "@/core/schemas/prediction";
import { applyScoring, indexBugs, type RunResults, type Scoring } from "./outcomes";

/** The per-bug effort a cap is put on: the bug's cost_usd, its steps (the prediction's `turns`) or its wall_seconds. */
export const EFFORT_KINDS = ["cost_usd", "steps", "wall_seconds"] as const;
export const effortKindSchema = z.enum(EFFORT_KINDS);
export type EffortKind = z.infer<typeof effortKindSchema>;

const EFFORT_OF: Record<EffortKind, (b: GradedBug) => number | undefined> = {
  cost_usd: (b) => b.cost_usd,
  steps: (b) => b.turns,
  wall_seconds: (b) => b.wall_seconds,
};

/** A graded bug as the curve reads it: resolved on its own (before strict scoring), and its effort (null when none was recorded). */
export type BudgetBug = { resolved: boolean; effort: number | null };
/** A chain of the dataset: its bugs by position, null where the results have none. */
export type BudgetChain = { continuous_id: string; bugs: (BudgetBug | null)[] };

export type BudgetPoint = {
  /** the cap: a bug counts only when its effort is at most this */
  cap: number;
  resolved_bugs: number;
  resolved_chains: number;
  /** resolved_bugs / the curve's bugs, in % */
  per_bug: number;
  /** resolved_chains / the curve's chains, in %; null when no chain is on the curve */
  chain: number | null;
};

export type BudgetCurve = {
  /** bugs and chains on the curve (the denominators) */
  bugs: number;
  chains: number;
  /** graded bugs with no effort recorded: left out, counted */
  bugs_without_effort: number;
  /** one point per distinct effort value, ascending; empty when no bug is on the curve */
  points: BudgetPoint[];
};

/** Every dataset chain of the run with each graded bug's own outcome and its effort of `kind`. */
export function budgetChains(run: RunResults, kind: EffortKind): BudgetChain[] {
  const index = indexBugs(run);
  return run.summary.dataset.chains.map(({ continuous_id, length }) => {
    const graded = index.get(continuous_id);
    return {
      continuous_id,
      bugs: Array.from({ length }, (_, i) => {
        const b = graded?.get(i + 1);
        return b ? { resolved: b.resolved, effort: EFFORT_OF[kind](b) ?? null } : null;
      }),
    };
  });
}

/**
 * The curve of a run of `mode` under `scoring`. Each bug on the curve is
 * resolved under a cap c exactly when it is resolved without one and c is at
 * least its threshold: its own effort (Oracle), or the largest effort up to
 * it in its chain (Seq). A chain is resolved when all its bugs are and c is at
 * least the largest effort in it.
 */
export function budgetCurve(chains: readonly BudgetChain[], mode: Mode, scoring: Scoring): BudgetCurve {
  const sequential = mode !== "oracle";
  const strict = scoring === "strict" && sequential;
  const efforts = new Set<number>();
  const bugThresholds: number[] = [];
  const chainThresholds: number[] = [];
  let bugs = 0;
  let chainsOn = 0;
  let withoutEffort = 0;
  for (const chain of chains) {
    const resolved = applyScoring(
      chain.bugs.map((b) => b?.resolved ?? false),
      strict,
    );
    let running = 0;
    let cut = false;
    for (const [i, b] of chain.bugs.entries()) {
      if (b && b.effort === null) {
        withoutEffort++;
        cut = true;
        continue;
      }
      // in Seq every bug after one with no effort is off the curve; in Oracle only that bug is
      if (cut && sequential) continue;
      const effort = b?.effort ?? 0;
      running = sequential ? Math.max(running, effort) : effort;
      bugs++;
      if (b) efforts.add(effort);
      if (resolved[i]) bugThresholds.push(running);
    }
    if (cut) continue;
    chainsOn++;
    if (resolved.every(Boolean)) chainThresholds.push(Math.max(0, ...chain.bugs.map((b) => b?.effort ?? 0)));
  }
  const caps = [...efforts].sort((a, b) => a - b);
  const atOrBelow = (sorted: number[]) => {
    let k = 0;
    return (cap: number) => {
      while (k < sorted.length && (sorted[k] as number) <= cap) k++;
      return k;
    };
  };
  const bugCount = atOrBelow(bugThresholds.sort((a, b) => a - b));
  const chainCount = atOrBelow(chainThresholds.sort((a, b) => a - b));
  const points = caps.map((cap) => {
    const resolved_bugs = bugCount(cap);
    const resolved_chains = chainCount(cap);
    return {
      cap,
      resolved_bugs,
      resolved_chains,
      per_bug: (100 * resolved_bugs) / bugs,
      chain: chainsOn === 0 ? null : (100 * resolved_chains) / chainsOn,
    };
  });
  return { bugs, chains: chainsOn, bugs_without_effort: withoutEffort, points };
}

/** The run's curve on `kind` (budgetChains, then budgetCurve under the run's mode). */
export function budgetCurveOfRun(run: RunResults, kind: EffortKind, scoring: Scoring): BudgetCurve {
  return budgetCurve(budgetChains(run, kind), run.summary.mode, scoring);
}
