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

/** The interval of (100 · k) / n over the draws' numerators k ∈ [0, n]: order statistics read off their counts. */
function fixedDenominatorInterval(numerators: Int32Array, n: number): Interval {
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

/** Every set must list the same chains (ids and lengths, in order): they share the resamples. */
function assertSameChains(sets: readonly (readonly ChainOutcome[])[]): void {
  const [first] = sets;
  for (const set of sets) {
    if (set.length !== first!.length || set.some((o, i) => o.continuous_id !== first![i]!.continuous_id || o.length !== first![i]!.length)) {
      throw new RangeError("runs scored together must cover the same chains in the same order");
    }
  }
}

/** Per-bug % and chain % with intervals, for each set of chain outcomes (one resample set for all). */
export function headlineRatesOf(sets: readonly (readonly ChainOutcome[])[], boot: BootstrapOptions): { per_bug: Estimate; chain: Estimate }[] {
  if (sets.length === 0) return [];
  assertSameChains(sets);
  const chains = sets[0]!;
  const n = chains.length;
  const lengths = chains.map((o) => o.length);
  const lengthPlanes = bitPlanes(lengths);
  const runs = sets.map((set) => {
    const resolved = set.map((o) => o.resolved.filter(Boolean).length);
    return { resolved, planes: bitPlanes(resolved), solved: Uint8Array.from(set, (o) => (o.resolved.every(Boolean) ? 1 : 0)) };
  });
  // one call: [length planes, then per run: solved, its resolved planes]
  const vectors: ArrayLike<number>[] = [...lengthPlanes];
  for (const r of runs) vectors.push(r.solved, ...r.planes);
  const sums = drawSums(n, vectors, boot);
  const bugs = weighted(sums, 0, lengthPlanes.length, new Float64Array(boot.draws));
  const totalBugs = sumOf(lengths);
  let at = lengthPlanes.length;
  const resolvedBuffer = new Float64Array(boot.draws);
  // the interval's selection reorders it: filled afresh for each run
  const perBug = new Float64Array(boot.draws);
  return runs.map((r) => {
    const solved = sums[at]!;
    const resolved = weighted(sums, at + 1, r.planes.length, resolvedBuffer);
    at += 1 + r.planes.length;
    for (let d = 0; d < boot.draws; d++) perBug[d] = (100 * resolved[d]!) / bugs[d]!;
    const solvedCount = r.solved.reduce((a, b) => a + b, 0);
    return {
      per_bug: { value: (100 * sumOf(r.resolved)) / totalBugs, ci: intervalOf(perBug) },
      chain: { value: (100 * solvedCount) / n, ci: fixedDenominatorInterval(solved, n) },
    };
  });
}

/** The chains a position set covers: the length-3 chains (the paper's Tables 3–4) or all. */
export const positionPool = (set: readonly ChainOutcome[], positions: PositionSet): readonly ChainOutcome[] => (positions === "length3" ? set.filter((o) => o.length === 3) : set);

/** The resolution rate at each position of the position set, without intervals. */
export function positionValues(set: readonly ChainOutcome[], positions: PositionSet): Omit<PositionRate, "ci">[] {
  const pool = positionPool(set, positions);
  const maxLength = Math.max(0, ...pool.map((o) => o.length));
  return Array.from({ length: maxLength }, (_, i) => {
    const at = pool.filter((o) => o.length > i);
    return { position: i + 1, value: (100 * at.filter((o) => o.resolved[i]).length) / at.length, n: at.length };
  });
}

/**
 * Resolution rate at each position 1..max of the position set, for each set:
 * the rate at p is resolved-at-p over the set's chains with a bug at p, and its
 * interval resamples exactly those chains.
 */
export function positionRatesOf(sets: readonly (readonly ChainOutcome[])[], positions: PositionSet, boot: BootstrapOptions): PositionRate[][] {
  if (sets.length === 0) return [];
  assertSameChains(sets);
  const pools = sets.map((set) => positionPool(set, positions));
  const pool = pools[0]!;
  const maxLength = Math.max(0, ...pool.map((o) => o.length));
  // populations are nested (length ≥ p), so equal sizes mean the same chains: one resample set, one call, each
  const bySize = new Map<number, number[]>();
  for (let p = 1; p <= maxLength; p++) {
    const n = pool.filter((o) => o.length >= p).length;
    bySize.set(n, [...(bySize.get(n) ?? []), p]);
  }
  const rates = new Map<number, PositionRate[]>();
  for (const [n, ps] of bySize) {
    // columns[k·sets + j]: set j's 0/1 column at position ps[k]
    const columns = ps.flatMap((p) => pools.map((set) => Uint8Array.from(set.filter((o) => o.length >= p), (o) => (o.resolved[p - 1] ? 1 : 0))));
    const sums = drawSums(n, columns, boot);
    ps.forEach((p, k) => {
      rates.set(
        p,
        pools.map((_, j) => {
          const col = columns[k * pools.length + j]!;
          return { position: p, value: (100 * col.reduce((a, b) => a + b, 0)) / n, ci: fixedDenominatorInterval(sums[k * pools.length + j]!, n), n };
        }),
      );
    });
  }
  return sets.map((_, j) => Array.from({ length: maxLength }, (_, i) => rates.get(i + 1)![j]!));
}

