/**
 * Holm's step-down correction for multiple comparisons (SPEC §4 "Rank tiers"):
 * sort the m p-values ascending, multiply the i-th smallest (i from 0) by m − i,
 * carry the running maximum so adjusted values keep the raw values' order, and
 * cap at 1. A hypothesis is rejected at level α when its adjusted p-value is
 * below α; the family-wise error rate stays at most α under any dependence.
 */
export function holmAdjust(p: readonly number[]): number[] {
  const m = p.length;
  const order = p.map((_, i) => i).sort((a, b) => (p[a] as number) - (p[b] as number) || a - b);
  const adjusted = new Array<number>(m);
  let running = 0;
  order.forEach((idx, rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * (p[idx] as number)));
    adjusted[idx] = running;
  });
  return adjusted;
}
