/**
 * Seeded percentile bootstrap over chains (SPEC §4 "Uncertainty").
 *
 * Invariants:
 * - the resamples depend only on (n, seed, draws): two calls with the same three
 *   numbers draw the same index lists, so statistics computed in separate calls
 *   (or on two runs, for a paired comparison) see the same resampled chains; the
 *   draws are therefore memoized (a few matrices), which changes nothing but speed;
 * - the interval is the 2.5th and 97.5th percentile of the draws (linear
 *   interpolation between order statistics, R's type 7); identical draws give a
 *   point interval exactly.
 */
import { uniformInt } from "pure-rand/distribution/uniformInt";
import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus";

export const DEFAULT_SEED = 0;
export const DEFAULT_DRAWS = 2000;
export const CI_LEVEL = 0.95;

export type BootstrapOptions = { seed: number; draws: number };
export type Interval = [number, number];
/** The units one resample drew (indices into the population, with repeats); index it, don't iterate it (speed). */
export type Indices = ArrayLike<number>;
/** A statistic of one resample; it must not modify `indices` (they are shared). */
export type ResampleStat = (indices: Indices) => number;

export function resolveBootstrap(opts?: { seed?: number; draws?: number }): BootstrapOptions {
  const seed = opts?.seed ?? DEFAULT_SEED;
  const draws = opts?.draws ?? DEFAULT_DRAWS;
  if (!Number.isSafeInteger(seed)) throw new RangeError(`bootstrap seed must be an integer, got ${seed}`);
  if (!Number.isSafeInteger(draws) || draws < 1) {
    throw new RangeError(`bootstrap draws must be a positive integer, got ${draws}`);
  }
  return { seed, draws };
}

/** Quantile q of ascending `sorted` (type 7). */
export function percentile(sorted: ArrayLike<number>, q: number): number {
  if (sorted.length === 0) throw new RangeError("percentile of an empty list");
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  const a = sorted[lo] as number;
  const b = sorted[Math.min(lo + 1, sorted.length - 1)] as number;
  return a === b ? a : a + (h - lo) * (b - a);
}

/** The last few resample matrices (draws × n indices): a report asks for the same (n, seed, draws) often. */
const matrices = new Map<string, Int32Array>();
const MATRIX_CACHE = 8;

/** The draws × n chain indices of the resamples of n units (row d = draw d). */
export function resampleMatrix(n: number, opts: BootstrapOptions): Int32Array {
  const key = `${n}:${opts.seed}:${opts.draws}`;
  const cached = matrices.get(key);
  if (cached) return cached;
  const rng = xoroshiro128plus(opts.seed);
  const matrix = new Int32Array(n * opts.draws);
  for (let k = 0; k < matrix.length; k++) matrix[k] = uniformInt(rng, 0, n - 1);
  if (matrices.size >= MATRIX_CACHE) matrices.delete(matrices.keys().next().value as string);
  matrices.set(key, matrix);
  return matrix;
}

/**
 * 95% percentile intervals of several statistics over the same resamples of n units.
 * Returns one interval per statistic, in order.
 */
export function bootstrapIntervals(n: number, stats: readonly ResampleStat[], opts: BootstrapOptions): Interval[] {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`bootstrap needs at least one unit, got ${n}`);
  const matrix = resampleMatrix(n, opts);
  const samples = stats.map(() => new Float64Array(opts.draws));
  for (let d = 0; d < opts.draws; d++) {
    const indices = matrix.subarray(d * n, (d + 1) * n);
    stats.forEach((stat, s) => {
      (samples[s] as Float64Array)[d] = stat(indices);
    });
  }
  const tail = (1 - CI_LEVEL) / 2;
  return samples.map((values) => {
    const sorted = Array.from(values).sort((a, b) => a - b);
    return [percentile(sorted, tail), percentile(sorted, 1 - tail)];
  });
}
