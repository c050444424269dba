/**
 * What the leaderboard shows (issue 4, items 1, 7, 8), derived from plain data:
 * the view's state as URL parameters (parse and serialize, one zod schema shared
 * by the page and GET /api/v1/leaderboard), filtering, sorting, grouping by
 * configuration, the rows as the table prints them, the paper's reported rows,
 * and why a table is empty. Pure functions, no database and nothing server-only:
 * the page renders its first view on the server from these, the client table
 * builds its sort links with them, and the API exports the same rows.
 */
import { z } from "zod";
import { MODE_LABELS, formatCost, formatInterval, formatPercent, formatRelativeChange, formatTokens } from "@/evaluator/scoring/format";
import { SCORINGS } from "@/evaluator/scoring/outcomes";
import type { Leaderboard, LeaderboardRow } from "@/lib/data/leaderboard";
import type { ReportedMainRow } from "@/lib/reference/paper";
import { MODES, modeSchema, type Mode } from "@/lib/schemas/prediction";

// ---------------------------------------------------------------- state in the URL

export const SORT_KEYS = ["model", "config", "mode", "per_bug", "chain", "vs_oracle", "cost", "peak_context", "date"] as const;
export type SortKey = (typeof SORT_KEYS)[number];
export type SortDir = "asc" | "desc";
export type Sort = { key: SortKey; dir: SortDir };

/** Rows the page shows before "show all" (the API always answers every row). */
export const PAGE_ROWS = 100;

const first = (v: unknown) => (Array.isArray(v) ? v[0] : v);
/** one value per parameter; "" (a form's "any") is the same as absent */
const param = <S extends z.ZodType>(schema: S) => z.preprocess((v) => (first(v) === "" ? undefined : first(v)), schema);
const text = z.string().trim().min(1).max(200);
const flag = z.stringbool();

export const leaderboardViewSchema = z.object({
  /** a dataset version; absent = the newest */
  version: param(text.optional()),
  scoring: param(z.enum(SCORINGS).default("strict")),
  mode: param(modeSchema.optional()),
  /** a context configuration, exactly as the system names it */
  config: param(text.optional()),
  model: param(text.optional()),
  /** absent = any; true = only open; false = only closed */
  open_weights: param(flag.optional()),
  open_scaffold: param(flag.optional()),
  /** the evaluation's finishing day, UTC, inclusive */
  from: param(z.iso.date().optional()),
  to: param(z.iso.date().optional()),
  sort: param(
    z
      .templateLiteral([z.enum(SORT_KEYS), ".", z.enum(["asc", "desc"])], { error: `expected <column>.asc or <column>.desc, column one of ${SORT_KEYS.join(", ")}` })
      .default("per_bug.desc"),
  ),
  group: param(z.enum(["none", "config"]).default("none")),
  /** the paper's Table 2 rows, in their own table */
  paper: param(flag.default(false)),
  /** every row, not only the first PAGE_ROWS (the page only) */
  all: param(flag.default(false)),
});
export type LeaderboardView = z.infer<typeof leaderboardViewSchema>;

export const leaderboardApiQuerySchema = leaderboardViewSchema.extend({ format: param(z.enum(["json", "csv"]).default("json")) });
export type LeaderboardApiQuery = z.infer<typeof leaderboardApiQuerySchema>;

export type RawParams = URLSearchParams | Record<string, string | string[] | undefined>;
export type QueryProblem = { field: string; message: string };

/**
 * The state from URL parameters. A bad value is reported and left at its
 * default (the page says so and shows the rest; the API answers 400).
 */
export function parseLeaderboardQuery<S extends typeof leaderboardViewSchema | typeof leaderboardApiQuerySchema>(
  params: RawParams,
  schema: S = leaderboardViewSchema as S,
): { query: z.infer<S>; problems: QueryProblem[] } {
  const raw: Record<string, unknown> = params instanceof URLSearchParams ? Object.fromEntries(params) : { ...params };
  const problems: QueryProblem[] = [];
  for (;;) {
    const parsed = schema.safeParse(raw);
    if (parsed.success) return { query: parsed.data as z.infer<S>, problems };
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? "");
      problems.push({ field, message: issue.message });
      delete raw[field];
    }
  }
}

const DEFAULTS = leaderboardApiQuerySchema.parse({});

/** URL parameters for a view, defaults left out, in the schema's order (so equal views have equal URLs). */
export function leaderboardSearch(query: Partial<LeaderboardApiQuery>): URLSearchParams {
  const out = new URLSearchParams();
  for (const key of Object.keys(leaderboardApiQuerySchema.shape) as (keyof LeaderboardApiQuery)[]) {
    const v = query[key];
    if (v === undefined || v === DEFAULTS[key]) continue;
    out.set(key, typeof v === "boolean" ? (v ? "1" : "0") : String(v));
  }
  return out;
}

