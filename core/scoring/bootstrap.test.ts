import { describe, expect, it } from "vitest";
import { bootstrapIntervals, percentile, resolveBootstrap, type Indices } from "./index";

const mean = (values: number[]) => (idx: Indices) => {
  let sum = 0;
  for (let k = 0; k < idx.length; k++) sum += values[idx[k] as number] as number;
  return sum / idx.length;
};

describe("percentile", () => {
  it("interpolates linearly between order statistics (type 7)", () => {
    expect(percentile([10, 20, 30, 40, 50], 0.5)).toBe(30);
    expect(percentile([10, 20, 30, 40, 50], 0.025)).toBe(11); // h = 0.1
    expect(percentile([10, 20, 30, 40, 50], 0.975)).toBe(49); // h = 3.9
    expect(percentile([7], 0.975)).toBe(7);
  });
});

describe("bootstrapIntervals", () => {
  const values = [0, 0, 1, 1, 1];

  it("gives identical intervals for the same seed, and draws the same resamples across calls", () => {
    const opts = { seed: 42, draws: 500 };
    const [a] = bootstrapIntervals(values.length, [mean(values)], opts);
    const [b] = bootstrapIntervals(values.length, [mean(values)], opts);
    expect(a).toEqual(b);
    // a second statistic computed alongside gets the same resamples as when computed alone
    const [, c] = bootstrapIntervals(values.length, [() => 0, mean(values)], opts);
    expect(c).toEqual(a);
  });

  it("gives the same intervals whether the resamples were memoized or drawn afresh", () => {
    const opts = { seed: 11, draws: 300 };
    const [first] = bootstrapIntervals(values.length, [mean(values)], opts);
    for (let seed = 100; seed < 120; seed++) bootstrapIntervals(3, [() => 0], { seed, draws: 10 }); // evict
    const [again] = bootstrapIntervals(values.length, [mean(values)], opts);
    expect(again).toEqual(first);
  });

  it("depends on the seed", () => {
    const many = Array.from({ length: 40 }, (_, i) => (i * 7) % 3);
    const [a] = bootstrapIntervals(many.length, [mean(many)], { seed: 1, draws: 300 });
    const [b] = bootstrapIntervals(many.length, [mean(many)], { seed: 2, draws: 300 });
    expect(a).not.toEqual(b);
  });

  it("brackets the sample statistic", () => {
    const [ci] = bootstrapIntervals(values.length, [mean(values)], { seed: 0, draws: 2000 });
    expect(ci?.[0]).toBeLessThanOrEqual(0.6);
    expect(ci?.[1]).toBeGreaterThanOrEqual(0.6);
  });

  it("refuses empty populations and bad options", () => {
    expect(() => bootstrapIntervals(0, [mean([])], { seed: 0, draws: 10 })).toThrow(RangeError);
    expect(() => resolveBootstrap({ draws: 1.5 })).toThrow(/draws/);
    expect(() => resolveBootstrap({ seed: Number.NaN })).toThrow(/seed/);
    expect(resolveBootstrap()).toEqual({ seed: 0, draws: 2000 });
  });
});
