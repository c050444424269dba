/** The comparison's per-chain win/loss (which agrees with pairedComparison), the scatter's points, and signed points. */
import { describe, expect, it } from "vitest";
import { pairedComparison } from "@/core/scoring";
import { grades, makeRun } from "@/core/scoring/test-fixtures";
import type { Mode } from "@/core/schemas/prediction";
import { chainWinLoss, formatPoints, paretoFrontier, scatterPoints } from "@/lib/compare/view";

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
      { submissionId: "x", label: "x (seq)", system: "x", mode: "seq", cost: 1.5, perBug: 40, picked: "b", frontier: true, dodge: 0, tag: "x", tagLeft: true },
      // as good as x and dearer: dominated; far enough from x for a tag of its own
      { submissionId: "z", label: "z (oracle)", system: "z", mode: "oracle", cost: 2, perBug: 40, picked: "a", frontier: false, dodge: 0, tag: "z", tagLeft: true },
    ]);
    expect(s.withoutCost).toEqual(["y (seq)"]);
  });
});

describe("placeMarks", () => {
  const row = (id: string, cost: number, perBug: number) => ({ submissionId: id, system: { name: id }, mode: "seq" as const, costPerChain: cost, perBug: { value: perBug } });
  const placed = (rows: ReturnType<typeof row>[]) => Object.fromEntries(scatterPoints(rows, {}).points.map((p) => [p.submissionId, { dodge: p.dodge, tag: p.tag }]));
  it("spreads the points drawn on top of each other sideways and tags the pile once, naming how many more it holds", () => {
    // the demo's pile: five cheap systems at 0 %, one dear system far away
    const rows = [row("a", 0.17, 0), row("b", 0.18, 0), row("c", 0.19, 0), row("d", 0.2, 0), row("e", 0.17, 0), row("far", 2.4, 100)];
    const p = placed(rows);
    expect(["a", "e", "b", "c", "d"].map((id) => p[id]!.dodge)).toEqual([-2, -1, 0, 1, 2]);
    expect(p.a!.tag).toBe("a +4");
    expect(["b", "c", "d", "e"].map((id) => p[id]!.tag)).toEqual([null, null, null, null]);
    expect(p.far).toEqual({ dodge: 0, tag: "far" });
  });
  it("points close through their neighbours make one pile, spread in cost order, so no spread point lands on a neighbour", () => {
    // the demo's four at 100 %: 1.94 and 2.05 are apart, but each is close to the next
    const p = placed([row("d", 2.05, 100), row("a", 1.94, 100), row("c", 2.02, 100), row("b", 1.99, 100), row("cheap", 0.17, 0)]);
    expect(["a", "b", "c", "d"].map((id) => p[id]!.dodge)).toEqual([-1.5, -0.5, 0.5, 1.5]);
    expect(p.a!.tag).toBe("a +3");
  });
  it("leaves out a tag that would run into one already placed, best scores first", () => {
    // 10 % of the x span apart and 5 points lower: not the same pile, too close for a second tag
    const p = placed([row("low", 1.1, 95), row("high", 1, 100), row("far", 10, 0)]);
    expect(p.high).toEqual({ dodge: 0, tag: "high" });
    expect(p.low).toEqual({ dodge: 0, tag: null });
    expect(p.far!.tag).toBe("far");
  });
});

describe("paretoFrontier", () => {
  const p = (submissionId: string, cost: number, perBug: number) => ({ submissionId, cost, perBug });
  it("keeps each point no other is as cheap and as good as, and better at one", () => {
    const points = [p("cheap-bad", 1, 10), p("mid", 2, 30), p("dear-worse", 3, 25), p("dear-best", 5, 60), p("same-cost-worse", 2, 20), p("free-worse", 1, 5)];
    expect([...paretoFrontier(points)].sort()).toEqual(["cheap-bad", "dear-best", "mid"]);
  });
  it("keeps exact ties together, and a lone point", () => {
    expect([...paretoFrontier([p("a", 2, 50), p("b", 2, 50), p("c", 2, 49)])].sort()).toEqual(["a", "b"]);
    expect([...paretoFrontier([p("a", 0, 0)])]).toEqual(["a"]);
    expect(paretoFrontier([]).size).toBe(0);
  });
  it("is order-free", () => {
    const points = [p("x", 4, 70), p("y", 1, 20), p("z", 2, 20), p("w", 3, 71)];
    expect([...paretoFrontier(points)].sort()).toEqual([...paretoFrontier([...points].reverse())].sort());
    expect([...paretoFrontier(points)].sort()).toEqual(["w", "y"]);
  });
});

describe("formatPoints", () => {
  it("signs a difference, with the paper's minus", () => {
    expect([formatPoints(12.46), formatPoints(-3), formatPoints(0), formatPoints(0.01)]).toEqual(["+12.5", "−3.0", "0.0", "0.0"]);
  });
});
