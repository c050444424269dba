/**
 * Rates with bootstrap intervals (SPEC §4 "Uncertainty") for many runs over the
 * same chains at once: the leaderboard under a bug-date window (SPEC §7)
 * rescores every row of a version in one request.
 *
 * Every rate here is a sum over resampled chains of a per-chain integer, so a
 * resample is summarised by how often it drew each chain (its counts) and a
 * run's statistic is a dot product with those counts. The runs share the
 * resamples (bootstrap.ts: they depend only on n, seed and draws), so per draw
 * the counts are folded once into tables of block sums (the sum of the counts
 * of every subset of a block of w chains) and each 0/1 vector of each run costs
 * one lookup per block. Integers all the way, so the values, and the percentile
 * intervals over them, are exactly those of `bootstrapIntervals` with the
 * statistic written per resample (tested against it).
 */
import { resampleMatrix, CI_LEVEL, type BootstrapOptions, type Interval } from "./bootstrap";
import type { ChainOutcome, PositionSet } from "./outcomes";
import type { Estimate, PositionRate } from "./schemas";

/**
 * For each 0/1 vector over the n chains, its sum over every resample's draws
 * (out[j][d] = Σ_i count_d(i) · vectors[j][i]). Block width by the number of
 * vectors: a table of 2^w sums per block is built per draw, worth it only when
 * many vectors read it.
 */
export function drawSums(n: number, vectors: readonly ArrayLike<number>[], boot: BootstrapOptions): Int32Array[] {
  const v = vectors.length;
  const draws = boot.draws;
  // one block for all: vector j's sums are out[j·draws, (j+1)·draws)
  const out = new Int32Array(v * draws);
  const sums = vectors.map((_, j) => out.subarray(j * draws, (j + 1) * draws));
  if (v === 0) return sums;
  const matrix = resampleMatrix(n, boot);
  const w = v >= 64 ? 8 : v >= 4 ? 4 : 1;
  const size = 1 << w;
  const blocks = Math.ceil(n / w);
  // masks[b·v + j]: the bits of vector j in block b
  const masks = new Uint8Array(blocks * v);
  vectors.forEach((x, j) => {
    for (let i = 0; i < n; i++) if (x[i]) masks[((i / w) | 0) * v + j]! |= 1 << i % w;
  });
  const counts = new Int32Array(blocks * w);
  const table = new Int32Array(blocks * size);
  // the chain index of each single-bit mask's bit
  const bitIndex = new Int32Array(size);
  for (let b = 0; b < w; b++) bitIndex[1 << b] = b;
  // TILE draws at a time, vector by vector in a small buffer, then copied out a vector's run of draws at a time
  // (writing each draw straight to every vector's row would touch v cache lines per draw)
  const TILE = 16;
  const tile = new Int32Array(TILE * v);
  for (let d0 = 0; d0 < draws; d0 += TILE) {
    const tileDraws = Math.min(TILE, draws - d0);
    tile.fill(0);
    for (let t = 0; t < tileDraws; t++) {
      counts.fill(0);
      const row = (d0 + t) * n;
      for (let k = 0; k < n; k++) counts[matrix[row + k]!]!++;
      for (let b = 0; b < blocks; b++) {
        const base = b * size;
        const first = b * w;
        table[base] = 0;
        for (let m = 1; m < size; m++) {
          const low = m & -m;
          table[base + m] = table[base + (m ^ low)]! + counts[first + bitIndex[low]!]!;
        }
      }
      const acc = t * v;
      for (let b = 0; b < blocks; b++) {
        const base = b * size;
        const at = b * v;
        for (let j = 0; j < v; j++) tile[acc + j]! += table[base + masks[at + j]!]!;
      }
    }
    for (let j = 0; j < v; j++) {
      const to = j * draws + d0;
      for (let t = 0; t < tileDraws; t++) out[to + t] = tile[t * v + j]!;
    }
  }
  return sums;
}

const TAIL = (1 - CI_LEVEL) / 2;

/**
 * The k-th smallest of `values` (0-based), moving them about (Hoare's
 * selection, expected linear): the percentile needs four order statistics of
 * the draws, not a sort of them.
 */
