/**
 * GET /api/v1/leaderboard: the leaderboard's current view as JSON (default) or
 * CSV (`format=csv`), read-only and public (public results only, no token
 * needed). The query is the page's URL state (lib/leaderboard/url.ts, one zod
 * schema): version, scoring, mode, config, model, open_weights, open_scaffold,
 * from, to, as_of (the board as it stood that day), split (full or mini), sort, group, paper. Every matching row, in the page's order.
 * Documented in docs/API.md ("Leaderboard").
 *
 * The serialized answer for a query is kept while the data behind the
 * leaderboard is unchanged (about as fast as a static file).
 */
import { csvResponse, toCsv } from "@/lib/export/csv";
import { derivedFromLeaderboard, getLeaderboard } from "@/lib/leaderboard/data";
import { FieldError } from "@/core/errors";
import { errorResponse } from "@/lib/http/requests";
import { leaderboardApiQuerySchema, leaderboardSearch, type LeaderboardApiQuery } from "@/lib/leaderboard/url";
import { selectReportedRows, selectRows } from "@/lib/leaderboard/rows";
import { reportedMainRows } from "@/lib/reference/paper";
import { bugWindowOf, parseQuery } from "@/lib/view-query";
import { CSV_COLUMNS, csvLines, leaderboardDocument } from "@/lib/leaderboard/export";

type Answer = { format: "json" | "csv"; text: string; filename: string };

async function answer(query: LeaderboardApiQuery): Promise<Answer> {
  const board = await getLeaderboard({ version: query.version, scoring: query.scoring, window: bugWindowOf(query), test_edits: query.test_edits, as_of: query.as_of, split: query.split });
  if (query.version && !board.versions.includes(query.version)) {
    throw new FieldError("version", `no dataset version ${query.version} (there are: ${board.versions.join(", ") || "none"})`);
  }
  const view = { ...query, version: board.version ?? undefined };
  const rows = selectRows(board.rows, view).flatMap((g) => g.rows);
  const paper = selectReportedRows(query.paper ? reportedMainRows() : [], view);
  const reported = paper.rows.flatMap((g) => g.rows);
  const filename = `chainswe-leaderboard-${board.version ?? "none"}${board.split === "mini" ? "-mini" : ""}-${query.scoring}${board.asOf ? `-as-of-${board.asOf}` : ""}.csv`;
  if (query.format === "csv") return { format: "csv", text: toCsv(CSV_COLUMNS, csvLines(rows, reported)), filename };
  return { format: "json", text: JSON.stringify(leaderboardDocument(board, view, rows, reported, paper.hiddenBecause)), filename };
}

export async function GET(req: Request): Promise<Response> {
  try {
    const query = parseQuery(leaderboardApiQuerySchema, new URL(req.url).searchParams);
    const a = await derivedFromLeaderboard(`api?${leaderboardSearch(query)}`, () => answer(query));
    if (a.format === "csv") return csvResponse(a.text, a.filename);
    // the text as lib/http/requests.ts json() would send it, serialized once
    return new Response(a.text, { headers: { "content-type": "application/json", "cache-control": "no-store" } });
  } catch (e) {
    return errorResponse(e);
  }
}
