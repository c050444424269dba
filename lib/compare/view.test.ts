/** The comparison's per-chain win/loss (which agrees with pairedComparison), the scatter's points, and signed points. */
import { describe, expect, it } from "vitest";
import { pairedComparison } from "@/core/scoring";
import { grades, makeRun } from "@/core/scoring/test-fixtures";
import type { Mode } from "@/core/schemas/prediction";
import { MARK_PX, chainWinLoss, flippedText, formatP, formatPoints, paretoFrontier, placeMarks, scatterPoints } from "@/lib/compare/view";

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
    // strict: A#2 resolved by a only, B#2 by b only; C neither
    expect(strict.map((c) => flippedText(c.flipped))).toEqual(["2 by A", "2 by B", ""]);
    // lenient: A#2 by a, A#3 by b; C#2 by a
    expect(chainWinLoss(a, b, "lenient").map((c) => c.flipped)).toEqual([
      { a: [2], b: [3] },
      { a: [], b: [2] },
      { a: [2], b: [] },
    ]);
    for (const scoring of ["strict", "lenient"] as const) {
      const rows = chainWinLoss(a, b, scoring);
      const p = pairedComparison(a, b, { scoring, draws: 50 });
      const n = (w: string) => rows.filter((r) => r.winner === w).length;
      expect([n("a"), n("b"), n("tie")]).toEqual([p.wins, p.losses, p.ties]);
    }
    // lenient: C#2 counts for a
    expect(chainWinLoss(a, b, "lenient")[2]!.winner).toBe("a");
  });

  it("formats p-values", () => {
    expect([formatP(1), formatP(0.0625), formatP(0.0004)]).toEqual(["1.000", "0.063", "< 0.001"]);
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
      { submissionId: "x", label: "x (seq)", system: "x", mode: "seq", cost: 1.5, perBug: 40, picked: "b", frontier: true },
      // as good as x and dearer: dominated
      { submissionId: "z", label: "z (oracle)", system: "z", mode: "oracle", cost: 2, perBug: 40, picked: "a", frontier: false },
    ]);
    expect(s.withoutCost).toEqual(["y (seq)"]);
  });
});

describe("placeMarks", () => {
  const row = (id: string, cost: number, perBug: number) => ({ submissionId: id, system: { name: id }, mode: "seq" as const, costPerChain: cost, perBug: { value: perBug } });
  // a 280-pixel plot of $0–2.40 and 0–100 %: a phone's
  const phone = { x: 280 / 2.4, y: 2.5 };
  const placed = (rows: ReturnType<typeof row>[]) => {
    const points = scatterPoints(rows, {}).points;
    const marks = placeMarks(points, phone, 280);
    const drawn = Object.fromEntries(points.map((p) => [p.submissionId, { x: p.cost * phone.x + marks.get(p.submissionId)!.dodge, y: p.perBug * phone.y }]));
    return { marks: Object.fromEntries([...marks].map(([id, m]) => [id, { ...m, dodge: Math.round(m.dodge * 10) / 10 }])), drawn };
  };
  const apart = (drawn: Record<string, { x: number; y: number }>) => {
    const all = Object.values(drawn);
    return all.every((a, i) => all.slice(i + 1).every((b) => Math.abs(a.x - b.x) >= MARK_PX - 0.01 || Math.abs(a.y - b.y) >= MARK_PX));
  };
  it("spreads the points drawn on top of each other into a row in cost order, and tags the pile once, naming how many more it holds", () => {
    // the demo's pile: five cheap systems at 0 %, one dear system far away
    const { marks, drawn } = placed([row("a", 0.17, 0), row("b", 0.18, 0), row("c", 0.19, 0), row("d", 0.2, 0), row("e", 0.17, 0), row("far", 2.4, 100)]);
    expect(apart(drawn)).toBe(true);
    expect(["a", "e", "b", "c", "d"].map((id) => drawn[id]!.x)).toEqual(["a", "e", "b", "c", "d"].map((id) => drawn[id]!.x).toSorted((x, y) => x - y));
    expect(marks.a!.tag).toBe("a +4");
    expect(["b", "c", "d", "e"].map((id) => marks[id]!.tag)).toEqual([null, null, null, null]);
    expect(marks.far).toEqual({ dodge: 0, tag: "far", tagLeft: true });
  });
  it("merges piles whose rows would touch, until no two markers overlap (the demo's points at 87.5 % on a phone)", () => {
    const { drawn } = placed([row("s1", 2.1, 87.5), row("o1", 2.14, 87.5), row("s2", 2.24, 87.5), row("d", 2.05, 100), row("a", 1.94, 100), row("c", 2.02, 100), row("b", 1.99, 100)]);
    expect(apart(drawn)).toBe(true);
  });
  it("leaves out a tag that would run into one already placed, best scores first; a lone far point keeps its own", () => {
    const { marks } = placed([row("low", 1.1, 95), row("high", 1, 100), row("far", 0.1, 0)]);
    expect(marks.high!.tag).toBe("high");
    expect(marks.low!.tag).toBeNull();
    expect(marks.far).toEqual({ dodge: 0, tag: "far", tagLeft: false });
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
