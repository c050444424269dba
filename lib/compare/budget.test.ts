/** The budget chart's rows, a curve's value between its caps, and the table's caps. */
import { describe, expect, it } from "vitest";
import { budgetCurve, type BudgetChain } from "@/core/scoring";
import { budgetChartRows, formatCap, seriesName, tableCaps, valueAt, type BudgetSeries } from "@/lib/compare/budget";

const bug = (resolved: boolean, effort: number | null) => ({ resolved, effort });
const chains = (efforts: [number, number]): BudgetChain[] => [{ continuous_id: "c", bugs: [bug(true, efforts[0]), bug(true, efforts[1])] }];
const series = (id: string, curve: BudgetSeries["curve"], picked: BudgetSeries["picked"] = null): BudgetSeries => ({ submissionId: id, system: id, mode: "seq", picked, curve });

// x: Seq, efforts 1 then 3 → 50% at 1, 100% at 3; y: Oracle efforts 2, 2 → 100% at 2
const x = series("x", budgetCurve(chains([1, 3]), "seq", "strict"), "a");
const y = series("y", budgetCurve(chains([2, 2]), "oracle", "strict"));
const none = series("z", budgetCurve([{ continuous_id: "c", bugs: [bug(true, null)] }], "seq", "strict"));

describe("budget view", () => {
  it("reads a step curve between its caps: 0 below the first, the last point at or below the cap after", () => {
    expect([0.5, 1, 2.9, 3, 10].map((c) => valueAt(x.curve, c, "per_bug"))).toEqual([0, 50, 50, 100, 100]);
    expect(valueAt(x.curve, 2, "chain")).toBe(0);
    expect(valueAt(none.curve, 2, "per_bug")).toBeNull();
  });

  it("puts every series on the union of the caps, exact at each", () => {
    expect(budgetChartRows([x, y], "per_bug")).toEqual([
      { cap: 1, x: 50, y: 0 },
      { cap: 2, x: 50, y: 100 },
      { cap: 3, x: 100, y: 100 },
    ]);
  });

  it("the table's caps are quarters of the largest effort, rounded up to the kind's unit; names and caps read as text", () => {
    expect(tableCaps([x, y, none], "steps")).toEqual([1, 2, 3]);
    expect(tableCaps([x, y], "wall_seconds")).toEqual([0.8, 1.5, 2.3, 3]);
    expect(tableCaps([none], "cost_usd")).toEqual([]);
    expect([formatCap("cost_usd", 0.43321), formatCap("steps", 1), formatCap("wall_seconds", 9.276)]).toEqual(["$0.4332", "1 step", "9.3 s"]);
    expect([seriesName(x), seriesName(y)]).toEqual(["A: x · Seq", "y · Seq"]);
  });
});