/** The page (or the API at `path`) showing `query` changed by `patch`. */
export function leaderboardHref(query: Partial<LeaderboardApiQuery>, patch: Partial<LeaderboardApiQuery> = {}, path = "/"): string {
  const s = leaderboardSearch({ ...query, ...patch }).toString();
  return s ? `${path}?${s}` : path;
}

export function parseSort(sort: LeaderboardView["sort"]): Sort {
  const [key, dir] = sort.split(".") as [SortKey, SortDir];
  return { key, dir };
}

export const sortParam = (s: Sort): LeaderboardView["sort"] => `${s.key}.${s.dir}`;

// ---------------------------------------------------------------- filter, sort, group

/** What filtering and sorting read of a leaderboard row. */
export type RankableRow = Pick<LeaderboardRow, "submissionId" | "mode" | "perBug" | "chain" | "costPerChain" | "peakContext" | "vsOracle" | "finishedAt"> & {
  system: Pick<LeaderboardRow["system"], "name" | "model" | "contextConfig" | "openWeights" | "openScaffold">;
};

const day = (d: Date | null) => d?.toISOString().slice(0, 10) ?? null;

export function filterRows<R extends RankableRow>(rows: readonly R[], q: LeaderboardView): R[] {
  return rows.filter((r) => {
    if (q.mode && r.mode !== q.mode) return false;
    if (q.config && r.system.contextConfig !== q.config) return false;
    if (q.model && r.system.model !== q.model) return false;
    if (q.open_weights !== undefined && r.system.openWeights !== q.open_weights) return false;
    if (q.open_scaffold !== undefined && r.system.openScaffold !== q.open_scaffold) return false;
    const d = day(r.finishedAt);
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
  const models = [...new Set(rows.map((r) => r.model))];
  const kept = rows
    .filter((r) => (!q.mode || r.mode === q.mode) && (!q.config || r.config === q.config) && (!q.model || r.model === q.model))
    // never ranked: the paper's order (model, then configuration, then mode), whatever the evaluated table's sort
    .sort((a, b) => models.indexOf(a.model) - models.indexOf(b.model) || compareConfigs(a.config, b.config) || modeIndex(a.mode) - modeIndex(b.mode));
  return { rows: groupRows(kept, q.group, (r) => r.config), hiddenBecause: null };
}

// ---------------------------------------------------------------- as the table prints them

export type Badge = { key: "open_weights" | "open_scaffold" | "reviewed"; label: string };
/** A rate as printed: `49.0`, its interval `[44.9, 53.1]` (null for reported rows), and `−29%` against Oracle (null for Oracle rows). */
export type RateCell = { value: string; ci: string | null; vsOracle: string | null };

export type DisplayRow = {
  id: string;
  /** the submission page, the way down to every bug's result; null for reported rows */
  href: string | null;
  model: string;
  system: string | null;
  team: string | null;
  scaffold: string | null;
  config: string;
  mode: Mode;
  perBug: RateCell;
  chain: RateCell;
  cost: string;
  peakContext: string;
  /** the evaluation's finishing day (UTC) */
  date: string | null;
  badges: Badge[];
};
export type DisplayGroup = { key: string | null; rows: DisplayRow[] };

const change = (rel: number | null) => (rel === null ? null : formatRelativeChange(rel));

export function displayRow(r: LeaderboardRow): DisplayRow {
  const badges: Badge[] = [];
  if (r.system.openWeights) badges.push({ key: "open_weights", label: "open weights" });
  if (r.system.openScaffold) badges.push({ key: "open_scaffold", label: "open scaffold" });
  if (r.reviewed) badges.push({ key: "reviewed", label: "reviewed" });
  return {
    id: r.submissionId,
    href: `/submissions/${encodeURIComponent(r.submissionId)}`,
    model: r.system.model,
    system: r.system.name,
    team: r.team.name,
    scaffold: r.system.scaffold,
    config: r.system.contextConfig,
    mode: r.mode,
    perBug: { value: formatPercent(r.perBug.value), ci: formatInterval(r.perBug.ci), vsOracle: change(r.vsOracle.perBug) },
    chain: { value: formatPercent(r.chain.value), ci: formatInterval(r.chain.ci), vsOracle: change(r.vsOracle.chain) },
    cost: formatCost(r.costPerChain),
    peakContext: formatTokens(r.peakContext),
    date: day(r.finishedAt),
    badges,
  };
}

export function displayReportedRow(r: ReportedMainRow): DisplayRow {
  return {
    id: `paper:${r.model}:${r.config}:${r.mode}`,
    href: null,
    model: r.model,
    system: null,
    team: null,
    scaffold: "SWE-Edit",
    config: r.config,
    mode: r.mode,
    perBug: { value: formatPercent(r.perBug), ci: null, vsOracle: change(r.vsOracle.perBug) },
    chain: { value: formatPercent(r.chain), ci: null, vsOracle: change(r.vsOracle.chain) },
    cost: formatCost(r.costPerChain),
    peakContext: formatTokens(null),
    date: null,
    badges: [],
  };
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

// ---------------------------------------------------------------- controls and empty states

/** The configurations and models a filter can pick from: those of the version's rows (and the paper's, when shown). */
export function filterOptions(rows: readonly RankableRow[], reported: readonly ReportedMainRow[]): { configs: string[]; models: string[] } {
  const configs = new Set([...rows.map((r) => r.system.contextConfig), ...reported.map((r) => r.config)]);
  const models = new Set([...rows.map((r) => r.system.model), ...reported.map((r) => r.model)]);
  return { configs: [...configs].sort(compareConfigs), models: [...models].sort(collator.compare) };
}

/** The filters in force, in words ("mode Seq", "open weights only"). */
export function describeFilters(q: LeaderboardView): string[] {
  const open = (what: string, v: boolean | undefined) => (v === undefined ? [] : [`${what} ${v ? "open" : "closed"}`]);
  return [
    ...(q.mode ? [`mode ${MODE_LABELS[q.mode]}`] : []),
    ...(q.config ? [`configuration ${q.config}`] : []),
    ...(q.model ? [`model ${q.model}`] : []),
    ...open("weights", q.open_weights),
    ...open("scaffold", q.open_scaffold),
    ...(q.from ? [`finished on or after ${q.from}`] : []),
    ...(q.to ? [`finished on or before ${q.to}`] : []),
  ];
}

/** Why the evaluated table is empty (UI.md: empty states say why), or null when it is not. */
export function emptyReason(board: { version: string | null; versions: readonly string[]; rows: readonly unknown[] }, shown: number, q: LeaderboardView): string | null {
  if (shown > 0) return null;
  if (board.versions.length === 0) return "No dataset has been imported yet, so there is nothing to rank.";
  if (!board.version || !board.versions.includes(board.version)) return `There is no dataset version ${board.version ?? ""}; pick one of ${board.versions.join(", ")}.`;
  if (board.rows.length === 0) {
    return `No public evaluated submission on dataset ${board.version} yet: results appear here once a team publishes them and a reviewer approves.`;
  }
  return `No row matches these filters (${describeFilters(q).join("; ")}): ${board.rows.length} public row(s) on dataset ${board.version} are filtered out.`;
}

/** What strict and lenient mean, in one line next to their toggle. */
export const SCORING_EXPLANATION =
  "Strict (as the paper's Table 2): a Seq or Seq+Mem bug counts only if every earlier bug of its chain was resolved too; lenient: each bug counts on its own. Oracle rows are the same under both.";

// ---------------------------------------------------------------- the page, whole

export type LeaderboardPageView = {
  /** the state with the version shown pinned, so every link made from it keeps showing that version */
  query: LeaderboardView;
  groups: DisplayGroup[];
  /** evaluated rows shown / matching the filters */
  shown: number;
  total: number;
  empty: string | null;
  filtered: boolean;
  reported: DisplayGroup[];
  reportedHidden: string | null;
  options: { configs: string[]; models: string[] };
};

const toDisplay = <R>(groups: RowGroup<R>[], f: (r: R) => DisplayRow): DisplayGroup[] => groups.map((g) => ({ key: g.key, rows: g.rows.map(f) }));

/** Everything the leaderboard page renders, from the version's rows, the state and the paper's rows. */
export function leaderboardPageView(
  board: Pick<Leaderboard, "version" | "versions" | "rows">,
  q: LeaderboardView,
  paper: readonly ReportedMainRow[],
): LeaderboardPageView {
  const query: LeaderboardView = { ...q, version: board.version ?? q.version };
  const page = limitGroups(selectRows(board.rows, query), query.all ? null : PAGE_ROWS);
  const reported = selectReportedRows(paper, query);
  return {
    query,
    groups: toDisplay(page.groups, displayRow),
    shown: page.shown,
    total: page.total,
    empty: emptyReason(board, page.total, query),
    filtered: describeFilters(query).length > 0,
    reported: toDisplay(reported.rows, displayReportedRow),
    reportedHidden: reported.hiddenBecause,
    options: filterOptions(board.rows, query.paper ? paper : []),
  };
}
