/**
 * The per-position view: the public leaderboard rows of a
 * version as the paper's Tables 3 and 4 (by configuration, by model), read from
 * the scores stored when evaluations completed; the paper's tables as printed
 * when asked for. /positions and its export route share it.
 */
import { positionTable, reportedPositionTable, type PositionTable } from "@/lib/positions/view";
import type { PositionsQuery } from "@/lib/positions/url";
import { reportedPositionsByConfig, reportedPositionsByModel } from "@/lib/reference/paper";
import { getLeaderboardValues } from "@/lib/leaderboard/data";
import { bugWindowOf } from "@/lib/view-query";
import type { WindowSummary } from "@/lib/leaderboard/window";

export type PositionsView = {
  version: string | null;
  versions: string[];
  query: PositionsQuery;
  /** what the bug-date window keeps; null when none is set */
  window: WindowSummary | null;
  configs: string[];
  models: string[];
  /** leaderboard rows (public system × mode) behind the tables */
  rows: number;
  byConfig: PositionTable;
  byModel: PositionTable;
  /** the paper's Tables 3 and 4 when asked for: reported, not re-evaluated here */
  reported: { byConfig: PositionTable; byModel: PositionTable } | null;
};

const distinct = (xs: string[]) => [...new Set(xs)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

export async function getPositionsView(query: PositionsQuery): Promise<PositionsView> {
  // the tables average values only: no interval is computed for them
  const board = await getLeaderboardValues({ version: query.version, scoring: query.scoring, positions: query.positions, window: bugWindowOf(query) });
  const rows = board.rows;
  return {
    version: board.version,
    versions: board.versions,
    query,
    window: board.window,
    configs: distinct(rows.map((r) => r.system.contextConfig)),
    models: distinct(rows.map((r) => r.system.model)),
    rows: rows.length,
    byConfig: positionTable(query.model ? rows.filter((r) => r.system.model === query.model) : rows, "config"),
    byModel: positionTable(query.config ? rows.filter((r) => r.system.contextConfig === query.config) : rows, "model"),
    reported: query.paper
      ? { byConfig: reportedPositionTable(reportedPositionsByConfig(), "config"), byModel: reportedPositionTable(reportedPositionsByModel(), "model") }
      : null,
  };
}
