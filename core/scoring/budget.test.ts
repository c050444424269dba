/** Budget curves (SPEC §4) on hand-worked chains: Seq cuts a chain at the first bug over the cap, Oracle does not. */
import { describe, expect, it } from "vitest";
import { budgetChains, budgetCurve, budgetCurveOfRun, type BudgetChain } from "./budget";
import { makeRun } from "./test-fixtures";

const bug = (resolved: boolean, effort: number | null) => ({ resolved, effort });
// c1: ✓ effort 1, ✓ effort 5, ✓ effort 2; c2: ✓ effort 3, ✗ effort 4 — 5 bugs, 2 chains, caps 1…5
const CHAINS: BudgetChain[] = [
  { continuous_id: "c1", bugs: [bug(true, 1), bug(true, 5), bug(true, 2)] },
  { continuous_id: "c2", bugs: [bug(true, 3), bug(false, 4)] },
];
const table = (c: ReturnType<typeof budgetCurve>) => c.points.map((p) => [p.cap, p.resolved_bugs, p.per_bug, p.resolved_chains, p.chain]);

describe("budgetCurve", () => {
  it("Seq: a bug over the cap makes every later bug of its chain unresolved", () => {
    const c = budgetCurve(CHAINS, "seq", "lenient");
    expect([c.bugs, c.chains, c.bugs_without_effort]).toEqual([5, 2, 0]);
    // at cap 2, c1 #3 (effort 2) is within the cap, but c1 #2 (effort 5) is not, so #3 is unresolved: only c1 #1 counts
    // at cap 3, c2 #1 joins; at cap 5 all of c1 does, and c1 is a solved chain
    expect(table(c)).toEqual([
      [1, 1, 20, 0, 0],
      [2, 1, 20, 0, 0],
      [3, 2, 40, 0, 0],
      [4, 2, 40, 0, 0],
      [5, 4, 80, 1, 50],
    ]);
  });

  it("Oracle: a bug over the cap leaves the later bugs of its chain alone", () => {
    // c1 #3 counts from cap 2 on its own effort
    expect(table(budgetCurve(CHAINS, "oracle", "strict"))).toEqual([
      [1, 1, 20, 0, 0],
      [2, 2, 40, 0, 0],
      [3, 3, 60, 0, 0],
      [4, 3, 60, 0, 0],
      [5, 4, 80, 1, 50],
    ]);
  });

  it("at the largest cap the curve is the score without a cap; strict Seq scoring applies under the cap too", () => {
    const chains: BudgetChain[] = [{ continuous_id: "c", bugs: [bug(false, 1), bug(true, 1), bug(true, 2)] }];
    expect(table(budgetCurve(chains, "seq", "strict"))).toEqual([
      [1, 0, 0, 0, 0],
      [2, 0, 0, 0, 0],
    ]);
    expect(table(budgetCurve(chains, "seq", "lenient")).at(-1)).toEqual([2, 2, (100 * 2) / 3, 0, 0]);
  });

  it("a bug with no effort recorded is left out and counted: in Seq with the rest of its chain, in Oracle alone; its chain leaves chain %", () => {
    const chains: BudgetChain[] = [
      { continuous_id: "c1", bugs: [bug(true, 1), bug(true, null), bug(true, 1)] },
      { continuous_id: "c2", bugs: [bug(true, 2), bug(true, 2)] },
    ];
    const seq = budgetCurve(chains, "seq", "lenient");
    expect([seq.bugs, seq.chains, seq.bugs_without_effort]).toEqual([3, 1, 1]);
    expect(table(seq)).toEqual([
      [1, 1, 100 / 3, 0, 0],
      [2, 3, 100, 1, 100],
    ]);
    const oracle = budgetCurve(chains, "oracle", "lenient");
    expect([oracle.bugs, oracle.chains, oracle.bugs_without_effort]).toEqual([4, 1, 1]);
    expect(table(oracle)).toEqual([
      [1, 2, 50, 0, 0],
      [2, 4, 100, 1, 100],
    ]);
    // no effort at all: no curve, every graded bug counted
    const none = budgetCurve([{ continuous_id: "c", bugs: [bug(true, null), bug(false, null)] }], "oracle", "strict");
    expect(none).toEqual({ bugs: 0, chains: 0, bugs_without_effort: 2, points: [] });
  });

  it("a bug missing from the results is unresolved at every cap, spent nothing, and stays on the curve", () => {
    const c = budgetCurve([{ continuous_id: "c", bugs: [null, bug(true, 3)] }], "seq", "lenient");
    expect([c.bugs, c.chains, c.bugs_without_effort]).toEqual([2, 1, 0]);
    expect(table(c)).toEqual([[3, 1, 50, 0, 0]]);
  });
});

describe("budgetChains", () => {
  it("reads cost_usd, steps (the prediction's turns) and wall_seconds of the run's own bugs; every dataset chain, missing bugs null", () => {
    const run = makeRun("S", "seq", [
      ["c1", 2],
      ["c2", 1],
    ], [
      { continuous_id: "c1", order: 1, resolved: true, cost_usd: 0.5, turns: 12, wall_seconds: 30 },
      { continuous_id: "c1", order: 2, resolved: false, cost_usd: 0.25 },
    ]);
    expect(budgetChains(run, "steps")).toEqual([
      { continuous_id: "c1", bugs: [bug(true, 12), bug(false, null)] },
      { continuous_id: "c2", bugs: [null] },
    ]);
    expect(budgetChains(run, "cost_usd")[0]!.bugs.map((b) => b?.effort)).toEqual([0.5, 0.25]);
    expect(budgetChains(run, "wall_seconds")[0]!.bugs.map((b) => b?.effort)).toEqual([30, null]);
    const curve = budgetCurveOfRun(run, "cost_usd", "strict");
    expect([curve.bugs, curve.chains, table(curve)]).toEqual([3, 2, [[0.25, 0, 0, 0, 0], [0.5, 1, 100 / 3, 0, 0]]]);
  });
});