function select(values: Float64Array, k: number, lo = 0, hi = values.length - 1): number {
  while (lo < hi) {
    const pivot = values[(lo + hi) >> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (values[i]! < pivot) i++;
      while (values[j]! > pivot) j--;
      if (i <= j) {
        const t = values[i]!;
        values[i++] = values[j]!;
        values[j--] = t;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return values[k]!;
  }
  return values[k]!;
}

/** The type-7 percentile at q from an order-statistic lookup, as bootstrap.ts's `percentile` computes it. */
function percentileBy(count: number, q: number, nth: (k: number) => number): number {
  const h = (count - 1) * q;
  const lo = Math.floor(h);
  const a = nth(lo);
  const b = nth(Math.min(lo + 1, count - 1));
  return a === b ? a : a + (h - lo) * (b - a);
}

/** The 95% percentile interval of the draws' values (reordered in place). */
function intervalOf(values: Float64Array): Interval {
  const nth = (k: number) => select(values, k);
  return [percentileBy(values.length, TAIL, nth), percentileBy(values.length, 1 - TAIL, nth)];
}

/** The interval of (100 · k) / n over the draws' numerators k ∈ [0, n] (integers): order statistics read off their counts. */
function fixedDenominatorInterval(numerators: ArrayLike<number>, n: number): Interval {
  const hist = new Int32Array(n + 1);
  for (let d = 0; d < numerators.length; d++) hist[numerators[d]!]!++;
  const nth = (k: number) => {
    let seen = 0;
    for (let x = 0; x <= n; x++) {
      seen += hist[x]!;
      if (seen > k) return (100 * x) / n;
    }
    throw new RangeError(`no order statistic ${k} among ${numerators.length} draws`);
  };
  return [percentileBy(numerators.length, TAIL, nth), percentileBy(numerators.length, 1 - TAIL, nth)];
}

/** The 0/1 bit planes of non-negative integers: Σ_k 2^k · planes[k][i] = values[i]. */
function bitPlanes(values: readonly number[]): Uint8Array[] {
  const max = Math.max(0, ...values);
  const planes: Uint8Array[] = [];
  for (let k = 0; 1 << k <= max; k++) planes.push(Uint8Array.from(values, (x) => (x >> k) & 1));
  return planes;
}

/** Σ_k 2^k · sums[from + k], per draw, into `out` (reused across runs: fewer allocations). */
function weighted(sums: readonly Int32Array[], from: number, count: number, out: Float64Array): Float64Array {
  const draws = out.length;
  out.fill(0);
  for (let k = 0; k < count; k++) {
    const s = sums[from + k]!;
    const weight = 2 ** k;
    for (let d = 0; d < draws; d++) out[d]! += weight * s[d]!;
  }
  return out;
}

const sumOf = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

/**
 * One row's runs over the same chains (SPEC §7 "Repeated runs"), run 1..k; a
 * single run is a group of one. Its rates are means over the runs, and a
 * resample draws a chain with all k of its runs.
 */
export type RunGroup = readonly (readonly ChainOutcome[])[];

/** Every run of every group must list the same chains (ids and lengths, in order): they share the resamples. */
function assertSameChains(groups: readonly RunGroup[]): void {
  const first = groups[0]?.[0];
  for (const group of groups) {
    if (group.length === 0) throw new RangeError("a run group has no runs");
    for (const set of group) {
      if (set.length !== first!.length || set.some((o, i) => o.continuous_id !== first![i]!.continuous_id || o.length !== first![i]!.length)) {
        throw new RangeError("runs scored together must cover the same chains in the same order");
      }
    }
  }
}

/** Per chain, summed over a group's runs: resolved bugs, runs that solved it; and whether every run did. */
export function groupTotals(group: RunGroup): { k: number; resolved: number[]; solved: number[]; passed: Uint8Array } {
  const n = group[0]!.length;
  const resolved = new Array<number>(n).fill(0);
  const solved = new Array<number>(n).fill(0);
  for (const run of group) {
    run.forEach((o, i) => {
      resolved[i]! += o.resolved.filter(Boolean).length;
      if (o.resolved.every(Boolean)) solved[i]!++;
    });
  }
  return { k: group.length, resolved, solved, passed: Uint8Array.from(solved, (s) => (s === group.length ? 1 : 0)) };
}

/** A group's headline rates: per-bug % and chain % (means over its runs), and chain pass^k. */
export type HeadlineRates = { per_bug: Estimate; chain: Estimate; pass_k: Estimate };

/**
 * Per-bug % and chain % with intervals, and chain pass^k (the share of chains
 * every run solved; the chain % itself for one run), for each group of runs
 * (one resample set for all).
 */
export function headlineRatesOf(groups: readonly RunGroup[], boot: BootstrapOptions): HeadlineRates[] {
  if (groups.length === 0) return [];
  assertSameChains(groups);
  const chains = groups[0]![0]!;
  const n = chains.length;
  const lengths = chains.map((o) => o.length);
  const lengthPlanes = bitPlanes(lengths);
  const rows = groups.map((group) => {
    const t = groupTotals(group);
    return { ...t, resolvedPlanes: bitPlanes(t.resolved), solvedPlanes: bitPlanes(t.solved) };
  });
  // one call: [length planes, then per group: its solved planes, its resolved planes, and (k > 1) its passed vector]
  const vectors: ArrayLike<number>[] = [...lengthPlanes];
  for (const r of rows) vectors.push(...r.solvedPlanes, ...r.resolvedPlanes, ...(r.k > 1 ? [r.passed] : []));
  const sums = drawSums(n, vectors, boot);
  const bugs = weighted(sums, 0, lengthPlanes.length, new Float64Array(boot.draws));
  const totalBugs = sumOf(lengths);
  let at = lengthPlanes.length;
  const resolvedBuffer = new Float64Array(boot.draws);
  const solvedBuffer = new Float64Array(boot.draws);
  // the interval's selection reorders it: filled afresh for each group
  const perBug = new Float64Array(boot.draws);
  return rows.map((r) => {
    const solved = weighted(sums, at, r.solvedPlanes.length, solvedBuffer);
    at += r.solvedPlanes.length;
    const resolved = weighted(sums, at, r.resolvedPlanes.length, resolvedBuffer);
    at += r.resolvedPlanes.length;
    for (let d = 0; d < boot.draws; d++) perBug[d] = (100 * resolved[d]!) / (r.k * bugs[d]!);
    const chain = { value: (100 * sumOf(r.solved)) / (r.k * n), ci: fixedDenominatorInterval(solved, r.k * n) };
    let passK = chain;
    if (r.k > 1) {
      const passed = r.passed.reduce((a, b) => a + b, 0);
      passK = { value: (100 * passed) / n, ci: fixedDenominatorInterval(sums[at]!, n) };
      at += 1;
    }
    return { per_bug: { value: (100 * sumOf(r.resolved)) / (r.k * totalBugs), ci: intervalOf(perBug) }, chain, pass_k: passK };
  });
}

/** The chains a position set covers: the length-3 chains (the paper's Tables 3–4) or all. */
export const positionPool = (set: readonly ChainOutcome[], positions: PositionSet): readonly ChainOutcome[] => (positions === "length3" ? set.filter((o) => o.length === 3) : set);

/** Per position of a group's position set: the chains with a bug there, and per chain the runs that resolved it. */
function positionColumns(group: RunGroup, positions: PositionSet): { position: number; resolvedRuns: number[] }[] {
  const pools = group.map((run) => positionPool(run, positions));
  const maxLength = Math.max(0, ...pools[0]!.map((o) => o.length));
  return Array.from({ length: maxLength }, (_, i) => {
    const resolvedRuns = new Array<number>(pools[0]!.filter((o) => o.length > i).length).fill(0);
    for (const pool of pools) {
      let c = 0;
      for (const o of pool) if (o.length > i) resolvedRuns[c++]! += o.resolved[i] ? 1 : 0;
    }
    return { position: i + 1, resolvedRuns };
  });
}

/** The resolution rate at each position of the position set (the mean over a group's runs), without intervals. */
export function positionValues(group: RunGroup, positions: PositionSet): Omit<PositionRate, "ci">[] {
  return positionColumns(group, positions).map(({ position, resolvedRuns: col }) => ({ position, value: (100 * sumOf(col)) / (group.length * col.length), n: col.length }));
}

/**
 * Resolution rate at each position 1..max of the position set, for each group
 * (the mean over its runs): the rate at p is resolved-at-p over the set's
 * chains with a bug at p, and its interval resamples exactly those chains,
 * each with all of the group's runs.
 */
export function positionRatesOf(groups: readonly RunGroup[], positions: PositionSet, boot: BootstrapOptions): PositionRate[][] {
  if (groups.length === 0) return [];
  assertSameChains(groups);
  const columns = groups.map((group) => positionColumns(group, positions));
  const maxLength = columns[0]!.length;
  // populations are nested (length ≥ p), so equal sizes mean the same chains: one resample set, one call, each
  const bySize = new Map<number, number[]>();
  for (let p = 1; p <= maxLength; p++) {
    const n = columns[0]![p - 1]!.resolvedRuns.length;
    bySize.set(n, [...(bySize.get(n) ?? []), p]);
  }
  const rates = new Map<number, PositionRate[]>();
  for (const [n, ps] of bySize) {
    // each (position, group) column as bit planes, all in one call
    const planes = ps.flatMap((p) => columns.map((cols) => bitPlanes(cols[p - 1]!.resolvedRuns)));
    const sums = drawSums(n, planes.flat(), boot);
    const buffer = new Float64Array(boot.draws);
    let at = 0;
    ps.forEach((p, k) => {
      rates.set(
        p,
        groups.map((group, j) => {
          const count = planes[k * groups.length + j]!.length;
          const numerators = weighted(sums, at, count, buffer);
          at += count;
          const col = columns[j]![p - 1]!.resolvedRuns;
          return { position: p, value: (100 * sumOf(col)) / (group.length * n), ci: fixedDenominatorInterval(numerators, group.length * n), n };
        }),
      );
    });
  }
  return groups.map((_, j) => Array.from({ length: maxLength }, (_, i) => rates.get(i + 1)![j]!));
}
