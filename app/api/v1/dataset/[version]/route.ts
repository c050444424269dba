/**
 * GET /api/v1/dataset/[version]?table=chains|positions&positions=length3|all&repo=&format=json|csv:
 * the /dataset/[version] page's tables (docs/API.md). Public; 404 for an unknown version.
 */
import { csvResponse, toCsv } from "@/lib/export/csv";
import { getDatasetVersionView } from "@/lib/dataset/browser";
import { chainsHiddenFrom } from "@/lib/dataset/held-out";
import { getRequestViewer } from "@/lib/auth/viewer";
import { CHAIN_COLUMNS, POSITION_COLUMNS } from "@/lib/dataset/export";
import { exportRecords } from "@/lib/export/table";
import { datasetVersionQuerySchema } from "@/lib/dataset/url";
import { parseQuery } from "@/lib/view-query";
import { NotFoundError } from "@/core/errors";
import { errorResponse, json } from "@/lib/http/requests";

export async function GET(req: Request, { params }: { params: Promise<{ version: string }> }): Promise<Response> {
  try {
    const { version } = await params;
    const q = parseQuery(datasetVersionQuerySchema, new URL(req.url).searchParams);
    const view = await getDatasetVersionView(version, await chainsHiddenFrom(await getRequestViewer(req, "read"), { version }), q.positions);
    if (!view) throw new NotFoundError(`dataset version ${version}`);
    const name = `chainswe-${version}-${q.table}${q.table === "positions" ? `-${q.positions}` : ""}`;
    const meta = { version, table: q.table, positions: q.positions, population: view.population };
    if (q.table === "positions") {
      if (q.format === "csv") return csvResponse(toCsv(POSITION_COLUMNS, view.positionRates), `${name}.csv`);
      return json({ ...meta, rows: exportRecords(POSITION_COLUMNS, view.positionRates) });
    }
    const chains = q.repo ? view.chains.filter((c) => c.repo === q.repo) : view.chains;
    if (q.format === "csv") return csvResponse(toCsv(CHAIN_COLUMNS, chains), `${name}.csv`);
    return json({ ...meta, repo: q.repo ?? null, rows: exportRecords(CHAIN_COLUMNS, chains) });
  } catch (e) {
    return errorResponse(e);
  }
}
