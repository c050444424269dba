/**
 * What the per-position, chain-error and comparison pages show (issue 4, items
 * 2–4), derived from plain data: leaderboard rows, stored chain-error
 * breakdowns, and two runs' results. Pure functions, no database; the pages,
 * their exports and the tests all call these, so a table, its chart and its
 * CSV cannot disagree.
 */
import {
  CAUSES,
  type BreakdownRow,
  type BreakdownStats,
  type Cause,
  type ChainError,
  type ChainErrorBreakdown,
  type Share,
} from "@/evaluator/analysis";
import { chainOutcomes, countResolved, formatPercent, relativeChange, type PositionRate, type RunResults, type Scoring } from "@/evaluator/scoring";
import { MODES, type Mode } from "@/lib/schemas/prediction";
import { FINGERPRINTS } from "@/lib/schemas/results";
import { csvResponse, toCsv, type CsvColumn } from "@/lib/csv";
import { json } from "@/lib/http";

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const mean = (xs: readonly number[]): number | null => (xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length);

// ---------------------------------------------------------------- per position (paper Tables 3 and 4)

/** What a per-position table needs of a leaderboard row. */
export type PositionSource = {
  submissionId: string;
  system: { model: string; contextConfig: string };
  mode: Mode;
  perPosition: PositionRate[];
};

export type PositionGrouping = "config" | "model";

export type PositionCell = {
  position: number;
  /** mean over the group's systems of their rate at this position (percent) */
  value: number | null;
  /** (value − Oracle's) / Oracle's, as a fraction; null for Oracle rows and position 1 */
  vsOracle: number | null;
  /** chains with a bug at this position (the rate's denominator, per system) */
  chains: number;
};

export type PositionRow = { mode: Mode; submissionIds: string[]; cells: PositionCell[] };
export type PositionGroup = { key: string; rows: PositionRow[] };
export type PositionTable = {
  by: PositionGrouping;
  positions: number[];
  /** chains with a bug at each position (parallel to `positions`): the per-system denominator */
  chainsAt: number[];
  groups: PositionGroup[];
};

const groupKey = (s: PositionSource, by: PositionGrouping) => (by === "config" ? s.system.contextConfig : s.system.model);

/**
 * Per-position resolution by configuration (Table 3: mean over models) or by
 * model (Table 4: mean over configurations): one row per mode present in the
 * group, Oracle first, with the relative change against the group's Oracle row.
 */
export function positionTable(sources: readonly PositionSource[], by: PositionGrouping): PositionTable {
  const positions = [...new Set(sources.flatMap((s) => s.perPosition.map((p) => p.position)))].sort((a, b) => a - b);
  const keys = [...new Set(sources.map((s) => groupKey(s, by)))].sort(cmp);
  const groups = keys.map((key) => {
    const members = sources.filter((s) => groupKey(s, by) === key);
    const rows: PositionRow[] = MODES.flatMap((mode) => {
      const ofMode = members.filter((s) => s.mode === mode);
      if (ofMode.length === 0) return [];
      const cells = positions.map((position) => {
        const rates = ofMode.flatMap((s) => s.perPosition.filter((p) => p.position === position));
        return { position, value: mean(rates.map((r) => r.value)), vsOracle: null, chains: Math.max(0, ...rates.map((r) => r.n)) };
      });
      return [{ mode, submissionIds: ofMode.map((s) => s.submissionId), cells }];
    });
    const oracle = rows.find((r) => r.mode === "oracle");
    for (const row of rows) {
      if (row.mode === "oracle" || !oracle) continue;
      row.cells = row.cells.map((c, i) =>
        // position 1 starts from the same clean state in every mode: the paper (and chainswe report) leave it unannotated
        c.position === 1 ? c : { ...c, vsOracle: relativeChange(c.value, oracle.cells[i]?.value ?? null) },
      );
    }
    return { key, rows };
  });
  const chainsAt = positions.map((p) => Math.max(0, ...sources.flatMap((s) => s.perPosition.filter((r) => r.position === p).map((r) => r.n))));
  return { by, positions, chainsAt, groups };
}

