import { describe, expect, it } from "vitest";
import { binomialHalfCdf, holmAdjust, signTest } from "@/core/statistics";

/** The exact two-sided sign-test p-value another way: binomial coefficients by Pascal's rule in BigInt, summed exactly. */
function referenceP(wins: number, losses: number): number {
  const m = wins + losses;
  if (m === 0) return 1;
  let row = [1n];
  for (let i = 0; i < m; i++) row = [1n, ...row.slice(1).map((c, j) => c + row[j]!), 1n];
  const tail = row.slice(0, Math.min(wins, losses) + 1).reduce((a, b) => a + b, 0n);
  return Math.min(1, Number(2n * tail * 1_000_000_000_000n / 2n ** BigInt(m)) / 1e12);
}

describe("signTest", () => {
  it("7 chains ahead, 1 behind, 2 level: p = 2·(1 + 8)/256 by hand", () => {
    const t = signTest([1, 1, 1, 1, 1, 1, 1, -1, 0, 0]);
    expect(t).toMatchObject({ wins: 7, losses: 1, ties: 2 });
    expect(t.p).toBeCloseTo(18 / 256, 14);
  });

  it("is McNemar's exact test on binary outcomes: only discordant pairs count", () => {
    const a = [1, 1, 0, 0, 1, 1, 1, 1, 1, 0];
    const b = [1, 0, 0, 1, 0, 0, 0, 0, 0, 0];
    // discordant: a-only 6, b-only 1 → p = 2·(1 + 7)/128
    expect(signTest(a.map((x, i) => x - b[i]!)).p).toBeCloseTo(16 / 128, 15);
  });

  it("no discordant pair, or an even split, gives p = 1; it is symmetric", () => {
    expect(signTest([0, 0, 0]).p).toBe(1);
    expect(signTest([]).p).toBe(1);
    expect(signTest([1, -1, 0.5, -2]).p).toBe(1);
    expect(signTest([1, 1, 1, -1]).p).toBe(signTest([-1, -1, -1, 1]).p);
  });

  it("agrees with an exact binomial sum in integers for every split up to 60 pairs", () => {
    for (let m = 1; m <= 60; m++) {
      for (let w = 0; w <= m; w++) {
        const d = [...Array(w).fill(1), ...Array(m - w).fill(-1)];
        expect(signTest(d).p).toBeCloseTo(referenceP(w, m - w), 10);
      }
    }
  });

  it("names a non-number difference", () => {
    expect(() => signTest([1, Number.NaN])).toThrow(/paired difference 1/);
  });

  it("binomialHalfCdf: edges and a hand value", () => {
    expect(binomialHalfCdf(-1, 4)).toBe(0);
    expect(binomialHalfCdf(4, 4)).toBe(1);
    expect(binomialHalfCdf(1, 4)).toBeCloseTo(5 / 16, 15);
  });
});

describe("holmAdjust", () => {
  it("the textbook example: sorted p·(m − i), running maximum, in the input's order", () => {
    // sorted 0.005·4 = 0.02, 0.01·3 = 0.03, 0.03·2 = 0.06, 0.04·1 = 0.04 → max 0.06
    const adjusted = holmAdjust([0.01, 0.04, 0.03, 0.005]);
    [0.03, 0.06, 0.06, 0.02].forEach((v, i) => expect(adjusted[i]).toBeCloseTo(v, 12));
  });

  it("caps at 1 and keeps an empty family empty", () => {
    expect(holmAdjust([0.6, 0.7])).toEqual([1, 1]);
    expect(holmAdjust([])).toEqual([]);
  });
});
