/**
 * /positions: per-position resolution by configuration and by
 * model, as the paper's Tables 3 and 4, from the public leaderboard rows, and a
 * line chart per configuration (Oracle vs Seq vs Seq+Mem). State in the URL.
 */
import type { Metadata } from "next";
import { ChartFigure, ExportLinks } from "@/components/charts/ChartFigure";
import { PositionChart } from "@/components/positions/PositionChart";
import { PositionFilters } from "@/components/positions/PositionFilters";
import { PositionTable } from "@/components/positions/PositionTable";
import { WindowNote } from "@/components/ui/WindowNote";
import { positionsQuerySchema, type PositionsQuery } from "@/lib/positions/url";
import { getPositionsView } from "@/lib/positions/data";
import { FieldError } from "@/core/errors";
import { positionSeries } from "@/lib/positions/view";
import { hrefWith, parseQuery } from "@/lib/view-query";

export const metadata: Metadata = { title: "Resolution by position · ChainSWE" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function PositionsPage({ searchParams }: Props) {
  let query: PositionsQuery;
  let bad: string | null = null;
  try {
    query = parseQuery(positionsQuerySchema, await searchParams);
  } catch (e) {
    if (!(e instanceof FieldError)) throw e;
    bad = `${e.message}; showing the default view instead.`;
    query = parseQuery(positionsQuerySchema, {});
  }
  const view = await getPositionsView(query);
  const base = { version: view.version, scoring: query.scoring, positions: query.positions, bug_from: query.bug_from, bug_until: query.bug_until, paper: query.paper ? "1" : undefined };
  const page = (extra: Record<string, string>, hash: string) => hrefWith("/positions", { ...base, ...extra }, hash);
  const exportHref = (table: string, format: string) => hrefWith("/api/v1/positions", { ...base, config: query.config, model: query.model, table, format });
  const set = query.positions === "length3" ? "length-3 chains" : "all chains";
  return (
    <main>
      <h1>Resolution by position</h1>
      <p>
        Per-position % = bugs resolved at position <i>p</i> / chains with a bug at <i>p</i>, over {set}. Under Oracle every bug starts
        from the gold state of the ones before it; under Seq (and Seq+Mem) from the agent&apos;s own earlier patches, so a drop at later
        positions is the cost of accumulated state. After each Seq value, its change against the same group&apos;s Oracle value (−29%
        style), from position 2 on.
      </p>
      <PositionFilters view={view} />
      {bad && <p className="error">{bad}</p>}
      <WindowNote window={view.window} clearHref={hrefWith("/positions", { ...base, bug_from: undefined, bug_until: undefined, config: query.config, model: query.model })} />
      {view.rows === 0 ? (
        <p>
          {view.window?.chains === 0
            ? "The bug-date window keeps no chain of this version: widen it or clear it."
            : view.version
            ? `No public evaluated submission on dataset ${view.version} yet: results appear here once a team publishes them and a reviewer approves.`
            : "No dataset has been imported yet."}
        </p>
      ) : (
        <>
          <section aria-labelledby="by-config-heading">
            <h2 id="by-config-heading">By context configuration</h2>
            <p className="muted">
              Mean over the models evaluated with each configuration, as in the paper&apos;s Table 3.
              {query.model && ` Only model ${query.model}.`}
            </p>
            <PositionTable
              id="by-config"
              caption={`Per-position resolution % by configuration (${query.scoring}, ${set})`}
              table={view.byConfig}
              groupHref={(config) => page({ config }, "by-model")}
            />
            <ExportLinks what="this table" csv={exportHref("by_config", "csv")} json={exportHref("by_config", "json")} />
            <div className="chart-grid">
              {view.byConfig.groups.map((g, i) => {
                const series = positionSeries(g);
                const title = `Resolution by position — ${g.key}`;
                return (
                  <ChartFigure key={g.key} id={`position-chart-${i}`} title={title} tableId="by-config" tableName="Per-position resolution % by configuration">
                    <PositionChart title={title} modes={series.modes} data={series.data} />
                  </ChartFigure>
                );
              })}
            </div>
          </section>
          <section aria-labelledby="by-model-heading">
            <h2 id="by-model-heading">By model</h2>
            <p className="muted">
              Mean over the configurations each model was evaluated with, as in the paper&apos;s Table 4.
              {query.config && ` Only configuration ${query.config}.`}
            </p>
            <PositionTable
              id="by-model"
              caption={`Per-position resolution % by model (${query.scoring}, ${set})`}
              table={view.byModel}
              groupHref={(model) => page({ model }, "by-config")}
            />
            <ExportLinks what="this table" csv={exportHref("by_model", "csv")} json={exportHref("by_model", "json")} />
          </section>
        </>
      )}
      {view.reported && (
        <section aria-labelledby="reported-heading" className="reported">
          <h2 id="reported-heading">Reported in the paper, not re-evaluated here</h2>
          <p className="muted">
            The ChainSWE paper&apos;s Tables 3 and 4 as printed: per-position resolution % over its 97 length-3 chains, for comparison
            only. These are not this site&apos;s evaluations and are never ranked with them.
          </p>
          <PositionTable id="reported-by-config" caption="Reported in the paper (Table 3): by configuration, mean over seven models" table={view.reported.byConfig} />
          <ExportLinks what="this table" csv={exportHref("reported_by_config", "csv")} json={exportHref("reported_by_config", "json")} />
          <PositionTable id="reported-by-model" caption="Reported in the paper (Table 4): by model, mean over three configurations" table={view.reported.byModel} />
          <ExportLinks what="this table" csv={exportHref("reported_by_model", "csv")} json={exportHref("reported_by_model", "json")} />
        </section>
      )}
    </main>
  );
}
