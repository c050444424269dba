/**
 * SPEC §8 held-out split: a row's held-out chain % beside its public chain %,
 * and whether the two differ (a possible overfitting signal). Pure.
 *
 * Input: per chain, the share of the row's runs that solved it (1 or 0 for a
 * single run), for its public chains and its held-out chains. The held-out
 * chain % is their mean (as a percentage) with its percentile bootstrap
 * interval over the held-out chains (core/scoring/bootstrap.ts). The gap is
 * public − held-out; its interval resamples the two sets apart in each draw
 * (the public chains with the board's seed, the held-out ones with the next
 * seed, so the two never share a resample's indices), and the gap is flagged
 * when that interval excludes 0.
 */
import { CI_LEVEL, percentile, resampleMatrix, resolveBootstrap, type BootstrapOptions } from "./bootstrap";
import type { Estimate } from "./schemas";

export type HeldOutScore = {
  /** held-out chains scored */
  chains: number;
  /** held-out chain %, with its interval */
  chain: Estimate;
  /** public − held-out chain %, with its interval */
  gap: Estimate;
  /** the gap's interval excludes 0 */
  flagged: boolean;
};

const mean = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

/** Each draw's mean (as a percentage) of `shares` resampled. */
function drawMeans(shares: readonly number[], boot: BootstrapOptions): Float64Array {
  const n = shares.length;
  const matrix = resampleMatrix(n, boot);
  const out = new Float64Array(boot.draws);
  for (let d = 0; d < boot.draws; d++) {
    let sum = 0;
    for (let i = d * n; i < (d + 1) * n; i++) sum += shares[matrix[i]!]!;
    out[d] = (100 * sum) / n;
  }
  return out;
}

function interval(draws: Float64Array): [number, number] {
  const sorted = Array.from(draws).sort((a, b) => a - b);
  const tail = (1 - CI_LEVEL) / 2;
  return [percentile(sorted, tail), percentile(sorted, 1 - tail)];
}

/** The held-out score of a row; RangeError without a public or a held-out chain. */
export function heldOutScore(publicShares: readonly number[], heldOutShares: readonly number[], opts?: { seed?: number; draws?: number }): HeldOutScore {
  if (publicShares.length === 0 || heldOutShares.length === 0) throw new RangeError("a held-out score needs at least one public and one held-out chain");
  const boot = resolveBootstrap(opts);
  const pub = drawMeans(publicShares, boot);
  const held = drawMeans(heldOutShares, { seed: boot.seed + 1, draws: boot.draws });
  const gaps = pub.map((p, d) => p - held[d]!);
  const gapCi = interval(gaps);
  return {
    chains: heldOutShares.length,
    chain: { value: 100 * mean(heldOutShares), ci: interval(held) },
    gap: { value: 100 * (mean(publicShares) - mean(heldOutShares)), ci: gapCi },
    flagged: gapCi[0] > 0 || gapCi[1] < 0,
  };
}
