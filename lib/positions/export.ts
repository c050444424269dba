/**
 * /positions' tables for GET /api/v1/positions: their columns as JSON fields and
 * CSV headers (`table=by_config|by_model|reported_by_config|reported_by_model`).
 */
import type { z } from "zod";
import type { positionsExportQuerySchema } from "@/lib/positions/url";
import type { getPositionsView } from "@/lib/positions/data";
import { exportTable, type ExportCell, type ExportMeta, type ExportTable } from "@/lib/export/table";
import type { PositionTable } from "@/lib/positions/view";
import { windowMeta } from "@/lib/leaderboard/window";
import { PAPER_SOURCE, REPORTED_LABEL } from "@/lib/reference/paper";

type Line = { group: string; mode: string; systems: number; position: number; chains: number; value: number | null; vsOracle: number | null; runs: { min: number; max: number } | null };

function lines(table: PositionTable): Line[] {
  return table.groups.flatMap((g) =>
    g.rows.flatMap((r) => r.cells.map((c) => ({ group: g.key, mode: r.mode, systems: r.submissionIds.length, position: c.position, chains: c.chains, value: c.value, vsOracle: c.vsOracle, runs: c.runs }))),
  );
}

/** The table asked for (`q.table`) and the facts that go with it, for JSON or CSV (exportResponse). */
export function positionsExport(q: z.infer<typeof positionsExportQuerySchema>, view: Awaited<ReturnType<typeof getPositionsView>>): { table: ExportTable; meta: ExportMeta } {
  const reported = q.table.startsWith("reported_");
  const tables = { by_config: view.byConfig, by_model: view.byModel, reported_by_config: view.reported?.byConfig, reported_by_model: view.reported?.byModel };
  const table = tables[q.table] as PositionTable;
  const name = reported ? `chainswe-positions-${q.table}` : `chainswe-positions-${q.table}-${view.version ?? "none"}-${q.scoring}-${q.positions}`;
  const t = exportTable<Line>(
    name,
    [
      { label: q.table.endsWith("by_config") ? "configuration" : "model", value: (l) => l.group },
      { label: "mode", value: (l) => l.mode },
      { label: "systems", value: (l) => (reported ? null : l.systems) },
      { label: "position", value: (l) => l.position },
      { label: "chains", value: (l) => l.chains },
      { label: "resolved_pct", value: (l) => l.value },
      { label: "vs_oracle", value: (l) => l.vsOracle },
      // repeated runs (SPEC §7): the cell's run-to-run spread (lib/positions/view.ts); empty when every system ran once
      { label: "runs_min_pct", value: (l) => l.runs?.min ?? null },
      { label: "runs_max_pct", value: (l) => l.runs?.max ?? null },
    ],
    lines(table),
  );
  const meta: Record<string, ExportCell> = reported ? { source: `${PAPER_SOURCE}, Table ${q.table === "reported_by_config" ? 3 : 4}`, note: REPORTED_LABEL } : { version: view.version, scoring: q.scoring, positions: q.positions, ...windowMeta(view.window) };
  return { table: t, meta };
}
