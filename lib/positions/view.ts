/**
 * The per-position tables and charts (the paper's Tables 3
 * and 4): resolution at each chain position by configuration or by model, the
 * change against the group's Oracle row, the paper's reported tables in the
 * same shape, and the line chart's series. Pure: /positions, its export and
 * the tests all call these, so a table, its chart and its CSV cannot disagree.
 */
import { relativeChange, type PositionRate } from "@/core/scoring";
import { MODES, type Mode } from "@/core/schemas/prediction";

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const mean = (xs: readonly number[]): number | null => (xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length);

/** What a per-position table needs of a leaderboard row. */
export type PositionSource = {
  submissionId: string;
  system: { model: string; contextConfig: string };
  mode: Mode;
  perPosition: Omit<PositionRate, "ci">[];
  /** a row of repeated runs (SPEC §7): each position's lowest and highest run */
  runs?: { perPosition: { position: number; min: number; max: number }[] } | null;
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
  /**
   * Run-to-run spread when a system of the cell has repeated runs: the mean
   * over its systems of each one's lowest run and of its highest (a single run
   * counts as both), so it brackets `value`; null when every system ran once.
   */
  runs: { min: number; max: number } | null;
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
        const spans = ofMode.flatMap((s) => {
          const rate = s.perPosition.find((p) => p.position === position);
          if (!rate) return [];
          return [s.runs?.perPosition.find((p) => p.position === position) ?? { min: rate.value, max: rate.value, single: true }];
        });
        const repeated = spans.some((x) => !("single" in x));
        return {
          position,
          value: mean(rates.map((r) => r.value)),
          vsOracle: null,
          chains: Math.max(0, ...rates.map((r) => r.n)),
          runs: repeated ? { min: mean(spans.map((x) => x.min))!, max: mean(spans.map((x) => x.max))! } : null,
        };
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
