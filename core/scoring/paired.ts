/**
 * Paired comparison of two runs on the chains both cover (SPEC §4 "Uncertainty").
 *
 * A run covers the chains of its dataset that it was asked to evaluate
 * (`chains_selected`, or every dataset chain when that is null). The difference is
 * a − b in per-bug percentage points on the shared chains; its interval resamples
 * the shared chains once per draw and scores both runs on the same resample.
 * The exact sign test over the shared chains (wins against losses, ties
 * dropped) gives its p-value, the test rank tiers use; the same test over the
 * shared bugs (resolved by one run only, against the other) is the exact
 * McNemar test on per-bug success.
 */
import { signTest } from "@/core/statistics";
import { bootstrapIntervals, resolveBootstrap, type Indices } from "./bootstrap";
import { chainOutcomes, type ChainOutcome, type RunResults, type Scoring } from "./outcomes";
import type { PairedComparison } from "./schemas";
import { allIndices, chainTotals, perBugPercent } from "./score-run";

export type PairedOptions = { scoring?: Scoring; seed?: number; draws?: number };

function covered(run: RunResults, outcomes: ChainOutcome[]): Map<string, ChainOutcome> {
  const selected = run.summary.chains_selected ? new Set(run.summary.chains_selected) : null;
  return new Map(outcomes.filter((o) => !selected || selected.has(o.continuous_id)).map((o) => [o.continuous_id, o]));
}

export function pairedComparison(a: RunResults, b: RunResults, opts: PairedOptions = {}): PairedComparison {
  const scoring = opts.scoring ?? "strict";
  const boot = resolveBootstrap(opts);
  const coveredB = covered(b, chainOutcomes(b, scoring));
  const left: ChainOutcome[] = [];
  const right: ChainOutcome[] = [];
  for (const oa of covered(a, chainOutcomes(a, scoring)).values()) {
    const ob = coveredB.get(oa.continuous_id);
    if (!ob) continue;
    if (ob.length !== oa.length) {
      throw new RangeError(
        `chain ${oa.continuous_id} has ${oa.length} bugs in one run and ${ob.length} in the other: different dataset versions`,
      );
    }
    left.push(oa);
    right.push(ob);
  }
  if (left.length === 0) throw new RangeError("the two runs share no chains");

  const totalsA = chainTotals(left);
  const totalsB = chainTotals(right);
  const diff = (idx: Indices) => perBugPercent(totalsA, idx) - perBugPercent(totalsB, idx);
  const all = allIndices(left.length);
  const [ci] = bootstrapIntervals(left.length, [diff], boot);
  // per chain, a's resolved bugs minus b's: the sign test's pairs (SPEC §4 "Rank tiers"), whose signs are the wins and losses
  const { wins, losses, p } = signTest(left.map((_, i) => (totalsA.resolved[i] as number) - (totalsB.resolved[i] as number)));
  // per bug, resolved by a and not b (+1) or the reverse (−1): the discordant pairs McNemar's test counts
  const perBug = signTest(left.flatMap((o, i) => o.resolved.map((r, j) => Number(r) - Number((right[i] as ChainOutcome).resolved[j]))));
  return {
    scoring,
    a: { system: a.summary.system, mode: a.summary.mode, per_bug: perBugPercent(totalsA, all) },
    b: { system: b.summary.system, mode: b.summary.mode, per_bug: perBugPercent(totalsB, all) },
    chains: left.length,
    bugs: left.reduce((s, o) => s + o.length, 0),
    difference: { value: diff(all), ci: ci as [number, number] },
    wins,
    losses,
    ties: left.length - wins - losses,
    sign_test_p: p,
    per_bug_test: { a_only: perBug.wins, b_only: perBug.losses, mcnemar_p: perBug.p },
    bootstrap: boot,
  };
}
