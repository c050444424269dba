import { describe, expect, it } from "vitest";
import { uniformInt } from "pure-rand/distribution/uniformInt";
import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus";
import { bootstrapIntervals, resolveBootstrap, type Indices } from "./bootstrap";
import { applyScoring, NO_EFFORT, type ChainOutcome } from "./outcomes";
import { drawSums, headlineRatesOf, positionRatesOf } from "./rates";

/** Random runs over the same chains (lengths 1–6), some resolved, strict or not. */
function randomSets(seed: number, chains: number, runs: number): ChainOutcome[][] {
  const rng = xoroshiro128plus(seed);
  const lengths = Array.from({ length: chains }, (_, i) => (i % 3 === 0 ? 3 : uniformInt(rng, 1, 6)));
  return Array.from({ length: runs }, (_, r) =>
    lengths.map((length, i) => ({
      continuous_id: `c${i}`,
      length,
      resolved: applyScoring(
        Array.from({ length }, () => uniformInt(rng, 0, 99) < 20 + r * 7),
        r % 2 === 0,
      ),
      graded: length,
      cost_usd: null,
      peak_context_tokens: null,
      effort: NO_EFFORT,
    })),
  );
}

// The statistics written per resample, as the bootstrap's definition reads (SPEC §4): the oracle for the batch.
function expectedHeadline(set: ChainOutcome[], boot = resolveBootstrap()) {
  const resolved = set.map((o) => o.resolved.filter(Boolean).length);
  const perBug = (idx: Indices) => {
    let r = 0;
    let b = 0;
    for (let k = 0; k < idx.length; k++) {
      r += resolved[idx[k] as number] as number;
      b += set[idx[k] as number]!.length;
    }
    return (100 * r) / b;
  };
  const chain = (idx: Indices) => {
    let s = 0;
    for (let k = 0; k < idx.length; k++) s += set[idx[k] as number]!.resolved.every(Boolean) ? 1 : 0;
    return (100 * s) / idx.length;
  };
  const all = Array.from({ length: set.length }, (_, i) => i);
  const [bugCi, chainCi] = bootstrapIntervals(set.length, [perBug, chain], boot);
  return { per_bug: { value: perBug(all), ci: bugCi }, chain: { value: chain(all), ci: chainCi } };
}

function expectedPositions(set: ChainOutcome[], positions: "length3" | "all", boot = resolveBootstrap()) {
  const pool = positions === "length3" ? set.filter((o) => o.length === 3) : set;
  const max = Math.max(0, ...pool.map((o) => o.length));
  return Array.from({ length: max }, (_, i) => {
    const col = pool.filter((o) => o.length > i).map((o) => (o.resolved[i] ? 1 : 0));
    const rate = (idx: Indices) => {
      let s = 0;
      for (let k = 0; k < idx.length; k++) s += col[idx[k] as number] as number;
      return (100 * s) / idx.length;
    };
    const [ci] = bootstrapIntervals(col.length, [rate], boot);
    return { position: i + 1, value: rate(col.map((_, k) => k)), ci, n: col.length };
  });
}

describe("rates of many runs at once", () => {
  it("sums every draw's counts against 0/1 vectors, whatever the block width", () => {
    const boot = resolveBootstrap({ seed: 3, draws: 50 });
    // the resamples themselves, read through a statistic that records them
    const draws: number[][] = [];
    bootstrapIntervals(37, [(idx) => (draws.push(Array.from(idx)), 0)], boot);
    for (const v of [1, 5, 70]) {
      const vectors = Array.from({ length: v }, (_, j) => Uint8Array.from({ length: 37 }, (_, i) => ((i * 7 + j) % 3 === 0 ? 1 : 0)));
      const sums = drawSums(37, vectors, boot);
      draws.forEach((drawn, d) => {
        vectors.forEach((x, j) => expect(sums[j]![d]).toBe(drawn.reduce((a, i) => a + (x[i] as number), 0)));
      });
    }
  });

  it("equal the bootstrap of each run on its own, exactly, for one run or many", () => {
    for (const [chains, runs] of [
      [1, 1],
      [7, 1],
      [40, 5],
      [100, 70],
    ] as const) {
      const sets = randomSets(chains * 31 + runs, chains, runs);
      const got = headlineRatesOf(
        sets.map((s) => [s]),
        resolveBootstrap(),
      );
      sets.forEach((set, i) => {
        const expected = expectedHeadline(set);
        // one run: its pass^k is its chain %
        expect(got[i]).toEqual({ ...expected, pass_k: expected.chain });
      });
      for (const positions of ["length3", "all"] as const) {
        const rates = positionRatesOf(
          sets.map((s) => [s]),
          positions,
          resolveBootstrap(),
        );
        sets.forEach((set, i) => expect(rates[i]).toEqual(expectedPositions(set, positions)));
      }
    }
  });

  it("refuses runs over different chains", () => {
    const [a, b] = [randomSets(1, 4, 1)[0]!, randomSets(2, 5, 1)[0]!];
    expect(() => headlineRatesOf([[a], [b]], resolveBootstrap())).toThrow(/same chains/);
    expect(() => headlineRatesOf([[a, b]], resolveBootstrap())).toThrow(/same chains/);
  });
});

