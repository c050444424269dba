/**
 * The leaderboard (SPEC §4, §6): one row per public system ×
 * mode on a dataset version, from the scores stored when evaluations completed.
 * Server-rendered from the URL's state with the same pure functions the JSON
 * API uses (lib/leaderboard-*.ts), so the table is complete before any
 * JavaScript runs and a copied URL reproduces the view. The paper's reported
 * rows (item 8) are off by default and kept in their own, unranked table.
 */
import type { Metadata } from "next";
import Link from "next/link";
import { LeaderboardColumns } from "@/components/leaderboard/LeaderboardColumns";
import { LeaderboardControls } from "@/components/leaderboard/LeaderboardControls";
import { LeaderboardTable } from "@/components/leaderboard/LeaderboardTable";
import { WindowNote } from "@/components/ui/WindowNote";
import { completeHeadlines, getLeaderboardValues } from "@/lib/leaderboard/data";
import { getVersionMini } from "@/lib/dataset/data";
import { leaderboardHref, leaderboardViewSchema, parseSort } from "@/lib/leaderboard/url";
import { shownColumns } from "@/lib/leaderboard/columns";
import { leaderboardPageView, shownRows } from "@/lib/leaderboard/view";
import { PAPER_SOURCE, REPORTED_LABEL, reportedMainRows } from "@/lib/reference/paper";
import { bugWindowOf, parseViewQuery } from "@/lib/view-query";

export const metadata: Metadata = { title: "Leaderboard · ChainSWE" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function LeaderboardPage({ searchParams }: Props) {
  const { query: asked, problems } = parseViewQuery(leaderboardViewSchema, await searchParams);
  const board = await getLeaderboardValues({ version: asked.version, scoring: asked.scoring, window: bugWindowOf(asked), test_edits: asked.test_edits, as_of: asked.as_of, split: asked.split });
  // only the rows shown need intervals, and only per-bug and chain ones (under a window, the bootstrap runs for them alone)
  const shown = shownRows(board.rows, { ...asked, version: board.version ?? asked.version }).groups.flatMap((g) => g.rows);
  const complete = new Map((await completeHeadlines(board, shown)).map((r) => [r.submissionId, r]));
  const view = leaderboardPageView(board, complete, asked, asked.paper ? reportedMainRows() : []);
  const { query } = view;
  const mini = board.split === "mini" && board.version && board.versions.includes(board.version) ? await getVersionMini(board.version) : null;
  const api = (format: "csv" | "json") => leaderboardHref(query, { all: false, format }, "/api/v1/leaderboard");
  return (
    <main className="lb-page">
      <h1>Leaderboard</h1>
      <p>
        One row per public system and mode on dataset <strong>{query.version ?? "—"}</strong>. Per-bug % = resolved bugs / all bugs; chain % =
        chains with every bug resolved; each with its 95% bootstrap interval over chains, and after a Seq or Seq+Mem value its change against
        the same system&apos;s Oracle row (−29% style). A row&apos;s system opens its submission, down to every bug&apos;s result and log.
      </p>
      <LeaderboardControls query={query} versions={board.versions} shown={board.version} options={view.options} />
      {problems.length > 0 && (
        <p className="error" role="status">
          Ignored: {problems.map((p) => `${p.field} (${p.message})`).join("; ")}. Showing the default for {problems.length === 1 ? "it" : "them"}.
        </p>
      )}
      {board.split === "mini" && (
        <p className="window-note" role="status" data-testid="mini-note">
          Mini split rows only: {mini ? `${mini.size} of the version's chains, chosen to keep the full board's order (Kendall τ-b ${mini.tau === null ? "undefined" : mini.tau.toFixed(3)} over ${mini.rows} rows)` : "this version has no Mini split"}
          . Scored over those chains and never ranked with the whole version&apos;s rows. <Link href={leaderboardHref(query, { split: undefined })}>The whole version&apos;s board</Link>
        </p>
      )}
      {board.asOf && (
        <p className="window-note" role="status" data-testid="as-of-note">
          Archived: the board of {query.version} as it stood at the end of {board.asOf} (UTC), each row with the scores stored then and the grader
          version they came from. <Link href={leaderboardHref(query, { as_of: undefined })}>Today&apos;s board</Link>
        </p>
      )}
      <WindowNote window={board.window} clearHref={leaderboardHref(query, { bug_from: undefined, bug_until: undefined })} />
      <p className="exports">
        Download this view: <a href={api("csv")} download>CSV</a> · <a href={api("json")} download>JSON</a>
      </p>
      <LeaderboardColumns query={query} />
      {view.empty ? (
        <p className="lb-empty" data-testid="leaderboard-empty">
          {view.empty} {view.filtered && <Link href={leaderboardHref({ version: query.version, scoring: query.scoring, sort: query.sort, group: query.group, paper: query.paper })}>Clear the filters</Link>}
        </p>
      ) : (
        <LeaderboardTable
          id="leaderboard"
          caption={`Public results, dataset ${query.version}, ${query.scoring} scoring: ${view.total} row${view.total === 1 ? "" : "s"}`}
          groups={view.groups}
          query={query}
          sort={parseSort(query.sort)}
          shown={shownColumns(query.cols)}
        />
      )}
      {view.shown < view.total && (
        <p>
          Showing the first {view.shown} of {view.total} rows. <Link href={leaderboardHref(query, { all: true })}>Show all {view.total}</Link>
        </p>
      )}
      {query.paper && (
        <section aria-labelledby="reported-heading" className="lb-reported">
          <h2 id="reported-heading">Reported in the paper, not re-evaluated here</h2>
          <p className="muted">
            The {PAPER_SOURCE}&apos;s Table 2, as published: 100 chains and 304 bugs of the ChainSWE release, SWE-Edit scaffold, Seq and Seq+Mem
            scored strictly{query.scoring === "lenient" ? " (the paper reports no lenient scores)" : ""}; estimated cost; no intervals or
            peak context per row. Shown for reference in the paper&apos;s order, never ranked with the evaluated rows above.
          </p>
          {view.reportedHidden ? (
            <p className="lb-empty">{view.reportedHidden}</p>
          ) : view.reported.length === 0 ? (
            <p className="lb-empty">No reported row matches these filters.</p>
          ) : (
            <LeaderboardTable id="reported" caption={`Results ${REPORTED_LABEL} (paper Table 2)`} groups={view.reported} query={null} sort={null} shown={shownColumns(query.cols)} reported />
          )}
        </section>
      )}
    </main>
  );
}
