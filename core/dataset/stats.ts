/**
 * A dataset version's statistics (paper §3.3, appendix A tables 7 and 9), pure: what
 * `chainswe select` prints and `chainswe dataset import` stores in DatasetVersion.stats.
 */
import type { DatasetStats } from "@/core/schemas/columns";
import type { Chain } from "@/core/schemas/dataset";
import { utcDay } from "@/core/format";

type Row = { chains: number; bugs: number };

function tally(chains: Chain[], key: (c: Chain) => string): (Row & { key: string })[] {
  const rows = new Map<string, Row>();
  for (const c of chains) {
    const row = rows.get(key(c)) ?? { chains: 0, bugs: 0 };
    row.chains++;
    row.bugs += c.bug_fixes.length;
    rows.set(key(c), row);
  }
  // as the paper's tables: most chains first, then by name
  return [...rows].map(([k, r]) => ({ key: k, ...r })).sort((a, b) => b.chains - a.chains || a.key.localeCompare(b.key));
}

/** Earliest and latest bug date (YYYY-MM-DD); dates that do not parse are left out. */
function dateSpan(chains: Chain[]): DatasetStats["date_span"] {
  const days = chains
    .flatMap((c) => c.bug_fixes.map((b) => Date.parse(b.date)))
    .filter((t) => !Number.isNaN(t))
    .map((t) => utcDay(new Date(t)))
    .sort();
  return days.length ? { from: days[0]!, to: days[days.length - 1]! } : null;
}

export function datasetStats(chains: Chain[]): DatasetStats {
  const bugs = chains.reduce((n, c) => n + c.bug_fixes.length, 0);
  return {
    chains: chains.length,
    bugs,
    repos: new Set(chains.map((c) => c.repo)).size,
    avg_length: chains.length ? Math.round((bugs / chains.length) * 100) / 100 : 0,
    date_span: dateSpan(chains),
    by_source: tally(chains, (c) => c.source).map(({ key, ...r }) => ({ source: key, ...r })),
    by_repo: tally(chains, (c) => c.repo).map(({ key, ...r }) => ({ repo: key, ...r })),
  };
}
