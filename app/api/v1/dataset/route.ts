/**
 * GET /api/v1/dataset?table=versions|repositories&format=json|csv: the /dataset
 * page's tables (docs/API.md). Public.
 */
import { toCsv, csvResponse } from "@/lib/export/csv";
import { getDatasetIndex } from "@/lib/dataset/browser";
import { REPOSITORY_COLUMNS, VERSION_COLUMNS } from "@/lib/dataset/export";
import { exportRecords } from "@/lib/export/table";
import { datasetIndexQuerySchema } from "@/lib/dataset/url";
import { parseQuery } from "@/lib/view-query";
import { errorResponse, json } from "@/lib/http/requests";

export async function GET(req: Request): Promise<Response> {
  try {
    const q = parseQuery(datasetIndexQuerySchema, new URL(req.url).searchParams);
    const { versions } = await getDatasetIndex();
    if (q.table === "versions") {
      if (q.format === "csv") return csvResponse(toCsv(VERSION_COLUMNS, versions), "chainswe-dataset-versions.csv");
      return json({ table: q.table, rows: exportRecords(VERSION_COLUMNS, versions) });
    }
    const rows = versions.flatMap((v) => v.repositories.map((r) => ({ ...r, version: v.version })));
    if (q.format === "csv") return csvResponse(toCsv(REPOSITORY_COLUMNS, rows), "chainswe-dataset-repositories.csv");
    return json({ table: q.table, rows: exportRecords(REPOSITORY_COLUMNS, rows) });
  } catch (e) {
    return errorResponse(e);
  }
}
