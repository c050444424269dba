/**
 * Which leaderboard rows a view shows, in which order:
 * filtering, sorting with a stable tie-break, grouping by configuration in the
 * paper's order, the paper's reported rows under the same filters, and the
 * choices the filters offer. Pure: the page and GET /api/v1/leaderboard show
 * the same rows in the same order.
 */
import type { LeaderboardRow, LeaderboardValueRow } from "@/lib/leaderboard/data";
import type { LeaderboardView, Sort, SortKey } from "@/lib/leaderboard/url";
import { parseSort } from "@/lib/leaderboard/url";
import type { ReportedMainRow } from "@/lib/reference/paper";
import { MODES, type Mode } from "@/core/schemas/prediction";
import { utcDay } from "@/core/format";

/** What filtering and sorting read of a leaderboard row. */
export type RankableRow = Pick<LeaderboardValueRow, "submissionId" | "mode" | "perBug" | "chain" | "costPerChain" | "peakContext" | "vsOracle" | "finishedAt"> & {
  system: Pick<LeaderboardRow["system"], "name" | "model" | "contextConfig" | "openWeights" | "openScaffold">;
};

/** The evaluation's finishing day (UTC), `2025-03-01`. */
export const finishedDay = (d: Date | null) => (d ? utcDay(d) : null);

/** The columns naming a row's system and mode, as the table and the API print them. */
export function systemColumns(r: Pick<LeaderboardRow, "system" | "team" | "mode">): { model: string; system: string; team: string; scaffold: string; config: string; mode: Mode } {
  return { model: r.system.model, system: r.system.name, team: r.team.name, scaffold: r.system.scaffold, config: r.system.contextConfig, mode: r.mode };
}

export function filterRows<R extends RankableRow>(rows: readonly R[], q: LeaderboardView): R[] {
  return rows.filter((r) => {
    if (q.mode && r.mode !== q.mode) return false;
    if (q.config && r.system.contextConfig !== q.config) return false;
    if (q.model && r.system.model !== q.model) return false;
    if (q.open_weights !== undefined && r.system.openWeights !== q.open_weights) return false;
    if (q.open_scaffold !== undefined && r.system.openScaffold !== q.open_scaffold) return false;
    const d = finishedDay(r.finishedAt);
    if (q.from && (d === null || d < q.from)) return false;
    if (q.to && (d === null || d > q.to)) return false;
    return true;
  });
}

const collator = new Intl.Collator("en", { sensitivity: "base", numeric: true });
const modeIndex = (m: Mode) => MODES.indexOf(m);

/** The value a column sorts by; null sorts last in either direction. */
function sortValue(r: RankableRow, key: SortKey): number | string | null {
  switch (key) {
    case "model":
      return r.system.model;
    case "config":
      return r.system.contextConfig;
    case "mode":
      return modeIndex(r.mode);
    case "per_bug":
      return r.perBug.value;
    case "chain":
      return r.chain.value;
    case "vs_oracle":
      return r.vsOracle.perBug;
    case "cost":
      return r.costPerChain;
    case "peak_context":
      return r.peakContext;
    case "date":
      return r.finishedAt?.getTime() ?? null;
  }
}

function compareValues(a: number | string | null, b: number | string | null): number {
  if (typeof a === "string" && typeof b === "string") return collator.compare(a, b);
  return (a as number) - (b as number);
}

/** Ties fall back to per-bug % (best first), then model, system and mode, so the order never depends on the input's. */
function tieBreak(a: RankableRow, b: RankableRow): number {
  return (
    b.perBug.value - a.perBug.value ||
    collator.compare(a.system.model, b.system.model) ||
    collator.compare(a.system.name, b.system.name) ||
    modeIndex(a.mode) - modeIndex(b.mode) ||
    (a.submissionId < b.submissionId ? -1 : a.submissionId > b.submissionId ? 1 : 0)
  );
}

export function sortRows<R extends RankableRow>(rows: readonly R[], sort: Sort): R[] {
  const sign = sort.dir === "asc" ? 1 : -1;
  return [...rows].sort((a, b) => {
    const va = sortValue(a, sort.key);
    const vb = sortValue(b, sort.key);
    if (va === null || vb === null) return va === vb ? tieBreak(a, b) : va === null ? 1 : -1;
    return sign * compareValues(va, vb) || tieBreak(a, b);
  });
}

/** The paper's configurations first, in its order, then any other alphabetically. */
const PAPER_CONFIGS = ["Baseline", "Summarize", "Sub-Agent"];
export function compareConfigs(a: string, b: string): number {
  const ia = PAPER_CONFIGS.indexOf(a);
  const ib = PAPER_CONFIGS.indexOf(b);
  if (ia >= 0 || ib >= 0) return (ia < 0 ? Infinity : ia) - (ib < 0 ? Infinity : ib) || 0;
  return collator.compare(a, b);
}

