/**
 * /compare: two systems × modes picked from the leaderboard
 * (or submissions the viewer may read): their paired per-bug difference with a
 * 95% interval, who resolved more on each chain, and cost against per-bug %
 * for every public system. State in the URL: ?a=<submission>&b=<submission>&scoring=.
 */
import type { Metadata } from "next";
import { ChartFigure, ExportLinks } from "@/components/charts/ChartFigure";
import { CompareChainTable, CompareDifference, CompareSystemsTable } from "@/components/compare/CompareTables";
import { CompareForm } from "@/components/compare/CompareForm";
import { CompareScatter } from "@/components/compare/CompareScatter";
import { compareQuerySchema, type CompareQuery } from "@/lib/compare/url";
import { getViewer } from "@/lib/auth/viewer";
import { getComparison, type CompareView } from "@/lib/compare/data";
import { FieldError, NotFoundError } from "@/core/errors";
import { hrefWith, parseQuery } from "@/lib/view-query";

export const metadata: Metadata = { title: "Compare systems · ChainSWE" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** The view, or (for a bad or unreadable pick) the view without picks and why. */
async function load(raw: Record<string, string | string[] | undefined>): Promise<{ view: CompareView; bad: string | null }> {
  const viewer = await getViewer();
  let query: CompareQuery;
  try {
    query = parseQuery(compareQuerySchema, raw);
  } catch (e) {
    if (!(e instanceof FieldError)) throw e;
    return { view: await getComparison(viewer, parseQuery(compareQuerySchema, {})), bad: `${e.message}; pick again.` };
  }
  try {
    return { view: await getComparison(viewer, query), bad: null };
  } catch (e) {
    if (!(e instanceof FieldError) && !(e instanceof NotFoundError)) throw e;
    const bad = e instanceof NotFoundError ? "One of the picked submissions was not found; pick again." : `${e.message}; pick again.`;
    return { view: await getComparison(viewer, { version: query.version, scoring: query.scoring }), bad };
  }
}

export default async function ComparePage({ searchParams }: Props) {
  const { view, bad } = await load(await searchParams);
  const q = { version: view.version, a: view.a?.submissionId, b: view.b?.submissionId, scoring: view.query.scoring };
  const exportHref = (table: string, format: string) => hrefWith("/api/v1/compare", { ...q, table, format });
  const title = `Cost per chain against per-bug % (${view.query.scoring})`;
  return (
    <main>
      <h1>Compare two systems</h1>
      <p>
        Pick two systems and modes. The difference in per-bug % is paired: both are scored on the same chains, and the 95% interval
        resamples those chains, so it reads directly as &ldquo;is A better than B on this benchmark&rdquo;.
      </p>
      <CompareForm view={view} />
      {bad && <p className="error">{bad}</p>}
      {view.a && view.b && view.problem && <p className="error">These two cannot be compared: {view.problem}.</p>}
      {view.paired && (
        <>
          <section aria-labelledby="difference-heading">
            <h2 id="difference-heading">Paired difference</h2>
            <CompareDifference view={view} />
            <ExportLinks what="this table" csv={exportHref("difference", "csv")} json={exportHref("difference", "json")} />
          </section>
          <section aria-labelledby="chains-heading" id="chains">
            <h2 id="chains-heading">Chain by chain</h2>
            <CompareChainTable view={view} />
            <ExportLinks what="this table" csv={exportHref("chains", "csv")} json={exportHref("chains", "json")} />
          </section>
        </>
      )}
      <section aria-labelledby="systems-heading">
        <h2 id="systems-heading">Cost and score of every system</h2>
        {view.rows.length === 0 ? (
          <p>No public evaluated submission on dataset {view.version ?? "—"} yet.</p>
        ) : (
          <>
            <div className="chart-grid">
              <ChartFigure id="scatter-chart" title={title} tableId="systems-table" tableName="Every public system and mode" tall>
                <CompareScatter title={title} points={view.scatter.points} />
              </ChartFigure>
            </div>
            {view.scatter.withoutCost.length > 0 && (
              <p className="muted">Not plotted, no cost reported: {view.scatter.withoutCost.join(", ")}.</p>
            )}
            <CompareSystemsTable view={view} />
            <ExportLinks what="this table" csv={exportHref("systems", "csv")} json={exportHref("systems", "json")} />
          </>
        )}
      </section>
    </main>
  );
}
