/**
 * A bug-date window in words, as the pages print it (pure, client-safe).
 */
import type { WindowSummary } from "@/lib/leaderboard/window";

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;

/** "Bugs dated 2024-04-01 to any date: the window keeps 12 of 100 chains (38 of 304 bugs); every number below is over them." */
export function describeWindow(w: WindowSummary): string {
  const ends = `Bugs dated ${w.from ?? "any date"} to ${w.until ?? "any date"}`;
  const reversed = w.from !== null && w.until !== null && w.from > w.until ? " (it ends before it starts)" : "";
  const undated = w.undated > 0 ? `; ${plural(w.undated, "chain")} with a bug date that is not a date left out` : "";
  if (w.chains === 0) return `${ends}${reversed}: the window keeps none of the ${plural(w.totalChains, "chain")}${undated}, so there is nothing to score.`;
  return `${ends}: the window keeps ${w.chains} of ${plural(w.totalChains, "chain")} (${w.bugs} of ${plural(w.totalBugs, "bug")})${undated}; every score, interval and count below is over those chains only.`;
}