/** The paper's per-position tables are over its 97 length-3 chains (§5.2). */
export const PAPER_LENGTH3_CHAINS = 97;

/** A reported table (the paper's Table 3 or 4, as printed) in the same shape, in the paper's order, never mixed with evaluated rows. */
export function reportedPositionTable(rows: readonly { group: string; mode: Mode; positions: readonly number[] }[], by: PositionGrouping): PositionTable {
  const sources: PositionSource[] = rows.map((r, i) => ({
    submissionId: `paper-${i}`,
    system: { model: by === "model" ? r.group : "", contextConfig: by === "config" ? r.group : "" },
    mode: r.mode,
    perPosition: r.positions.map((value, j) => ({ position: j + 1, value, ci: [value, value] as [number, number], n: PAPER_LENGTH3_CHAINS })),
  }));
  const table = positionTable(sources, by);
  const order = [...new Set(rows.map((r) => r.group))];
  return { ...table, groups: order.flatMap((key) => table.groups.filter((g) => g.key === key)) };
}

/** One point per position, one key per mode: what the line chart plots. */
export type PositionSeriesPoint = { position: number } & Partial<Record<Mode, number>>;

export function positionSeries(group: PositionGroup): { modes: Mode[]; data: PositionSeriesPoint[] } {
  const positions = [...new Set(group.rows.flatMap((r) => r.cells.map((c) => c.position)))].sort((a, b) => a - b);
  const data = positions.map((position) => {
    const point: PositionSeriesPoint = { position };
    for (const row of group.rows) {
      const value = row.cells.find((c) => c.position === position)?.value;
      if (value !== null && value !== undefined) point[row.mode] = value;
    }
    return point;
  });
  return { modes: group.rows.map((r) => r.mode), data };
}

// ---------------------------------------------------------------- chain errors (SPEC §5, paper Figure 4)

export const FINGERPRINT_KEYS = [...FINGERPRINTS, "unknown"] as const;
export type FingerprintKey = (typeof FINGERPRINT_KEYS)[number];

export const CAUSE_LABELS: Record<Cause, string> = {
  overshoot: "Overshoot",
  undershoot: "Undershoot",
  both: "Both",
  unattributed: "Unattributed",
};
/** in the paper's order (§5.3) */
export const FINGERPRINT_LABELS: Record<FingerprintKey, string> = {
  broke_working_code: "Broke working code",
  left_unfixed: "Left unfixed",
  no_usable_patch: "No usable patch",
  unknown: "Unknown",
};
export const FINGERPRINT_ORDER: readonly FingerprintKey[] = ["broke_working_code", "left_unfixed", "no_usable_patch", "unknown"];

type Counts = { chain_errors: number; unresolved: number; causes: Record<Cause, number>; fingerprints: Record<FingerprintKey, number> };

const zeroCounts = (): Counts => ({
  chain_errors: 0,
  unresolved: 0,
  causes: Object.fromEntries(CAUSES.map((c) => [c, 0])) as Record<Cause, number>,
  fingerprints: Object.fromEntries(FINGERPRINT_KEYS.map((f) => [f, 0])) as Record<FingerprintKey, number>,
});

function add(into: Counts, s: BreakdownStats): void {
  into.chain_errors += s.chain_errors;
  into.unresolved += s.unresolved_downstream;
  for (const c of CAUSES) into.causes[c] += s.causes[c].count;
  for (const f of FINGERPRINT_KEYS) into.fingerprints[f] += s.fingerprints[f].count;
}

/** Counts back to the evaluator's BreakdownStats shape, shares and rate recomputed from the sums. */
function toStats(c: Counts): BreakdownStats {
  const share = (count: number): Share => ({ count, pct: c.chain_errors === 0 ? null : (100 * count) / c.chain_errors });
  return {
    chain_errors: c.chain_errors,
    unresolved_downstream: c.unresolved,
    rate: c.unresolved === 0 ? null : (100 * c.chain_errors) / c.unresolved,
    causes: Object.fromEntries(CAUSES.map((k) => [k, share(c.causes[k])])) as BreakdownStats["causes"],
    fingerprints: Object.fromEntries(FINGERPRINT_KEYS.map((k) => [k, share(c.fingerprints[k])])) as BreakdownStats["fingerprints"],
  };
}