export type RowGroup<R> = { key: string | null; rows: R[] };

/** A row's place by per-bug %, and whether another row shares it (an equal score). */
export type Rank = { place: number; tied: boolean };

/**
 * Places by per-bug %, best first, as sports count them: equal scores share a
 * place and the next score takes the place after all of them (1, 1, 3). The
 * place stays with its row whatever the table is sorted by.
 */
export function rankRows(rows: readonly Pick<RankableRow, "submissionId" | "perBug">[]): Map<string, Rank> {
  const byScore = [...rows].sort((a, b) => b.perBug.value - a.perBug.value);
  const ranks = new Map<string, Rank>();
  byScore.forEach((r, i) => {
    const first = byScore.findIndex((o) => o.perBug.value === r.perBug.value);
    const tied = first !== i || byScore[i + 1]?.perBug.value === r.perBug.value;
    ranks.set(r.submissionId, { place: first + 1, tied });
  });
  return ranks;
}

/** Rows in groups of one configuration each (or one group of all), keeping their order inside a group. */
export function groupRows<R>(rows: readonly R[], group: LeaderboardView["group"], configOf: (r: R) => string): RowGroup<R>[] {
  if (rows.length === 0) return [];
  if (group === "none") return [{ key: null, rows: [...rows] }];
  const keys = [...new Set(rows.map(configOf))].sort(compareConfigs);
  return keys.map((key) => ({ key, rows: rows.filter((r) => configOf(r) === key) }));
}

/** The evaluated rows of the view, filtered, sorted and (when asked) grouped by configuration: what the page and the API show. */
export function selectRows<R extends RankableRow>(rows: readonly R[], q: LeaderboardView): RowGroup<R>[] {
  return groupRows(sortRows(filterRows(rows, q), parseSort(q.sort)), q.group, (r) => r.system.contextConfig);
}

/** The paper's rows the view shows: mode, configuration and model filters apply; they have no open flags or dates, so those filters hide them. */
export function selectReportedRows(rows: readonly ReportedMainRow[], q: LeaderboardView): { rows: RowGroup<ReportedMainRow>[]; hiddenBecause: string | null } {
  if (!q.paper) return { rows: [], hiddenBecause: null };
  if (q.open_weights !== undefined || q.open_scaffold !== undefined || q.from || q.to) {
    return { rows: [], hiddenBecause: "The paper's rows carry no open-weights, open-scaffold or date facts, so they are hidden while those filters are set." };
  }
  if (q.bug_from || q.bug_until) {
    return { rows: [], hiddenBecause: "The paper's rows are over every chain of its release and cannot be narrowed to a bug-date window, so they are hidden while one is set." };
  }
  const models = [...new Set(rows.map((r) => r.model))];
  const kept = rows
    .filter((r) => (!q.mode || r.mode === q.mode) && (!q.config || r.config === q.config) && (!q.model || r.model === q.model))
    // never ranked: the paper's order (model, then configuration, then mode), whatever the evaluated table's sort
    .sort((a, b) => models.indexOf(a.model) - models.indexOf(b.model) || compareConfigs(a.config, b.config) || modeIndex(a.mode) - modeIndex(b.mode));
  return { rows: groupRows(kept, q.group, (r) => r.config), hiddenBecause: null };
}

/** The first `limit` rows across the groups (all of them when limit is null). */
export function limitGroups<R>(groups: readonly RowGroup<R>[], limit: number | null): { groups: RowGroup<R>[]; shown: number; total: number } {
  const total = groups.reduce((n, g) => n + g.rows.length, 0);
  if (limit === null || total <= limit) return { groups: [...groups], shown: total, total };
  let left = limit;
  const out: RowGroup<R>[] = [];
  for (const g of groups) {
    if (left <= 0) break;
    out.push({ key: g.key, rows: g.rows.slice(0, left) });
    left -= Math.min(left, g.rows.length);
  }
  return { groups: out, shown: limit, total };
}

/** The configurations and models a filter can pick from: those of the version's rows (and the paper's, when shown). */
export function filterOptions(rows: readonly RankableRow[], reported: readonly ReportedMainRow[]): { configs: string[]; models: string[] } {
  const configs = new Set([...rows.map((r) => r.system.contextConfig), ...reported.map((r) => r.config)]);
  const models = new Set([...rows.map((r) => r.system.model), ...reported.map((r) => r.model)]);
  return { configs: [...configs].sort(compareConfigs), models: [...models].sort(collator.compare) };
}
