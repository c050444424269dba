/**
 * /analysis (SPEC §5): chain errors of the public Seq and
 * Seq+Mem submissions against their systems' public Oracle submissions, summed
 * over the systems picked: the rate by position, the cause and fingerprint
 * splits (charts in the manner of the paper's Figure 4), by system, and every
 * chain error with its evidence, linking to the failure pages.
 */
import type { Metadata } from "next";
import Link from "next/link";
import { CAUSES } from "@/core/analysis";
import { formatPercent } from "@/core/scoring/format";
import { ChainErrorFilters } from "@/components/analysis/ChainErrorFilters";
import { WindowNote } from "@/components/ui/WindowNote";
import { CAUSE_COLOUR, ChainErrorList, ChainErrorPositionTable, ChainErrorSystemTable, FINGERPRINT_COLOUR, type ListHref } from "@/components/analysis/ChainErrorTables";
import { ChartFigure, ExportLinks } from "@/components/charts/ChartFigure";
import { ChartStackedBars } from "@/components/charts/ChartStackedBars";
import { analysisQuerySchema, type AnalysisQuery } from "@/lib/analysis/url";
import { CAUSE_LABELS, FINGERPRINT_LABELS, FINGERPRINT_ORDER, causeBars, fingerprintBars } from "@/lib/analysis/view";
import { getChainErrorView } from "@/lib/analysis/data";
import { FieldError } from "@/core/errors";
import { hrefWith, parseQuery } from "@/lib/view-query";

export const metadata: Metadata = { title: "Chain errors · ChainSWE" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const CAUSE_SERIES = [
  ...CAUSES.map((c) => ({ key: c, label: CAUSE_LABELS[c], colourVar: CAUSE_COLOUR[c] })),
  { key: "not_chain_error", label: "Not a chain error", colourVar: "--cause-not-chain-error" },
];
const FINGERPRINT_SERIES = FINGERPRINT_ORDER.map((f) => ({ key: f, label: FINGERPRINT_LABELS[f], colourVar: FINGERPRINT_COLOUR[f] }));

export default async function AnalysisPage({ searchParams }: Props) {
  let query: AnalysisQuery;
  let bad: string | null = null;
  try {
    query = parseQuery(analysisQuerySchema, await searchParams);
  } catch (e) {
    if (!(e instanceof FieldError)) throw e;
    bad = `${e.message}; showing every system instead.`;
    query = parseQuery(analysisQuerySchema, {});
  }
  const view = await getChainErrorView(query);
  const base = { version: view.version, system: query.system, mode: query.mode, bug_from: query.bug_from, bug_until: query.bug_until };
  const listHref: ListHref = ({ system, ...f }) => hrefWith("/analysis", { ...base, ...(system ? { system: [system] } : {}), ...f }, "errors");
  const narrowing = { position: query.position, cause: query.cause, fingerprint: query.fingerprint };
  const narrowed = Object.values(narrowing).some((v) => v !== undefined);
  const exportHref = (table: string, format: string) => hrefWith("/api/v1/analysis", { ...base, ...narrowing, table, format });
  const o = view.combined.overall;
  const hasUnknown = o.fingerprints.unknown.count > 0;
  return (
    <main className="wide-page">
      <h1>Chain errors</h1>
      <p>
        A <b>chain error</b> is a bug at position 2 or later that a system resolves under Oracle (starting from the gold state) but not
        under Seq (starting from its own earlier patches): the failure comes from the chain, not the bug. Its cause is traced to prior
        bugs: <b>overshoot</b> when an earlier patch edited a file outside its gold patch that this bug needs, <b>undershoot</b> when it
        skipped a gold file, <b>both</b>, or <b>unattributed</b>. The paper reports 48% of downstream Seq failures as chain errors, and
        fingerprints of 40% broke working code, 25% left unfixed, 34% no usable patch.
      </p>
      <ChainErrorFilters view={view} />
      {bad && <p className="error">{bad}</p>}
      <WindowNote window={view.window} clearHref={hrefWith("/analysis", { ...base, bug_from: undefined, bug_until: undefined })} />
      {view.analyses.length === 0 ? (
        <p>
          {view.systems.length === 0
            ? `No chain-error analysis on dataset ${view.version ?? "—"} yet: it needs a system's public Seq (or Seq+Mem) and public Oracle results.`
            : "No analysis matches these filters."}
        </p>
      ) : (
        <>
          <p className="summary-line">
            {view.analyses.length} {view.analyses.length === 1 ? "analysis" : "analyses"}: <b>{o.chain_errors}</b> chain errors of{" "}
            {o.unresolved_downstream} unresolved downstream Seq bugs ({formatPercent(o.rate)}%).
          </p>
          <section aria-labelledby="by-position-heading">
            <h2 id="by-position-heading">By position</h2>
            <ChainErrorPositionTable combined={view.combined} href={listHref} />
            <ExportLinks what="this table" csv={exportHref("positions", "csv")} json={exportHref("positions", "json")} />
            <div className="chart-grid">
              <ChartFigure id="cause-chart" title="Unresolved downstream Seq bugs by position: chain errors by cause" tableId="by-position" tableName="Chain errors by position">
                <ChartStackedBars
                  title="Unresolved downstream Seq bugs by position: chain errors by cause"
                  data={causeBars(view.combined)}
                  series={CAUSE_SERIES}
                  yLabel="Unresolved bugs"
                />
              </ChartFigure>
              <ChartFigure id="fingerprint-chart" title="Chain errors by position and fingerprint" tableId="by-position" tableName="Chain errors by position">
                <ChartStackedBars
                  title="Chain errors by position and fingerprint"
                  data={fingerprintBars(view.combined)}
                  series={hasUnknown ? FINGERPRINT_SERIES : FINGERPRINT_SERIES.filter((s) => s.key !== "unknown")}
                  yLabel="Chain errors"
                />
              </ChartFigure>
            </div>
          </section>
          <section aria-labelledby="by-system-heading">
            <h2 id="by-system-heading">By system</h2>
            <ChainErrorSystemTable analyses={view.analyses} href={listHref} />
            <ExportLinks what="this table" csv={exportHref("systems", "csv")} json={exportHref("systems", "json")} />
          </section>
          <section aria-labelledby="errors-heading" id="errors">
            <h2 id="errors-heading">Every chain error</h2>
            <p>
              {narrowed ? (
                <>
                  {view.errors.length} of {view.errorsTotal}, narrowed to
                  {query.position !== undefined && ` position ${query.position}`}
                  {query.cause && ` cause ${CAUSE_LABELS[query.cause].toLowerCase()}`}
                  {query.fingerprint && ` fingerprint “${FINGERPRINT_LABELS[query.fingerprint].toLowerCase()}”`}.{" "}
                  <Link href={hrefWith("/analysis", base, "errors")}>Show all</Link>
                </>
              ) : (
                `${view.errors.length} chain errors. Each opens its failure page; the evidence links the prior bug.`
              )}
            </p>
            {view.errors.length > 0 && <ChainErrorList errors={view.errors} />}
            <ExportLinks what="this list" csv={exportHref("errors", "csv")} json={exportHref("errors", "json")} />
          </section>
        </>
      )}
    </main>
  );
}
