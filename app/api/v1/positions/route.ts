/**
 * GET /api/v1/positions: the per-position tables of /positions as JSON or CSV
 * (`table=by_config|by_model`, or the paper's `reported_by_config|reported_by_model`
 * as printed; `format=json|csv`; and the page's query:
 * version, scoring, positions, config, model). Public data only. `vs_oracle` is
 * the relative change against the group's Oracle row as a fraction (−0.29 for −29%).
 */
import { positionsExportQuerySchema } from "@/lib/analysis/url";
import { getPositionsView } from "@/lib/positions/data";
import { exportResponse, exportTable, type ExportCell } from "@/lib/export-table";
import { errorResponse } from "@/lib/http";
import type { PositionTable } from "@/lib/positions/view";
import { parseQuery } from "@/lib/view-query";
import { PAPER_SOURCE, REPORTED_LABEL } from "@/lib/reference/paper";

type Line = { group: string; mode: string; systems: number; position: number; chains: number; value: number | null; vsOracle: number | null };

function lines(table: PositionTable): Line[] {
  return table.groups.flatMap((g) =>
    g.rows.flatMap((r) => r.cells.map((c) => ({ group: g.key, mode: r.mode, systems: r.submissionIds.length, position: c.position, chains: c.chains, value: c.value, vsOracle: c.vsOracle }))),
  );
}

export async function GET(req: Request): Promise<Response> {
  try {
    const q = parseQuery(positionsExportQuerySchema, new URL(req.url).searchParams);
    const reported = q.table.startsWith("reported_");
    const view = await getPositionsView({ ...q, paper: q.paper || reported });
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
      ],
      lines(table),
    );
    const meta: Record<string, ExportCell> = reported ? { source: `${PAPER_SOURCE}, Table ${q.table === "reported_by_config" ? 3 : 4}`, note: REPORTED_LABEL } : { version: view.version, scoring: q.scoring, positions: q.positions };
    return exportResponse(t, q.format, meta);
  } catch (e) {
    return errorResponse(e);
  }
}
