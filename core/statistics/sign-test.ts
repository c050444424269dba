/**
 * Exact two-sided sign test on paired differences (SPEC §4 "Rank tiers").
 *
 * Over n pairs, the ties (difference 0) are dropped; under the null hypothesis
 * each of the m remaining pairs favours either side with probability ½, so the
 * count k favouring the first side is Binomial(m, ½). The two-sided p-value is
 * the probability of a split at least as uneven as the one seen:
 * p = min(1, 2 · P(X ≤ min(k, m − k))). With binary outcomes (one run each side)
 * the non-tied pairs are McNemar's discordant pairs, so this is the exact
 * McNemar test. No discordant pair: p = 1.
 */

/** log(n!) by summing logs: exact enough for the binomial's few thousand terms, and independent of a gamma approximation. */
const logFactorials: number[] = [0];
function logFactorial(n: number): number {
  for (let i = logFactorials.length; i <= n; i++) logFactorials.push((logFactorials[i - 1] as number) + Math.log(i));
  return logFactorials[n] as number;
}

/** P(X ≤ k) for X ~ Binomial(m, ½). */
export function binomialHalfCdf(k: number, m: number): number {
  if (!Number.isInteger(m) || m < 0) throw new RangeError(`binomial size must be a non-negative integer, got ${m}`);
  if (k < 0) return 0;
  if (k >= m) return 1;
  const logHalfM = m * Math.log(0.5);
  let p = 0;
  for (let i = 0; i <= k; i++) p += Math.exp(logFactorial(m) - logFactorial(i) - logFactorial(m - i) + logHalfM);
  return Math.min(1, p);
}

export type SignTest = {
  /** pairs where the first side is ahead, behind, level */
  wins: number;
  losses: number;
  ties: number;
  /** exact two-sided p-value */
  p: number;
};

/** The sign test of paired differences `d` (first minus second side). */
export function signTest(d: ArrayLike<number>): SignTest {
  let wins = 0;
  let losses = 0;
  for (let i = 0; i < d.length; i++) {
    const x = d[i] as number;
    if (Number.isNaN(x)) throw new RangeError(`paired difference ${i} is not a number`);
    if (x > 0) wins++;
    else if (x < 0) losses++;
  }
  const m = wins + losses;
  const p = m === 0 ? 1 : Math.min(1, 2 * binomialHalfCdf(Math.min(wins, losses), m));
  return { wins, losses, ties: d.length - m, p };
}
