/**
 * The Mini split (SPEC §8): Kendall τ-b against a published reference value,
 * and the greedy procedure against a hand-worked example.
 */
import { describe, expect, it } from "vitest";
import { kendallTauB, miniProblem, miniSplit, solvedOnce } from "@/core/dataset/mini";

describe("kendallTauB", () => {
  it("agrees with SciPy's documented example (scipy.stats.kendalltau, τ-b with ties)", () => {
    expect(kendallTauB([12, 2, 1, 12, 2], [1, 4, 7, 1, 0])).toBeCloseTo(-0.47140452079103173, 12);
  });
  it("is 1 for the same order, −1 for the reverse, null when one side never varies", () => {
    expect(kendallTauB([1, 2, 3], [10, 20, 30])).toBe(1);
    expect(kendallTauB([1, 2, 3], [3, 2, 1])).toBe(-1);
    expect(kendallTauB([1, 1, 1], [1, 2, 3])).toBeNull();
  });
});

const row = (id: string, ...solved: string[]) => solvedOnce(id, solved);
// full chain %: 100, 67, 33, 0
const rows = [row("r1", "A", "B", "C"), row("r2", "A", "B"), row("r3", "A"), row("r4")];

describe("miniSplit", () => {
  it("adds, step by step, the chain that keeps the full order best; ties go to the version's order", () => {
    // step 1: B splits the rows 2|2 (τ-b = 4/√24 ≈ 0.8165), A and C only 3|1 (3/√18 ≈ 0.7071)
    // step 2: B+A and B+C both reach 5/√30 ≈ 0.9129: A comes first in the version
    const mini = miniSplit(["A", "B", "C"], rows, 2);
    expect(mini.steps.map((s) => s.chain)).toEqual(["B", "A"]);
    expect(mini.steps[0]!.tau).toBeCloseTo(4 / Math.sqrt(24), 12);
    expect(mini.chains).toEqual(["A", "B"]);
    expect(mini.tau).toBeCloseTo(5 / Math.sqrt(30), 12);
    expect(mini).toMatchObject({ size: 2, rows: 4 });
    // the whole version keeps the order exactly
    expect(miniSplit(["A", "B", "C"], rows, 3).tau).toBeCloseTo(1, 12);
  });

  it("is deterministic: the same rows in another order give the same chains", () => {
    expect(miniSplit(["A", "B", "C"], rows.toReversed(), 2).chains).toEqual(["A", "B"]);
  });

  it("weighs a row of several runs by the share of its runs that solved each chain", () => {
    // r2 of two runs: one solved A and B, the other only A: its chain % (50) sits between r3's and r1's
    const split = { id: "r2", solved: new Map([["A", 1], ["B", 0.5]]) };
    const mini = miniSplit(["A", "B", "C"], [rows[0]!, split, rows[2]!, rows[3]!], 1);
    // B alone orders r1 (1) > r2 (0.5) > r3 = r4 (0): 5 of 6 pairs agree, one tied
    expect(mini.chains).toEqual(["B"]);
    expect(mini.tau).toBeCloseTo(5 / Math.sqrt(5 * 6), 12);
  });

  it("names what makes a size impossible", () => {
    expect(miniProblem(["A", "B"], rows, 3)).toBe("the Mini size 3 is larger than the version (2 chains)");
    expect(miniProblem(["A", "B"], rows, 0)).toMatch(/at least 1/);
    expect(miniProblem(["A", "B"], rows, 1.5)).toMatch(/whole number/);
    expect(miniProblem(["A", "B"], rows.slice(0, 1), 1)).toMatch(/at least 2 published rows \(there is 1\)/);
    expect(() => miniSplit(["A"], rows, 2)).toThrow(RangeError);
  });
});
