/**
 * GET /api/v1/positions: the per-position tables of /positions as JSON or CSV
 * (`table=by_config|by_model`, or the paper's `reported_by_config|reported_by_model`
 * as printed; `format=json|csv`; and the page's query:
 * version, scoring, positions, config, model). Public data only. `vs_oracle` is
 * the relative change against the group's Oracle row as a fraction (−0.29 for −29%).
 */
import { positionsExportQuerySchema } from "@/lib/positions/url";
import { getPositionsView } from "@/lib/positions/data";
import { exportResponse } from "@/lib/export/table";
import { errorResponse } from "@/lib/http/requests";
import { positionsExport } from "@/lib/positions/export";
import { parseQuery } from "@/lib/view-query";

export async function GET(req: Request): Promise<Response> {
  try {
    const q = parseQuery(positionsExportQuerySchema, new URL(req.url).searchParams);
    const reported = q.table.startsWith("reported_");
    const view = await getPositionsView({ ...q, paper: q.paper || reported });
    const { table, meta } = positionsExport(q, view);
    return exportResponse(table, q.format, meta);
  } catch (e) {
    return errorResponse(e);
  }
}
