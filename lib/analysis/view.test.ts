/**
 * The chain-error page's derivations, checked by hand on small runs:
 * breakdowns summed across systems (counts summed, shares recomputed), the
 * bars, and the list narrowed by position, cause and fingerprint.
 */
import { describe, expect, it } from "vitest";
import { chainErrorBreakdown, chainErrors } from "@/core/analysis";
import { grades, makeRun } from "@/core/scoring/test-fixtures";
import { causeBars, filterChainErrors, fingerprintBars, sumBreakdowns } from "@/lib/analysis/view";

const CHAINS: [string, number][] = [
  ["A", 3],
  ["B", 2],
];
/** Oracle resolves everything; Seq as given, with the files that make the causes. */
function pair(system: string, seqGrades: Parameters<typeof makeRun>[3]) {
  const oracle = makeRun(system, "oracle", CHAINS, [...grades("A", [true, true, true]), ...grades("B", [true, true])]);
  const seq = makeRun(system, "seq", CHAINS, seqGrades);
  const errors = chainErrors(oracle, seq);
  return { errors, breakdown: chainErrorBreakdown(errors, seq) };
}

// S1: A#2 overshoot (bug 1 strayed into x.py, which bug 2's gold touches), broke working code;
// A#3 undershoot (bug 2 left its gold x.py untouched), left unfixed
const s1 = pair("S1", [
  { continuous_id: "A", order: 1, resolved: true, model_files: ["a.py", "x.py"], gold_files: ["a.py"] },
  { continuous_id: "A", order: 2, resolved: false, gold_files: ["x.py"], fingerprint: "broke_working_code" },
  { continuous_id: "A", order: 3, resolved: false, fingerprint: "left_unfixed" },
  ...grades("B", [true, true]),
]);
// S2: B#2 undershoot (bug 1 skipped gold y.py), no usable patch
const s2 = pair("S2", [
  ...grades("A", [true, true, true]),
  { continuous_id: "B", order: 1, resolved: true, model_files: [], gold_files: ["y.py"] },
  { continuous_id: "B", order: 2, resolved: false, fingerprint: "no_usable_patch" },
]);

describe("sumBreakdowns", () => {
  it("sums counts per position and overall, and recomputes rates and shares from the sums", () => {
    expect(s1.errors.map((e) => [e.order, e.cause])).toEqual([
      [2, "overshoot"],
      [3, "undershoot"],
    ]);
    expect(s2.errors.map((e) => [e.order, e.cause])).toEqual([[2, "undershoot"]]);
    const c = sumBreakdowns([s1.breakdown, s2.breakdown]);
    expect(c.analyses).toBe(2);
    expect(c.positions.map((p) => p.position)).toEqual([2, 3]);
    const p2 = c.positions[0]!;
    expect([p2.chain_errors, p2.unresolved_downstream, p2.rate]).toEqual([2, 2, 100]);
    expect(p2.causes.overshoot).toEqual({ count: 1, pct: 50 });
    expect(p2.causes.undershoot).toEqual({ count: 1, pct: 50 });
    expect(p2.fingerprints.no_usable_patch).toEqual({ count: 1, pct: 50 });
    expect(c.overall.chain_errors).toBe(3);
    expect(c.overall.unresolved_downstream).toBe(3);
    expect(c.overall.causes.undershoot.count).toBe(2);
    expect(c.overall.causes.undershoot.pct).toBeCloseTo(200 / 3, 9);
    expect(c.overall.causes.unattributed).toEqual({ count: 0, pct: 0 });
    expect(c.overall.fingerprints.left_unfixed.count).toBe(1);
  });

  it("one breakdown sums to itself; none to empty stats with null rates", () => {
    const one = sumBreakdowns([s1.breakdown]);
    expect(one.overall).toEqual(s1.breakdown.overall);
    expect(one.positions).toEqual(s1.breakdown.positions);
    const none = sumBreakdowns([]);
    expect(none.positions).toEqual([]);
    expect(none.overall.rate).toBeNull();
    expect(none.overall.causes.both).toEqual({ count: 0, pct: null });
  });

  it("bars: unresolved downstream bugs split by cause plus the rest; chain errors by fingerprint", () => {
    const c = sumBreakdowns([s1.breakdown, s2.breakdown]);
    expect(causeBars(c)).toEqual([
      { position: 2, overshoot: 1, undershoot: 1, both: 0, unattributed: 0, not_chain_error: 0 },
      { position: 3, overshoot: 0, undershoot: 1, both: 0, unattributed: 0, not_chain_error: 0 },
    ]);
    expect(fingerprintBars(c)[0]).toEqual({ position: 2, broke_working_code: 1, left_unfixed: 0, no_usable_patch: 1, unknown: 0 });
  });

  it("the chain-error list narrows by position, cause and fingerprint", () => {
    const all = [...s1.errors, ...s2.errors];
    expect(filterChainErrors(all, { position: 2 })).toHaveLength(2);
    expect(filterChainErrors(all, { position: 2, cause: "undershoot" }).map((e) => e.system)).toEqual(["S2"]);
    expect(filterChainErrors(all, { fingerprint: "left_unfixed" }).map((e) => e.order)).toEqual([3]);
  });
});
