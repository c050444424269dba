/**
 * The pages' derivations, checked by hand on small runs: per-configuration and
 * per-model means with the change vs Oracle, chain-error breakdowns summed
 * across systems (counts summed, shares recomputed), and the per-chain
 * win/loss that agrees with pairedComparison.
 */
import { describe, expect, it } from "vitest";
import { chainErrorBreakdown, chainErrors } from "@/evaluator/analysis";
import { formatRelativeChange, pairedComparison, type PositionRate } from "@/evaluator/scoring";
import { reportedPositionsByConfig, reportedPositionsByModel } from "@/lib/reference/paper";
import { grades, makeRun } from "@/evaluator/scoring/test-fixtures";
import type { Mode } from "@/lib/schemas/prediction";
import {
  causeBars,
  chainWinLoss,
  exportTable,
  failurePageHref,
  filterChainErrors,
  formatPoints,
  hrefWith,
  fingerprintBars,
  positionSeries,
  positionTable,
  reportedPositionTable,
  scatterPoints,
  sumBreakdowns,
  type PositionSource,
} from "./analysis-view";

const rates = (...values: number[]): PositionRate[] => values.map((value, i) => ({ position: i + 1, value, ci: [0, 100], n: 4 }));
const source = (id: string, model: string, contextConfig: string, mode: Mode, ...values: number[]): PositionSource => ({
  submissionId: id,
  system: { model, contextConfig },
  mode,
  perPosition: rates(...values),
});

const SOURCES = [
  source("m1-base-o", "M1", "Baseline", "oracle", 60, 70, 80),
  source("m1-base-s", "M1", "Baseline", "seq", 60, 35, 20),
  source("m2-base-o", "M2", "Baseline", "oracle", 40, 50, 60),
  source("m2-base-s", "M2", "Baseline", "seq", 40, 25, 20),
  source("m1-sum-o", "M1", "Summarize", "oracle", 50, 50, 50),
  source("m1-sum-m", "M1", "Summarize", "seq_mem", 50, 25, 0),
];

describe("positionTable", () => {
  it("by configuration: the mean over models per mode, Oracle first, with the change vs the configuration's Oracle", () => {
    const t = positionTable(SOURCES, "config");
    expect(t.positions).toEqual([1, 2, 3]);
    expect(t.chainsAt).toEqual([4, 4, 4]);
    expect(t.groups.map((g) => g.key)).toEqual(["Baseline", "Summarize"]);
    const base = t.groups[0]!;
    expect(base.rows.map((r) => r.mode)).toEqual(["oracle", "seq"]);
    expect(base.rows[0]!.cells.map((c) => c.value)).toEqual([50, 60, 70]);
    expect(base.rows[1]!.cells.map((c) => c.value)).toEqual([50, 30, 20]);
    expect(base.rows[1]!.submissionIds).toEqual(["m1-base-s", "m2-base-s"]);
    // position 1 is unannotated, as in the paper; then (30 − 60) / 60 and (20 − 70) / 70
    expect(base.rows[1]!.cells.map((c) => c.vsOracle)).toEqual([null, -0.5, -50 / 70]);
    expect(base.rows[0]!.cells.every((c) => c.vsOracle === null)).toBe(true);
    expect(base.rows[0]!.cells[0]!.chains).toBe(4);
    const sum = t.groups[1]!;
    expect(sum.rows.map((r) => r.mode)).toEqual(["oracle", "seq_mem"]);
    expect(sum.rows[1]!.cells.map((c) => c.vsOracle)).toEqual([null, -0.5, -1]);
  });

  it("by model: the mean over configurations", () => {
    const t = positionTable(SOURCES, "model");
    expect(t.groups.map((g) => g.key)).toEqual(["M1", "M2"]);
    const m1 = t.groups[0]!;
    expect(m1.rows.map((r) => r.mode)).toEqual(["oracle", "seq", "seq_mem"]);
    expect(m1.rows[0]!.cells.map((c) => c.value)).toEqual([55, 60, 65]);
    expect(m1.rows[2]!.cells.map((c) => c.value)).toEqual([50, 25, 0]);
  });

  it("no rows, no groups; and the chart series has one key per mode", () => {
    expect(positionTable([], "config")).toEqual({ by: "config", positions: [], chainsAt: [], groups: [] });
    const series = positionSeries(positionTable(SOURCES, "config").groups[0]!);
    expect(series.modes).toEqual(["oracle", "seq"]);
    expect(series.data).toEqual([
      { position: 1, oracle: 50, seq: 50 },
      { position: 2, oracle: 60, seq: 30 },
      { position: 3, oracle: 70, seq: 20 },
    ]);
  });
});

