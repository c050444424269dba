/**
 * GET /api/v1/analysis: the tables of /analysis as JSON or CSV
 * (`table=positions|systems|errors`, `format=json|csv`, and the page's query:
 * version, system (repeatable), mode, and for the list position, cause,
 * fingerprint). Public data only. Shares and rates are percentages.
 */
import { analysisExportQuerySchema } from "@/lib/analysis/url";
import { getChainErrorView } from "@/lib/analysis/data";
import { exportResponse } from "@/lib/export/table";
import { errorResponse } from "@/lib/http/requests";
import { analysisExport } from "@/lib/analysis/export";
import { parseQuery } from "@/lib/view-query";

export async function GET(req: Request): Promise<Response> {
  try {
    const q = parseQuery(analysisExportQuerySchema, new URL(req.url).searchParams);
    const view = await getChainErrorView(q);
    const { table, meta } = analysisExport(q, view);
    return exportResponse(table, q.format, meta);
  } catch (e) {
    return errorResponse(e);
  }
}