export type CombinedBreakdown = { analyses: number; positions: BreakdownRow[]; overall: BreakdownStats };

/**
 * Several systems' breakdowns as one, as the paper pools its Baseline models:
 * counts are summed per position and overall, and the rates and shares are
 * recomputed from the sums (not averaged, so a system with more failures weighs more).
 */
export function sumBreakdowns(breakdowns: readonly ChainErrorBreakdown[]): CombinedBreakdown {
  const overall = zeroCounts();
  const byPosition = new Map<number, Counts>();
  for (const b of breakdowns) {
    add(overall, b.overall);
    for (const row of b.positions) {
      const at = byPosition.get(row.position) ?? zeroCounts();
      add(at, row);
      byPosition.set(row.position, at);
    }
  }
  const positions = [...byPosition.entries()].sort(([a], [b]) => a - b).map(([position, c]) => ({ position, ...toStats(c) }));
  return { analyses: breakdowns.length, positions, overall: toStats(overall) };
}

/** Figure 4a: each position's unresolved downstream Seq bugs, chain errors split by cause, the rest not chain errors. */
export type CauseBar = { position: number; not_chain_error: number } & Record<Cause, number>;

export function causeBars(combined: CombinedBreakdown): CauseBar[] {
  return combined.positions.map((p) => ({
    position: p.position,
    ...(Object.fromEntries(CAUSES.map((c) => [c, p.causes[c].count])) as Record<Cause, number>),
    not_chain_error: p.unresolved_downstream - p.chain_errors,
  }));
}

/** Figure 4b: each position's chain errors by fingerprint. */
export type FingerprintBar = { position: number } & Record<FingerprintKey, number>;

export function fingerprintBars(combined: CombinedBreakdown): FingerprintBar[] {
  return combined.positions.map((p) => ({
    position: p.position,
    ...(Object.fromEntries(FINGERPRINT_KEYS.map((f) => [f, p.fingerprints[f].count])) as Record<FingerprintKey, number>),
  }));
}

export type ChainErrorFilter = { position?: number; cause?: Cause; fingerprint?: FingerprintKey };

export function filterChainErrors<E extends ChainError>(errors: readonly E[], f: ChainErrorFilter): E[] {
  return errors.filter(
    (e) =>
      (f.position === undefined || e.order === f.position) &&
      (f.cause === undefined || e.cause === f.cause) &&
      (f.fingerprint === undefined || (e.fingerprint ?? "unknown") === f.fingerprint),
  );
}

/** A path with query parameters; missing and empty values left out, arrays repeated (`?system=a&system=b`). */
export function hrefWith(path: string, params: Record<string, string | number | readonly string[] | null | undefined>, hash = ""): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === null || v === undefined || v === "") continue;
    if (Array.isArray(v)) for (const x of v as readonly string[]) q.append(k, x);
    else q.set(k, String(v));
  }
  const s = q.toString();
  return `${path}${s ? `?${s}` : ""}${hash ? `#${hash}` : ""}`;
}

/** A chain error's (or its evidence's prior bug's) failure page. */
export function failurePageHref(submissionId: string, continuousId: string, order: number): string {
  return `/submissions/${encodeURIComponent(submissionId)}/chains/${encodeURIComponent(continuousId)}/bugs/${order}`;
}

// ---------------------------------------------------------------- comparison

export type ChainWinLoss = {
  continuousId: string;
  length: number;
  /** bugs resolved under the scoring */
  a: number;
  b: number;
  winner: "a" | "b" | "tie";
  /** the first unresolved bug's position in each run, null when all resolved */
  firstUnresolved: { a: number | null; b: number | null };
};

