import { describe, expect, it } from "vitest";
import { pairedComparison, pairedComparisonSchema } from "./index";
import { grades, makeRun } from "./test-fixtures";

const CHAINS: [string, number][] = [
  ["c1", 3],
  ["c2", 3],
  ["c3", 2],
];
// Seq (own) c1 ✓✗✓, c2 ✓✓✓, c3 ✗✓ → strict 1 + 3 + 0 = 4/8 = 50.0%, lenient 6/8
const seq = makeRun("S", "seq", CHAINS, [
  ...grades("c1", [true, false, true]),
  ...grades("c2", [true, true, true]),
  ...grades("c3", [false, true]),
]);
// Oracle c1 ✓✓✓, c2 ✓✓✗, c3 ✓✓ → 7/8 = 87.5%
const oracle = makeRun("S", "oracle", CHAINS, [
  ...grades("c1", [true, true, true]),
  ...grades("c2", [true, true, false]),
  ...grades("c3", [true, true]),
]);

describe("pairedComparison", () => {
  it("of a run with itself is 0 [0, 0] with every chain tied", () => {
    const p = pairedComparison(seq, seq);
    expect(p.difference).toEqual({ value: 0, ci: [0, 0] });
    expect([p.wins, p.losses, p.ties]).toEqual([0, 0, 3]);
    // no chain differs: the sign test has nothing against equality
    expect(p.sign_test_p).toBe(1);
    expect(p.per_bug_test).toEqual({ a_only: 0, b_only: 0, mcnemar_p: 1 });
    expect(pairedComparisonSchema.parse(p)).toEqual(p);
  });

  it("gives a − b in per-bug points and per-chain wins/losses/ties (strict by default)", () => {
    const p = pairedComparison(seq, oracle, { draws: 500 });
    expect(p.a.per_bug).toBe(50);
    expect(p.b.per_bug).toBe(87.5);
    expect(p.difference.value).toBe(-37.5);
    expect(p.difference.ci[0]).toBeLessThanOrEqual(-37.5);
    expect(p.difference.ci[1]).toBeGreaterThanOrEqual(-37.5);
    // resolved per chain: c1 1 vs 3 (loss), c2 3 vs 2 (win), c3 0 vs 2 (loss)
    expect([p.wins, p.losses, p.ties]).toEqual([1, 2, 0]);
    expect([p.chains, p.bugs]).toEqual([3, 8]);
    // sign test, 1 win against 2 losses: p = 2·P(X ≤ 1 | 3, ½) = 2·4/8, capped at 1
    expect(p.sign_test_p).toBe(1);
    // per bug (strict): seq ✓✗✗ ✓✓✓ ✗✗ against oracle ✓✓✓ ✓✓✗ ✓✓ — only seq resolved c2#3, only oracle c1#2, c1#3, c3#1, c3#2;
    // exact McNemar on those 5 discordant bugs: p = 2·P(X ≤ 1 | 5, ½) = 2·(1 + 5)/32
    expect(p.per_bug_test).toMatchObject({ a_only: 1, b_only: 4 });
    expect(p.per_bug_test!.mcnemar_p).toBeCloseTo(12 / 32, 12);
  });

  it("uses lenient grades on request", () => {
    const p = pairedComparison(seq, oracle, { scoring: "lenient", draws: 200 });
    expect(p.difference.value).toBe(-12.5); // 75.0 − 87.5
    // c1 2 vs 3 (loss), c2 3 vs 2 (win), c3 1 vs 2 (loss)
    expect([p.wins, p.losses, p.ties]).toEqual([1, 2, 0]);
    // lenient seq ✓✗✓ ✓✓✓ ✗✓: only seq c2#3, only oracle c1#2 and c3#1: p = 2·P(X ≤ 1 | 3, ½) = 1
    expect(p.per_bug_test).toEqual({ a_only: 1, b_only: 2, mcnemar_p: 1 });
  });

  it("is deterministic for a seed", () => {
    expect(pairedComparison(seq, oracle, { seed: 5, draws: 300 })).toEqual(pairedComparison(seq, oracle, { seed: 5, draws: 300 }));
  });

  it("compares only the chains both runs cover", () => {
    const partial = { ...oracle, summary: { ...oracle.summary, chains_selected: ["c1", "c2"] } };
    const p = pairedComparison(seq, partial, { draws: 200 });
    // c1 + c2 only: seq strict 4/6, oracle 5/6
    expect([p.chains, p.bugs]).toEqual([2, 6]);
    expect(p.difference.value).toBeCloseTo(-100 / 6, 10);
  });

  it("refuses chains of different lengths and runs with nothing in common", () => {
    const other = makeRun("T", "seq", [["c1", 2]], grades("c1", [true, true]));
    expect(() => pairedComparison(seq, other)).toThrow(/different dataset versions/);
    const disjoint = makeRun("T", "seq", [["zz", 2]], []);
    expect(() => pairedComparison(seq, disjoint)).toThrow(/share no chains/);
  });
});