// Repeated runs (SPEC §7), written per resample straight from the definition: the oracle for the kernel.
function expectedRepeated(runs: ChainOutcome[][], boot = resolveBootstrap()) {
  const k = runs.length;
  const n = runs[0]!.length;
  const solvedBy = (r: number, i: number) => runs[r]![i]!.resolved.every(Boolean);
  // mean over the runs of each run's rate on the same resampled chains: each chain drawn with all k of its runs
  const perBug = (idx: Indices) => {
    let sum = 0;
    for (const run of runs) {
      let r = 0;
      let b = 0;
      for (let j = 0; j < idx.length; j++) {
        r += run[idx[j] as number]!.resolved.filter(Boolean).length;
        b += run[idx[j] as number]!.length;
      }
      sum += (100 * r) / b;
    }
    return sum / k;
  };
  const chain = (idx: Indices) => {
    let sum = 0;
    for (let r = 0; r < k; r++) {
      let s = 0;
      for (let j = 0; j < idx.length; j++) s += solvedBy(r, idx[j] as number) ? 1 : 0;
      sum += (100 * s) / idx.length;
    }
    return sum / k;
  };
  const passK = (idx: Indices) => {
    let s = 0;
    for (let j = 0; j < idx.length; j++) s += runs.every((_, r) => solvedBy(r, idx[j] as number)) ? 1 : 0;
    return (100 * s) / idx.length;
  };
  const all = Array.from({ length: n }, (_, i) => i);
  const [bugCi, chainCi, passCi] = bootstrapIntervals(n, [perBug, chain, passK], boot) as [[number, number], [number, number], [number, number]];
  return { per_bug: { value: perBug(all), ci: bugCi }, chain: { value: chain(all), ci: chainCi }, pass_k: { value: passK(all), ci: passCi } };
}

describe("rates of repeated runs", () => {
  it("are the means over the runs with intervals that resample chains with all their runs, and pass^k", () => {
    for (const [chains, k] of [
      [9, 2],
      [40, 3],
      [100, 5],
    ] as const) {
      const runs = randomSets(chains * 7 + k, chains, k);
      const [got, alone] = headlineRatesOf([runs, [runs[0]!]], resolveBootstrap());
      const expected = expectedRepeated(runs);
      // the same numbers up to the last bits of a mean of means
      expect(got!.pass_k).toEqual(expected.pass_k);
      for (const rate of ["per_bug", "chain"] as const) {
        expect(got![rate].value).toBeCloseTo(expected[rate].value, 9);
        expect(got![rate].ci[0]).toBeCloseTo(expected[rate].ci[0], 9);
        expect(got![rate].ci[1]).toBeCloseTo(expected[rate].ci[1], 9);
      }
      // a group of one in the same call is scored as itself
      expect(alone).toEqual({ ...expectedHeadline(runs[0]!), pass_k: expectedHeadline(runs[0]!).chain });
      // pass^k never exceeds the worst run's chain %
      expect(got!.pass_k.value).toBeLessThanOrEqual(Math.min(...runs.map((r) => (100 * r.filter((o) => o.resolved.every(Boolean)).length) / chains)));
    }
  });

  it("per position: the mean over runs, each chain resampled with all its runs", () => {
    const runs = randomSets(11, 60, 3);
    for (const positions of ["length3", "all"] as const) {
      const [got] = positionRatesOf([runs], positions, resolveBootstrap());
      const each = runs.map((r) => expectedPositions(r, positions));
      const pool = positions === "length3" ? runs.map((r) => r.filter((o) => o.length === 3)) : runs;
      got!.forEach((p, i) => {
        expect(p.value).toBeCloseTo(each.reduce((a, e) => a + e[i]!.value, 0) / runs.length, 9);
        const at = pool.map((r) => r.filter((o) => o.length > i));
        const rate = (idx: Indices) => {
          let s = 0;
          for (const col of at) for (let j = 0; j < idx.length; j++) s += col[idx[j] as number]!.resolved[i] ? 1 : 0;
          return (100 * s) / (runs.length * idx.length);
        };
        const [[lo, hi]] = bootstrapIntervals(at[0]!.length, [rate], resolveBootstrap()) as [[number, number]];
        expect(p.ci[0]).toBeCloseTo(lo, 9);
        expect(p.ci[1]).toBeCloseTo(hi, 9);
        expect(p.n).toBe(at[0]!.length);
      });
    }
  });
});