const firstUnresolved = (resolved: boolean[]): number | null => {
  const i = resolved.indexOf(false);
  return i < 0 ? null : i + 1;
};

const coveredChains = (run: RunResults): ((id: string) => boolean) => {
  const selected = run.summary.chains_selected ? new Set(run.summary.chains_selected) : null;
  return (id) => !selected || selected.has(id);
};

/**
 * Per chain both runs cover (as pairedComparison pairs them): who resolved more
 * bugs. The wins, losses and ties it counts equal pairedComparison's.
 */
export function chainWinLoss(a: RunResults, b: RunResults, scoring: Scoring): ChainWinLoss[] {
  const inA = coveredChains(a);
  const inB = coveredChains(b);
  const outcomesB = new Map(chainOutcomes(b, scoring).map((o) => [o.continuous_id, o]));
  return chainOutcomes(a, scoring).flatMap((oa) => {
    const ob = outcomesB.get(oa.continuous_id);
    if (!ob || !inA(oa.continuous_id) || !inB(oa.continuous_id)) return [];
    const ra = countResolved(oa);
    const rb = countResolved(ob);
    return [
      {
        continuousId: oa.continuous_id,
        length: oa.length,
        a: ra,
        b: rb,
        winner: ra > rb ? "a" : ra < rb ? "b" : "tie",
        firstUnresolved: { a: firstUnresolved(oa.resolved), b: firstUnresolved(ob.resolved) },
      },
    ];
  });
}

/** A difference in percentage points with its sign: `+12.5`, `−3.0`, `0.0`. */
export function formatPoints(value: number): string {
  const text = formatPercent(value);
  return value > 0 && text !== "0.0" ? `+${text}` : text;
}

/** What the cost-vs-score scatter needs of a leaderboard row. */
export type ScatterSource = {
  submissionId: string;
  system: { name: string };
  mode: Mode;
  costPerChain: number | null;
  perBug: { value: number };
};

export type ScatterPoint = { submissionId: string; label: string; mode: Mode; cost: number; perBug: number; picked: "a" | "b" | null };

/** Rows with a cost become points (the two picked ones marked); rows without one are named so the page can say so. */
export function scatterPoints(rows: readonly ScatterSource[], picked: { a?: string; b?: string }): { points: ScatterPoint[]; withoutCost: string[] } {
  const points: ScatterPoint[] = [];
  const withoutCost: string[] = [];
  for (const r of rows) {
    const label = `${r.system.name} (${r.mode})`;
    if (r.costPerChain === null) {
      withoutCost.push(label);
      continue;
    }
    const mark = r.submissionId === picked.a ? "a" : r.submissionId === picked.b ? "b" : null;
    points.push({ submissionId: r.submissionId, label, mode: r.mode, cost: r.costPerChain, perBug: r.perBug.value, picked: mark });
  }
  return { points, withoutCost };
}

// ---------------------------------------------------------------- exports (CSV and JSON carry the same columns)

export type ExportCell = string | number | boolean | null;
export type ExportTable = { name: string; columns: CsvColumn<Record<string, ExportCell>>[]; rows: Record<string, ExportCell>[] };

/** A table's records as flat objects keyed by column label, in column order. */
export function exportTable<T>(name: string, columns: readonly { label: string; value: (row: T) => ExportCell | undefined }[], rows: readonly T[]): ExportTable {
  return {
    name,
    columns: columns.map((c) => ({ label: c.label, value: (r: Record<string, ExportCell>) => r[c.label] })),
    rows: rows.map((row) => Object.fromEntries(columns.map((c) => [c.label, c.value(row) ?? null]))),
  };
}

/** The export as a download: CSV, or JSON `{ table, ...meta, columns, rows }` with the same columns. */
export function exportResponse(table: ExportTable, format: "csv" | "json", meta: Record<string, ExportCell | string[]> = {}): Response {
  if (format === "csv") return csvResponse(toCsv(table.columns, table.rows), `${table.name}.csv`);
  return json({ table: table.name, ...meta, columns: table.columns.map((c) => c.label), rows: table.rows });
}
