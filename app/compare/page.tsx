/**
 * /compare: two systems × modes picked from the leaderboard
 * (or submissions the viewer may read): their paired per-bug difference with a
 * 95% interval, who resolved more on each chain, and cost against per-bug %
 * for every public system, and every system's per-bug % and chain % under a cap on
 * per-bug cost, steps or wall time. State in the URL: ?a=<submission>&b=<submission>&scoring=&effort=.
 */
import type { Metadata } from "next";
import { ChartFigure, ExportLinks } from "@/components/charts/ChartFigure";
import { CompareChainTable, CompareDifference, CompareSystemsTable } from "@/components/compare/CompareTables";
import { CompareForm } from "@/components/compare/CompareForm";
import { CompareScatter } from "@/components/compare/CompareScatter";
import { CompareBudgetChart } from "@/components/compare/CompareBudgetChart";
import { BudgetEffortChoice, CompareBudgetTable } from "@/components/compare/CompareBudget";
import { EFFORT_LABELS } from "@/lib/compare/budget";
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
    return { view: await getComparison(viewer, { version: query.version, scoring: query.scoring, effort: query.effort }), bad };
  }
}

export default async function ComparePage({ searchParams }: Props) {
  const { view, bad } = await load(await searchParams);
  const q = { version: view.version, a: view.a?.submissionId, b: view.b?.submissionId, scoring: view.query.scoring, effort: view.query.effort };
  const exportHref = (table: string, format: string) => hrefWith("/api/v1/compare", { ...q, table, format });
  const title = `Cost per chain against per-bug % (${view.query.scoring})`;
  const effort = EFFORT_LABELS[view.query.effort];
  const withoutCurve = view.budget.filter((s) => s.curve.points.length === 0);
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
      {view.rows.length > 0 && (
        <section aria-labelledby="budget-heading" id="budget">
          <h2 id="budget-heading">Within a budget</h2>
          <p>
            Each system&rsquo;s per-bug % and chain % when a bug may spend at most a given {effort}. A bug over the cap counts as unresolved, and in Seq so does
            every later bug of its chain: a lower bound, since the state those bugs were graded on would not have existed. Bugs with no {effort} recorded are
            left out and counted in the table.
          </p>
          <BudgetEffortChoice view={view} />
          <div className="chart-grid">
            {(["per_bug", "chain"] as const).map((metric) => {
              const chartTitle = `${metric === "per_bug" ? "Per-bug %" : "Chain %"} under a cap on ${effort} per bug (${view.query.scoring})`;
              return (
                <ChartFigure key={metric} id={`budget-${metric}-chart`} title={chartTitle} tableId="budget-table" tableName="Within a budget" tall>
                  <CompareBudgetChart title={chartTitle} metric={metric} kind={view.query.effort} series={view.budget} />
                </ChartFigure>
              );
            })}
          </div>
          {withoutCurve.length > 0 && (
            <p className="muted">
              Not drawn, no {effort} recorded: {withoutCurve.map((s) => `${s.system} (${s.mode})`).join(", ")}.
            </p>
          )}
          <CompareBudgetTable view={view} />
          <ExportLinks what="the curves" csv={exportHref("budget", "csv")} json={exportHref("budget", "json")} />
        </section>
      )}
    </main>
  );
}
