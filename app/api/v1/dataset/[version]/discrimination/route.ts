/**
 * GET /api/v1/dataset/[version]/discrimination?table=chains|bugs&scoring=strict|lenient&mode=&format=json|csv:
 * each chain's (or bug's) solve rate, point-biserial, Rasch difficulty and
 * flags over the version's board, as the ranking refresh stored them (SPEC §4,
 * docs/API.md). Public; 404 for an unknown version or when none are stored for
 * the scoring and mode. Held-out chains (SPEC §8) and their bugs are left out
 * but for reviewers.
 */
import { csvResponse, toCsv } from "@/lib/export/csv";
import { getRequestViewer } from "@/lib/auth/viewer";
import { getDiscriminationView } from "@/lib/dataset/discrimination";
import { DISCRIMINATION_BUG_COLUMNS, DISCRIMINATION_CHAIN_COLUMNS } from "@/lib/dataset/export";
import { chainsHiddenFrom } from "@/lib/dataset/held-out";
import { discriminationQuerySchema } from "@/lib/dataset/url";
import { exportRecords } from "@/lib/export/table";
import { parseQuery } from "@/lib/view-query";
import { NotFoundError } from "@/core/errors";
import { errorResponse, json } from "@/lib/http/requests";

export async function GET(req: Request, { params }: { params: Promise<{ version: string }> }): Promise<Response> {
  try {
    const { version } = await params;
    const q = parseQuery(discriminationQuerySchema, new URL(req.url).searchParams);
    const view = await getDiscriminationView(version, await chainsHiddenFrom(await getRequestViewer(req, "read"), { version }), q);
    if (!view) throw new NotFoundError(`discrimination figures of dataset version ${version}${q.mode ? ` in mode ${q.mode}` : ""}`);
    const name = `chainswe-${version}-discrimination-${view.scoring}-${view.mode}-${q.table}`;
    if (q.format === "csv") return q.table === "bugs" ? csvResponse(toCsv(DISCRIMINATION_BUG_COLUMNS, view.bugs), `${name}.csv`) : csvResponse(toCsv(DISCRIMINATION_CHAIN_COLUMNS, view.chains), `${name}.csv`);
    const meta = {
      version,
      table: q.table,
      scoring: view.scoring,
      mode: view.mode,
      modes: view.modes,
      computed_at: view.computedAt.toISOString(),
      board_rows: view.rows,
      top_n: view.top_n,
      chains_shown: view.chains.length,
      chains_discriminating: view.discriminating,
      fit: view.fit,
    };
    return json({ ...meta, rows: q.table === "bugs" ? exportRecords(DISCRIMINATION_BUG_COLUMNS, view.bugs) : exportRecords(DISCRIMINATION_CHAIN_COLUMNS, view.chains) });
  } catch (e) {
    return errorResponse(e);
  }
}
