/**
 * GET /api/v1/dataset/[version]/chains/[chain]?format=json|csv: the chain
 * page's bugs table, problem statements included (docs/API.md). Public; 404
 * for an unknown version or chain, and for a held-out one but to reviewers (SPEC §8).
 */
import { csvResponse, toCsv } from "@/lib/export/csv";
import { getDatasetChainView } from "@/lib/dataset/browser";
import { chainsHiddenFrom } from "@/lib/dataset/held-out";
import { getRequestViewer } from "@/lib/auth/viewer";
import { BUG_COLUMNS } from "@/lib/dataset/export";
import { exportRecords } from "@/lib/export/table";
import { datasetChainQuerySchema } from "@/lib/dataset/url";
import { parseQuery } from "@/lib/view-query";
import { NotFoundError } from "@/core/errors";
import { errorResponse, json } from "@/lib/http/requests";

export async function GET(req: Request, { params }: { params: Promise<{ version: string; chain: string }> }): Promise<Response> {
  try {
    const { version, chain } = await params;
    const q = parseQuery(datasetChainQuerySchema, new URL(req.url).searchParams);
    const view = await getDatasetChainView(version, chain, await chainsHiddenFrom(await getRequestViewer(req, "read"), { version }));
    if (!view) throw new NotFoundError(`chain ${chain} of dataset version ${version}`);
    const rows = view.bugs.map((b) => ({ ...b, continuousId: chain }));
    if (q.format === "csv") return csvResponse(toCsv(BUG_COLUMNS, rows), `chainswe-${version}-${chain}-bugs.csv`);
    return json({ version, chain, population: view.population, rows: exportRecords(BUG_COLUMNS, rows) });
  } catch (e) {
    return errorResponse(e);
  }
}
