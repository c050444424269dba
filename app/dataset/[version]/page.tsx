/**
 * /dataset/[version]: the version's chains (length, dates,
 * source, image) with how often public systems solved each whole chain, the
 * solve rate by position, and the chains that still discriminate (SPEC §4).
 * State in the URL: `positions`, `repo`, and the last section's `scoring`, `mode`.
 */
import type { Metadata } from "next";
import Link from "next/link";
import { leaderboardHref } from "@/lib/leaderboard/url";
import { notFound } from "next/navigation";
import { DatasetExportLinks } from "@/components/dataset/DatasetExportLinks";
import { DiscriminationChainsTable } from "@/components/dataset/DiscriminationTables";
import { discriminationSummary, getDiscriminationView } from "@/lib/dataset/discrimination";
import { MODE_LABELS } from "@/core/scoring/format";
import { DatasetChainsTable, DatasetPositionsTable, DatasetSourcesTable } from "@/components/dataset/DatasetTables";
import { getDatasetVersionView } from "@/lib/dataset/browser";
import { chainsHiddenFrom } from "@/lib/dataset/held-out";
import { getViewer } from "@/lib/auth/viewer";
import { shownRateKeys, type Population } from "@/lib/dataset/solve-rates";
import { datasetHref, datasetVersionPageQuerySchema } from "@/lib/dataset/url";
import { parseViewQuery } from "@/lib/view-query";
import { utcDay } from "@/core/format";
import { getVersionMini, getVersionRelease, getVersionRules } from "@/lib/dataset/data";
import { describeRules } from "@/core/schemas/manifest";

export const metadata: Metadata = { title: "Dataset version · ChainSWE" };

