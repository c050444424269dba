import { describe, expect, it } from "vitest";
import { discrimination, type DiscriminationRow } from "@/core/scoring";
import { fitRasch, pointBiserial } from "@/core/statistics";

const chains = [
  { continuous_id: "a", length: 2 },
  { continuous_id: "b", length: 1 },
  { continuous_id: "c", length: 1 },
];
/** per chain, its bugs; a chain is solved when all of its bugs are */
const row = (id: string, bugs: number[][]): DiscriminationRow => ({ id, bugs, solved: bugs.map((b) => (b.every((v) => v === 1) ? 1 : 0)) });
// best first; chain c solved by all, bug a/2 by none
const rows = [row("r1", [[1, 0], [1], [1]]), row("r2", [[1, 0], [0], [1]]), row("r3", [[0, 0], [1], [1]]), row("r4", [[0, 0], [0], [1]])];

describe("discrimination", () => {
  const d = discrimination(chains, rows, { topN: 2 });

  it("solve rates and flags by hand", () => {
    expect(d.rows).toBe(4);
    expect(d.bugs.map((b) => [b.continuous_id, b.order, b.solve_rate])).toEqual([
      ["a", 1, 0.5],
      ["a", 2, 0],
      ["b", 1, 0.5],
      ["c", 1, 1],
    ]);
    expect(d.bugs.map((b) => [b.solved_by_all, b.solved_by_none])).toEqual([
      [false, false],
      [false, true],
      [false, false],
      [true, false],
    ]);
    // the top two rows (r1, r2): both solved a/1, one of them b/1
    expect(d.bugs.map((b) => b.separates_top)).toEqual([false, false, true, false]);
    // chains: a solved by none (bug 2), b by r1 and r3, c by all
    expect(d.chains.map((c) => [c.continuous_id, c.solve_rate, c.solved_by_all, c.solved_by_none, c.separates_top])).toEqual([
      ["a", 0, false, true, false],
      ["b", 0.5, false, false, true],
      ["c", 1, true, false, false],
    ]);
  });

  it("point-biserial against the rows' chain %: r1 67%, r2 33%, r3 67%, r4 33%", () => {
    const pct = [200 / 3, 100 / 3, 200 / 3, 100 / 3];
    expect(d.bugs[0]!.point_biserial).toBeCloseTo(pointBiserial([1, 1, 0, 0], pct)!, 14);
    expect(d.bugs[0]!.point_biserial).toBeCloseTo(0, 14);
    expect(d.bugs[2]!.point_biserial).toBeCloseTo(1, 14);
    expect(d.bugs[1]!.point_biserial).toBeNull();
    expect(d.chains[2]!.point_biserial).toBeNull();
  });

  it("difficulties are the Rasch fits' of the bugs matrix and of the chains matrix, both converged", () => {
    const bugs = fitRasch([1, 0, 1, 1, 1, 0, 0, 1, 0, 0, 1, 1, 0, 0, 0, 1], 4, 4);
    expect(d.bugs.map((b) => b.difficulty)).toEqual(Array.from(bugs.difficulty));
    const ch = fitRasch([0, 1, 1, 0, 0, 1, 0, 1, 1, 0, 0, 1], 4, 3);
    expect(d.chains.map((c) => c.difficulty)).toEqual(Array.from(ch.difficulty));
    expect(d.fit.bugs).toMatchObject({ rows: 4, items: 4, converged: true, iterations: bugs.iterations });
    expect(d.fit.chains).toMatchObject({ rows: 4, items: 3, converged: true });
    // harder as fewer rows solve it
    expect(d.bugs[3]!.difficulty).toBeLessThan(d.bugs[0]!.difficulty);
    expect(d.bugs[0]!.difficulty).toBeLessThan(d.bugs[1]!.difficulty);
  });

  it("the top ten by default; fewer rows: all of them", () => {
    const all = discrimination(chains, rows);
    expect(all.top_n).toBe(10);
    expect(all.bugs.map((b) => b.separates_top)).toEqual([true, false, true, false]);
  });

  it("no rows: rates 0, no flag of all or none; a row of the wrong shape is refused", () => {
    const none = discrimination(chains, []);
    expect(none.chains.map((c) => [c.solve_rate, c.solved_by_all, c.solved_by_none, c.point_biserial])).toEqual([
      [0, false, false, null],
      [0, false, false, null],
      [0, false, false, null],
    ]);
    expect(() => discrimination(chains, [{ id: "x", bugs: [[1, 1], [1]], solved: [1, 1] }])).toThrow(/row x has 2 chains, the version 3/);
    expect(() => discrimination(chains, [{ id: "x", bugs: [[1], [1], [1]], solved: [1, 1, 1] }])).toThrow(/chain a has 1 bugs, not 2/);
  });
});
