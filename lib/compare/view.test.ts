/** The comparison's per-chain win/loss (which agrees with pairedComparison), the scatter's points, and signed points. */
import { describe, expect, it } from "vitest";
import { pairedComparison } from "@/evaluator/scoring";
import { grades, makeRun } from "@/evaluator/scoring/test-fixtures";
import type { Mode } from "@/lib/schemas/prediction";
import { chainWinLoss, formatPoints, scatterPoints } from "@/lib/compare/view";

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

describe("scatterPoints", () => {
  it("rows with a cost are points, the picked ones marked; the others are named", () => {
    const row = (id: string, cost: number | null, mode: Mode = "seq") => ({ submissionId: id, system: { name: id }, mode, costPerChain: cost, perBug: { value: 40 } });
    const s = scatterPoints([row("x", 1.5), row("y", null), row("z", 2, "oracle")], { a: "z", b: "x" });
    expect(s.points).toEqual([
      { submissionId: "x", label: "x (seq)", mode: "seq", cost: 1.5, perBug: 40, picked: "b" },
      { submissionId: "z", label: "z (oracle)", mode: "oracle", cost: 2, perBug: 40, picked: "a" },
    ]);
    expect(s.withoutCost).toEqual(["y (seq)"]);
  });
});

describe("formatPoints", () => {
  it("signs a difference, with the paper's minus", () => {
    expect([formatPoints(12.46), formatPoints(-3), formatPoints(0), formatPoints(0.01)]).toEqual(["+12.5", "−3.0", "0.0", "0.0"]);
  });
});
