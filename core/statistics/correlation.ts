/**
 * The point-biserial correlation (SPEC §4 "Chains that still discriminate"):
 * Pearson's correlation between an item's outcomes (0/1, or a row's mean over
 * its runs) and another figure of the same rows. Null when either side has no
 * variance (an item every row solved, or rows all level): the correlation is
 * undefined there, not 0.
 */
export function pointBiserial(item: ArrayLike<number>, score: ArrayLike<number>): number | null {
  const n = item.length;
  if (score.length !== n) throw new RangeError(`the item has ${n} rows, the scores ${score.length}`);
  if (n < 2) return null;
  let mx = 0;
  let my = 0;
  for (let i = 0; i < n; i++) {
    mx += item[i] as number;
    my += score[i] as number;
  }
  mx /= n;
  my /= n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = (item[i] as number) - mx;
    const dy = (score[i] as number) - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  // a relative floor: sums of means over runs that are level differ by rounding only
  const tiny = 1e-12 * n;
  if (sxx <= tiny || syy <= tiny * Math.max(1, my * my)) return null;
  return Math.max(-1, Math.min(1, sxy / Math.sqrt(sxx * syy)));
}
