/**
 * GET /api/v1/compare: the tables of /compare as JSON or CSV
 * (`table=difference|chains|systems`, `format=json|csv`, and the page's query:
 * a, b (submission ids), scoring, version). A submission the caller may not
 * read (a bearer token with the "read" scope, or the session) is 404.
 */
import { compareExportQuerySchema } from "@/lib/compare/url";
import { getRequestViewer } from "@/lib/auth/viewer";
import { getComparison } from "@/lib/compare/data";
import { exportResponse } from "@/lib/export/table";
import { errorResponse } from "@/lib/http/requests";
import { compareExport } from "@/lib/compare/export";
import { parseQuery } from "@/lib/view-query";

export async function GET(req: Request): Promise<Response> {
  try {
    const q = parseQuery(compareExportQuerySchema, new URL(req.url).searchParams);
    const view = await getComparison(await getRequestViewer(req, "read"), q);
    const { table, meta } = compareExport(q, view);
    return exportResponse(table, q.format, meta);
  } catch (e) {
    return errorResponse(e);
  }
}
