import { describe, expect, it } from "vitest";
import { fitRasch, pointBiserial, raschGradient, raschLogPosterior } from "@/core/statistics";

/** Pearson's r from its textbook formula, two passes over plain arrays. */
function pearson(x: number[], y: number[]): number {
  const mean = (a: number[]) => a.reduce((s, v) => s + v, 0) / a.length;
  const mx = mean(x);
  const my = mean(y);
  const cov = x.reduce((s, v, i) => s + (v - mx) * (y[i]! - my), 0);
  const sd = (a: number[], m: number) => Math.sqrt(a.reduce((s, v) => s + (v - m) ** 2, 0));
  return cov / (sd(x, mx) * sd(y, my));
}

/** A derivative-free maximiser: compass search, each coordinate ± step, halving the step when none climbs. */
function compassMax(f: (x: number[]) => number, dims: number): number[] {
  let x = new Array<number>(dims).fill(0);
  let fx = f(x);
  for (let step = 1; step > 1e-9; ) {
    let moved = false;
    for (let d = 0; d < dims; d++) {
      for (const s of [step, -step]) {
        const cand = x.slice();
        cand[d] = cand[d]! + s;
        const fc = f(cand);
        if (fc > fx) {
          x = cand;
          fx = fc;
          moved = true;
        }
      }
    }
    if (!moved) step /= 2;
  }
  return x;
}

describe("pointBiserial", () => {
  it("by hand: solved by the rows at 80 and 60, not by those at 40 and 20 → (M1 − M0)/s · √(pq) = 40/√500 · ½", () => {
    // M1 = 70, M0 = 30, population sd of the scores √500, p = q = ½
    expect(pointBiserial([1, 1, 0, 0], [80, 60, 40, 20])).toBeCloseTo((40 / Math.sqrt(500)) * 0.5, 14);
  });

  it("equals Pearson's r computed directly, for binary and fractional items", () => {
    const scores = [92, 71, 64, 64, 50, 33, 20, 8];
    for (const item of [
      [1, 1, 0, 1, 0, 0, 1, 0],
      [1, 0.5, 0.5, 1, 0, 0.25, 0, 0],
      [0, 0, 0, 0, 0, 0, 0, 1],
    ]) expect(pointBiserial(item, scores)).toBeCloseTo(pearson(item, scores), 13);
  });

  it("is null when the item or the rows have no variance, or there is one row", () => {
    expect(pointBiserial([1, 1, 1], [10, 20, 30])).toBeNull();
    expect(pointBiserial([0, 0, 0], [10, 20, 30])).toBeNull();
    expect(pointBiserial([1, 0, 1], [50, 50, 50])).toBeNull();
    expect(pointBiserial([1], [50])).toBeNull();
    expect(() => pointBiserial([1, 0], [1])).toThrow(/2 rows, the scores 1/);
  });
});

describe("fitRasch", () => {
  const y = [
    [1, 1, 1, 0, 1],
    [1, 1, 0, 0, 0],
    [1, 0, 1, 1, 0],
    [0, 1, 0, 0, 0],
    [1, 0, 0, 0, 0],
    [1, 1, 1, 1, 0],
  ];
  const flat = y.flat();

  it("converges, and the log posterior's gradient is zero at the answer", () => {
    const fit = fitRasch(flat, 6, 5);
    expect(fit.converged).toBe(true);
    expect(fit.iterations).toBeGreaterThan(1);
    const g = raschGradient(flat, 6, 5, fit.ability, fit.difficulty);
    for (const v of [...g.ability, ...g.difficulty]) expect(Math.abs(v)).toBeLessThan(1e-6);
    expect(fit.log_posterior).toBeCloseTo(raschLogPosterior(flat, 6, 5, fit.ability, fit.difficulty), 12);
    // an item solved by more rows is easier: 6 of 6 … 1 of 6
    const d = Array.from(fit.difficulty);
    expect(d[0]).toBeLessThan(d[1]!);
    expect(d[1]).toBeLessThan(d[3]!);
    expect(d[3]).toBeLessThan(d[4]!);
  });

  it("a tiny case agrees with brute-force maximisation of the log posterior", () => {
    const tiny = [1, 0, 1, 1, 0, 0.5]; // 3 rows × 2 items, one row of two runs
    const fit = fitRasch(tiny, 3, 2, { tolerance: 1e-10 });
    const best = compassMax((x) => raschLogPosterior(tiny, 3, 2, x.slice(0, 3), x.slice(3)), 5);
    [...fit.ability, ...fit.difficulty].forEach((v, i) => expect(v).toBeCloseTo(best[i]!, 6));
  });

  it("with more items than rows (the other block eliminated) it agrees with brute force too", () => {
    const wide = [1, 1, 0, 0.5, 0, 1, 1, 0]; // 2 rows × 4 items
    const fit = fitRasch(wide, 2, 4, { tolerance: 1e-10 });
    const best = compassMax((x) => raschLogPosterior(wide, 2, 4, x.slice(0, 2), x.slice(2)), 6);
    [...fit.ability, ...fit.difficulty].forEach((v, i) => expect(v).toBeCloseTo(best[i]!, 6));
  });

  it("a matrix symmetric under reversing rows and items and flipping outcomes gives antisymmetric estimates; identical items equal ones", () => {
    // y[r][i] = 1 − y[3 − r][3 − i]; items 1 and 2 identical, so are items 3 and 4
    const sym = [
      [1, 1, 1, 1],
      [1, 0, 0, 1],
      [0, 1, 1, 0],
      [0, 0, 0, 0],
    ];
    for (let r = 0; r < 4; r++) for (let i = 0; i < 4; i++) expect(sym[r]![i]).toBe(1 - sym[3 - r]![3 - i]!);
    const fit = fitRasch(sym.flat(), 4, 4);
    for (let k = 0; k < 4; k++) {
      expect(fit.ability[k]).toBeCloseTo(-fit.ability[3 - k]!, 9);
      expect(fit.difficulty[k]).toBeCloseTo(-fit.difficulty[3 - k]!, 9);
    }
    expect(fit.difficulty[1]).toBeCloseTo(fit.difficulty[2]!, 9);
  });

  it("items solved by every row or none get finite difficulties, pinned by the prior", () => {
    const fit = fitRasch([1, 0, 1, 0, 1, 0], 3, 2);
    expect(fit.converged).toBe(true);
    expect(Number.isFinite(fit.difficulty[0])).toBe(true);
    expect(Number.isFinite(fit.difficulty[1])).toBe(true);
    expect(fit.difficulty[0]).toBeLessThan(0);
    expect(fit.difficulty[1]).toBeCloseTo(-fit.difficulty[0]!, 9);
  });

  it("says when it stopped short, and refuses outcomes outside [0, 1] naming the cell", () => {
    const fit = fitRasch(flat, 6, 5, { maxIterations: 1 });
    expect(fit).toMatchObject({ iterations: 1, converged: false });
    expect(fit.max_gradient).toBeGreaterThan(1e-6);
    expect(() => fitRasch([1, 2], 1, 2)).toThrow(/row 1, item 2 is 2/);
    expect(() => fitRasch([1], 1, 2)).toThrow(/1 cells, not 1 rows × 2 items/);
  });
});