// ---------------------------------------------------------------- chain errors

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

  it("the chain-error list narrows by position, cause and fingerprint; rows link to failure pages", () => {
    const all = [...s1.errors, ...s2.errors];
    expect(filterChainErrors(all, { position: 2 })).toHaveLength(2);
    expect(filterChainErrors(all, { position: 2, cause: "undershoot" }).map((e) => e.system)).toEqual(["S2"]);
    expect(filterChainErrors(all, { fingerprint: "left_unfixed" }).map((e) => e.order)).toEqual([3]);
    expect(failurePageHref("sub 1", "A/b", 2)).toBe("/submissions/sub%201/chains/A%2Fb/bugs/2");
  });
});

// ---------------------------------------------------------------- comparison

describe("chainWinLoss", () => {
  const chains: [string, number][] = [
    ["A", 3],
    ["B", 2],
    ["C", 2],
  ];
  const a = makeRun("A", "seq", chains, [...grades("A", [true, true, false]), ...grades("B", [true, false]), ...grades("C", [false, true])]);
  const b = makeRun("B", "seq", chains, [...grades("A", [true, false, true]), ...grades("B", [true, true]), ...grades("C", [false, false])]);

  it("per chain, who resolved more under the scoring; totals agree with pairedComparison", () => {
    const strict = chainWinLoss(a, b, "strict");
    expect(strict.map((c) => [c.continuousId, c.a, c.b, c.winner])).toEqual([
      ["A", 2, 1, "a"],
      ["B", 1, 2, "b"],
      ["C", 0, 0, "tie"],
    ]);
    expect(strict[0]!.firstUnresolved).toEqual({ a: 3, b: 2 });
    for (const scoring of ["strict", "lenient"] as const) {
      const rows = chainWinLoss(a, b, scoring);
      const p = pairedComparison(a, b, { scoring, draws: 50 });
      const n = (w: string) => rows.filter((r) => r.winner === w).length;
      expect([n("a"), n("b"), n("tie")]).toEqual([p.wins, p.losses, p.ties]);
    }
    // lenient: C#2 counts for a
    expect(chainWinLoss(a, b, "lenient")[2]!.winner).toBe("a");
  });

  it("only chains both runs cover", () => {
    const partial = { ...b, summary: { ...b.summary, chains_selected: ["A", "C"] } };
    expect(chainWinLoss(a, partial, "strict").map((c) => c.continuousId)).toEqual(["A", "C"]);
  });
});

describe("scatterPoints and exportTable", () => {
  it("rows with a cost are points, the picked ones marked; the others are named", () => {
    const row = (id: string, cost: number | null, mode: Mode = "seq") => ({ submissionId: id, system: { name: id }, mode, costPerChain: cost, perBug: { value: 40 } });
    const s = scatterPoints([row("x", 1.5), row("y", null), row("z", 2, "oracle")], { a: "z", b: "x" });
    expect(s.points).toEqual([
      { submissionId: "x", label: "x (seq)", mode: "seq", cost: 1.5, perBug: 40, picked: "b" },
      { submissionId: "z", label: "z (oracle)", mode: "oracle", cost: 2, perBug: 40, picked: "a" },
    ]);
    expect(s.withoutCost).toEqual(["y (seq)"]);
  });

  it("an export's rows are objects keyed by column label, missing values null", () => {
    const t = exportTable("t", [{ label: "id", value: (r: { id: string; v?: number }) => r.id }, { label: "v", value: (r) => r.v }], [{ id: "a", v: 1 }, { id: "b" }]);
    expect(t.rows).toEqual([
      { id: "a", v: 1 },
      { id: "b", v: null },
    ]);
    expect(t.columns.map((c) => c.label)).toEqual(["id", "v"]);
  });
});

describe("hrefWith", () => {
  it("leaves out empty values and repeats arrays", () => {
    expect(hrefWith("/analysis", { version: "demo", system: ["a", "b"], mode: undefined, cause: "" }, "errors")).toBe("/analysis?version=demo&system=a&system=b#errors");
    expect(hrefWith("/positions", {})).toBe("/positions");
  });
});

describe("formatPoints", () => {
  it("signs a difference, with the paper's minus", () => {
    expect([formatPoints(12.46), formatPoints(-3), formatPoints(0), formatPoints(0.01)]).toEqual(["+12.5", "−3.0", "0.0", "0.0"]);
  });
});

describe("reportedPositionTable", () => {
  it("the paper's Table 3 in its order, with the relative drops it prints", () => {
    const t = reportedPositionTable(reportedPositionsByConfig(), "config");
    expect(t.groups.map((g) => g.key)).toEqual(["Baseline", "Summarize", "Sub-Agent"]);
    expect(t.chainsAt).toEqual([97, 97, 97]);
    const seq = t.groups[0]!.rows.find((r) => r.mode === "seq")!;
    expect(seq.cells.map((c) => c.value)).toEqual([57.1, 39.3, 27.7]);
    expect(seq.cells.map((c) => formatRelativeChange(c.vsOracle))).toEqual(["—", "−39%", "−59%"]);
    expect(reportedPositionTable(reportedPositionsByModel(), "model").groups[0]!.key).toBe("GPT-5.5");
  });
});