type Props = { params: Promise<{ version: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

/** The sentence saying whose results the difficulty figures are over. */
function populationNote(p: Population): string {
  const total = p.oracle + p.seq + p.seq_mem;
  if (total === 0) return "No public evaluated submission on this version yet, so there are no difficulty figures.";
  return (
    `Difficulty over ${total} public system × mode result(s) — ${p.oracle} Oracle, ${p.seq} Seq, ${p.seq_mem} Seq+Mem — ` +
    "each system's newest public evaluated submission per mode. A bug counts as solved when its own tests pass, whatever happened " +
    "earlier in its chain (lenient); a chain when all of its bugs are."
  );
}

export default async function DatasetVersionPage({ params, searchParams }: Props) {
  const { version } = await params;
  const query = parseViewQuery(datasetVersionPageQuerySchema, await searchParams).query;
  const repo = query.repo;
  const hidden = await chainsHiddenFrom(await getViewer(), { version });
  const view = await getDatasetVersionView(version, hidden, query.positions);
  if (!view) notFound();
  const v = view.version;
  const rules = describeRules((await getVersionRules(version)) ?? {});
  const mini = await getVersionMini(version);
  const release = await getVersionRelease(version);
  const records = (format: "jsonl" | "manifest") => `/api/v1/dataset/${encodeURIComponent(version)}/records${format === "manifest" ? "?format=manifest" : ""}`;
  const chains = repo ? view.chains.filter((c) => c.repo === repo) : view.chains;
  const exportHref = (table: "chains" | "positions") => (format: "csv" | "json") =>
    `/api/v1/dataset/${encodeURIComponent(version)}?${new URLSearchParams({ table, format, positions: query.positions })}`;
  const other = query.positions === "length3" ? "all" : "length3";
  const disc = await getDiscriminationView(version, hidden, { scoring: query.scoring, mode: query.mode });
  const discHref = (q: { scoring?: string; mode?: string }) =>
    `${datasetHref(version, { positions: query.positions === "length3" ? undefined : query.positions, repo, scoring: query.scoring === "strict" ? undefined : query.scoring, mode: query.mode, ...q })}#discrimination-heading`;
  const discExport = (table: "chains" | "bugs") => (format: "csv" | "json") =>
    `/api/v1/dataset/${encodeURIComponent(version)}/discrimination?${new URLSearchParams({ table, format, scoring: query.scoring, ...(disc ? { mode: disc.mode } : {}) })}`;
  return (
    <main>
      <p className="muted">
        <Link href="/dataset">Dataset</Link> / {v.version}
      </p>
      <h1>Dataset {v.version}</h1>
      <dl className="facts">
        <div>
          <dt>Imported</dt>
          <dd>{utcDay(v.createdAt)}</dd>
        </div>
        <div>
          <dt>Released from</dt>
          <dd data-testid="version-parent">{release?.parent ? <Link href={`/dataset/${encodeURIComponent(release.parent)}`}>{release.parent}</Link> : "imported whole"}</dd>
        </div>
        <div>
          <dt>Records</dt>
          <dd data-testid="version-records">
            <a href={records("jsonl")} download>
              JSONL
            </a>{" "}
            · <a href={records("manifest")}>manifest (sha256 of every record)</a>
          </dd>
        </div>
        <div>
          <dt>Board</dt>
          <dd data-testid="version-boards">
            <Link href={leaderboardHref({ version: v.version, as_of: utcDay(v.createdAt) })}>as of its release</Link> ·{" "}
            <Link href={leaderboardHref({ version: v.version })}>today</Link>
          </dd>
        </div>
        <div>
          <dt>Mini split</dt>
          <dd data-testid="version-mini">
            {mini ? (
              <>
                <span className="num-inline">{mini.size}</span> chains, Kendall τ-b{" "}
                <span className="num-inline">{mini.tau === null ? "undefined" : mini.tau.toFixed(3)}</span> against the full board over {mini.rows} rows ·{" "}
                <Link href={leaderboardHref({ version: v.version, split: "mini" })}>its board</Link>
              </>
            ) : (
              "none yet"
            )}
          </dd>
        </div>
        <div>
          <dt>Repositories</dt>
          <dd className="num-inline">{v.repos}</dd>
        </div>
        <div>
          <dt>Chains</dt>
          <dd className="num-inline">{v.chains}</dd>
        </div>
        <div>
          <dt>Bugs</dt>
          <dd className="num-inline">{v.bugs}</dd>
        </div>
        {v.avg_length !== undefined && (
          <div>
            <dt>Average length</dt>
            <dd className="num-inline">{v.avg_length}</dd>
          </div>
        )}
        {v.date_span && (
          <div>
            <dt>Bug dates</dt>
            <dd className="nowrap">
              {v.date_span.from} – {v.date_span.to}
            </dd>
          </div>
        )}
        <div>
          <dt>sha256</dt>
          <dd>
            <code title={v.sha256}>{v.sha256.slice(0, 12)}</code>
          </dd>
        </div>
      </dl>
      <p>{populationNote(view.population)}</p>
      <section aria-labelledby="rules-heading">
        <h2 id="rules-heading">Rules for submissions</h2>
        {rules.length > 0 ? (
          <ul data-testid="version-rules">
            {rules.map((r) => (
              <li key={r}>{r}</li>
            ))}
          </ul>
        ) : (
          <p className="muted">None: any run manifest (or none) is accepted, and no row is marked verified.</p>
        )}
      </section>
      {release && release.notes.length > 0 && (
        <section aria-labelledby="notes-heading">
          <h2 id="notes-heading">Release notes</h2>
          <p>Against {release.parent}: each chain added, changed or removed, and why.</p>
          <ul data-testid="release-notes">
            {release.notes.filter((n) => !hidden.has(n.chain)).map((n) => (
              <li key={`${n.change}-${n.chain}`}>
                <strong>{n.change}</strong> <code>{n.chain}</code>: {n.reason}
              </li>
            ))}
          </ul>
        </section>
      )}
      {mini && (
        <section aria-labelledby="mini-heading">
          <h2 id="mini-heading">Mini split</h2>
          <p>
            Computed {mini.computed_at.slice(0, 10)} over the {mini.rows} rows then published on this version&apos;s board: {mini.method}. Its chains,
            in the order chosen, with τ-b after each:
          </p>
          <ol data-testid="mini-chains">
            {mini.steps.map((s) => (
              <li key={s.chain}>
                <Link href={`/dataset/${encodeURIComponent(v.version)}/chains/${encodeURIComponent(s.chain)}`}>{s.chain}</Link>{" "}
                <span className="muted num-inline">τ-b {s.tau === null ? "undefined" : s.tau.toFixed(3)}</span>
              </li>
            ))}
          </ol>
        </section>
      )}
      {v.by_source && v.by_source.length > 0 && (
        <section aria-labelledby="sources-heading">
          <h2 id="sources-heading">Sources</h2>
          <DatasetSourcesTable version={v.version} sources={v.by_source} />
        </section>
      )}

      <section aria-labelledby="chains-heading">
        <h2 id="chains-heading">Chains</h2>
        {repo && (
          <p>
            Only chains of <code>{repo}</code> ({chains.length}). <Link href={datasetHref(version, { positions: query.positions === "length3" ? undefined : query.positions })}>Show all chains</Link>
          </p>
        )}
        {chains.length === 0 ? (
          <p>No chain of this version is from {repo}.</p>
        ) : (
          <DatasetChainsTable version={version} chains={chains} keys={shownRateKeys(view.population)} caption={`Chains of ${v.version}; whole chain solved: all of its bugs resolved`} />
        )}
        <DatasetExportLinks label="chains" href={exportHref("chains")} />
      </section>

      <section aria-labelledby="positions-heading">
        <h2 id="positions-heading">Solved by position</h2>
        <p>
          Share of attempts that solved the bug at each position of its chain, over {query.positions === "length3" ? "the length-3 chains (as the paper)" : "all chains"}.{" "}
          <Link href={datasetHref(version, { positions: other === "length3" ? undefined : other, repo })}>
            Show {other === "length3" ? "length-3 chains only" : "all chains"}
          </Link>
        </p>
        {view.positionRates.length === 0 ? (
          <p>This version has no chain of length 3; show all chains instead.</p>
        ) : (
          <DatasetPositionsTable rows={view.positionRates} keys={shownRateKeys(view.population)} caption={`Solve rate by position, ${query.positions === "length3" ? "length-3 chains" : "all chains"}`} />
        )}
        <DatasetExportLinks label="positions" href={exportHref("positions")} testId="positions-exports" />
      </section>

      <section aria-labelledby="discrimination-heading">
        <h2 id="discrimination-heading">Chains that still discriminate</h2>
        {!disc ? (
          <p data-testid="discrimination-summary">No figures for {query.mode ? `${MODE_LABELS[query.mode]} rows under` : ""} {query.scoring} scoring yet: they are computed when the board&apos;s rows are ranked (a publication, or chainswe aggregates refresh).</p>
        ) : (
          <>
            <p>
              <strong data-testid="discrimination-summary">{discriminationSummary(disc)}</strong>: the top rows did not all solve them, nor all fail them.
              Over the {disc.rows} published {MODE_LABELS[disc.mode]} row(s) of the board in its order, {disc.scoring} scoring, computed {utcDay(disc.computedAt)}.
              Point-biserial: a chain&apos;s success against the rows&apos; overall chain %. Difficulty: a Rasch model fitted to the rows × chains matrix
              (SPEC §4); the bugs&apos; figures are on each chain&apos;s page.
            </p>
            <p data-testid="discrimination-modes">
              Rows:{" "}
              {disc.modes.map((m, i) => (
                <span key={m}>
                  {i > 0 && " · "}
                  {m === disc.mode ? <strong>{MODE_LABELS[m]}</strong> : <Link href={discHref({ mode: m })}>{MODE_LABELS[m]}</Link>}
                </span>
              ))}{" "}
              — scoring: {query.scoring === "strict" ? <strong>strict</strong> : <Link href={discHref({ scoring: undefined })}>strict</Link>} ·{" "}
              {query.scoring === "lenient" ? <strong>lenient</strong> : <Link href={discHref({ scoring: "lenient" })}>lenient</Link>}
            </p>
            <DiscriminationChainsTable view={disc} />
            <p className="muted" data-testid="discrimination-fit">
              Fit over {disc.fit.chains.rows} rows × {disc.fit.chains.items} chains: {disc.fit.chains.iterations} iterations, {disc.fit.chains.converged ? "converged" : "not converged"}; over{" "}
              {disc.fit.bugs.rows} rows × {disc.fit.bugs.items} bugs: {disc.fit.bugs.iterations} iterations, {disc.fit.bugs.converged ? "converged" : "not converged"}.
            </p>
            <DatasetExportLinks label="chains' figures" href={discExport("chains")} testId="discrimination-chains-exports" />
            <DatasetExportLinks label="bugs' figures" href={discExport("bugs")} testId="discrimination-bugs-exports" />
          </>
        )}
      </section>
    </main>
  );
}
