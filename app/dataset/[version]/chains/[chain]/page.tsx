/**
 * /dataset/[version]/chains/[chain]: one chain's facts and its
 * bugs in order (problem statement as escaped text, gold files, test counts,
 * solve rates by mode), each bug down to every public system's failure page,
 * and how well the chain and its bugs still discriminate (SPEC §4), per mode.
 */
import type { Metadata } from "next";
import type { ReactNode } from "react";
import Link from "next/link";
import { notFound } from "next/navigation";
import { DatasetBugOutcomes } from "@/components/dataset/DatasetBugOutcomes";
import { DatasetExportLinks } from "@/components/dataset/DatasetExportLinks";
import { DatasetProblemStatement } from "@/components/dataset/DatasetProblemStatement";
import { DatasetBugsTable } from "@/components/dataset/DatasetTables";
import { chainHref, datasetHref } from "@/lib/dataset/url";
import { getDatasetChainView } from "@/lib/dataset/browser";
import { chainsHiddenFrom } from "@/lib/dataset/held-out";
import { getViewer } from "@/lib/auth/viewer";
import { formatSolveRate, shownRateKeys } from "@/lib/dataset/solve-rates";
import { FactList } from "@/components/ui/FactList";
import { DiscriminationBugsTable } from "@/components/dataset/DiscriminationTables";
import { discriminationFlags, chainDiscriminationViews } from "@/lib/dataset/discrimination";
import { MODE_LABELS } from "@/core/scoring/format";

export const metadata: Metadata = { title: "Chain · ChainSWE" };

type Props = { params: Promise<{ version: string; chain: string }> };

export default async function DatasetChainPage({ params }: Props) {
  const { version, chain } = await params;
  const hidden = await chainsHiddenFrom(await getViewer(), { version });
  const view = await getDatasetChainView(version, chain, hidden);
  if (!view) notFound();
  const discrimination = await chainDiscriminationViews(version, chain, hidden);
  const c = view.chain;
  const facts: [string, ReactNode][] = [
    ["Repository", <Link key="r" href={datasetHref(version, { repo: c.repo })}>{c.repo}</Link>],
    ["Length", `${c.length} bugs`],
    ["Dates", c.dateRange],
    ["Source", c.source],
    ["Image", <code key="i">{c.dockerImage}</code>],
    ["Base commit", <code key="b" title={c.baseCommit}>{c.baseCommit.slice(0, 12)}</code>],
    ["Log parser", c.logParser],
    ["Whole chain solved", formatSolveRate(c.solved.all)],
  ];
  const exportHref = (format: "csv" | "json") => `/api/v1/dataset/${encodeURIComponent(version)}/chains/${encodeURIComponent(chain)}?format=${format}`;
  return (
    <main>
      <nav aria-label="Breadcrumb" className="muted">
        <Link href="/dataset">Dataset</Link> / <Link href={datasetHref(version)}>{version}</Link> / {c.continuousId}
      </nav>
      <h1>{c.continuousId}</h1>
      <FactList facts={facts} />
      <p className="pager">
        {view.previous ? <Link href={chainHref(version, view.previous)}>← {view.previous}</Link> : <span />}
        {view.next && <Link href={chainHref(version, view.next)}>{view.next} →</Link>}
      </p>

      <section aria-labelledby="bugs-heading">
        <h2 id="bugs-heading">Bugs</h2>
        <p className="muted">
          Bug <i>k</i> starts from the fix of bug <i>k</i>−1. Solved: share of the public systems&apos; newest evaluated submissions (per mode)
          whose own grade resolved the bug; the counts are solved / attempted.
        </p>
        <DatasetBugsTable bugs={view.bugs} keys={shownRateKeys(view.population)} />
        <DatasetExportLinks label="bugs" href={exportHref} />
      </section>

      <section aria-labelledby="discrimination-heading">
        <h2 id="discrimination-heading">Does it still discriminate?</h2>
        {discrimination.length === 0 ? (
          <p className="muted">No figures yet: they are computed when the board&apos;s rows are ranked (a publication, or chainswe aggregates refresh).</p>
        ) : (
          discrimination.map((d) => {
            const own = d.chains[0]!;
            return (
              <div key={d.mode} data-testid={`discrimination-${d.mode}`}>
                <p>
                  <strong>{MODE_LABELS[d.mode]}</strong> ({d.rows} published row(s), strict scoring): the whole chain solved by{" "}
                  <span className="num-inline">{(100 * own.solve_rate).toFixed(1)}%</span> of the rows, point-biserial{" "}
                  <span className="num-inline">{own.point_biserial === null ? "—" : own.point_biserial.toFixed(3)}</span>, difficulty{" "}
                  <span className="num-inline">{own.difficulty.toFixed(2)}</span>
                  {discriminationFlags(own, d.top_n).length > 0 && <> — {discriminationFlags(own, d.top_n).join("; ")}</>}.
                </p>
                <DiscriminationBugsTable view={d} />
              </div>
            );
          })
        )}
        <p className="muted">
          Point-biserial: the outcome against the rows&apos; overall chain %. Difficulty: a Rasch model fitted to all the rows × bugs (for the chain, rows × chains), SPEC §4.{" "}
          <Link href={`${datasetHref(version)}#discrimination-heading`}>Every chain&apos;s figures</Link>
        </p>
      </section>

      {view.bugs.map((b) => (
        <section key={b.order} id={`bug-${b.order}`} className="bug-section" aria-labelledby={`bug-${b.order}-heading`}>
          <h3 id={`bug-${b.order}-heading`}>
            Bug {b.order}: <code>{b.swebenchInstanceId}</code>
          </h3>
          <p className="muted">
            {b.date.slice(0, 10)} · commit <code>{b.commitHash.slice(0, 12)}</code> · tests: {b.failToPass} FAIL_TO_PASS, {b.passToPass} PASS_TO_PASS ·
            test files: {b.testFiles.map((f) => f).join(", ") || "—"}
          </p>
          <DatasetProblemStatement text={b.problemStatement} />
          <DatasetBugOutcomes id={`bug-${b.order}-outcomes`} continuousId={c.continuousId} order={b.order} outcomes={b.outcomes} />
        </section>
      ))}
    </main>
  );
}
