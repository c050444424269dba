/**
 * The dataset browser's tables: versions, repositories,
 * chains with their difficulty, solve rates by position, and a chain's bugs.
 * Server-rendered, real <table> markup; the numbers come from lib/dataset-view.ts.
 */
import Link from "next/link";
import { MODE_LABELS } from "@/evaluator/scoring/format";
import type { DatasetStats } from "@/lib/schemas/columns";
import { DatasetCountsTable } from "@/components/dataset/DatasetCountsTable";
import type { DatasetBugRow, DatasetChainRow, DatasetVersionRow, RepositoryRow } from "@/lib/dataset/view";
import { RATE_KEYS, type PositionSolveRate, type RatesByMode, type SolveRate } from "@/lib/dataset/solve-rates";
import { utcDay } from "@/lib/format";

export const datasetHref = (version: string, query: Record<string, string | undefined> = {}) => {
  const params = new URLSearchParams(Object.entries(query).filter((e): e is [string, string] => e[1] !== undefined));
  const qs = params.toString();
  return `/dataset/${encodeURIComponent(version)}${qs ? `?${qs}` : ""}`;
};

export const chainHref = (version: string, chain: string) => `/dataset/${encodeURIComponent(version)}/chains/${encodeURIComponent(chain)}`;

const RATE_LABELS = { all: "All", ...MODE_LABELS } as const;

/** `62.5` with the counts behind it, muted; `—` when nobody attempted it. */
function RateCell({ rate, href }: { rate: SolveRate; href?: string }) {
  if (rate.pct === null) return <td className="num muted nowrap">—</td>;
  const value = (
    <>
      {rate.pct.toFixed(1)} <small className="muted">{`${rate.solved}/${rate.attempts}`}</small>
    </>
  );
  return <td className="num nowrap">{href ? <a href={href}>{value}</a> : value}</td>;
}

type RateKeys = readonly (typeof RATE_KEYS)[number][];

function RateHeaders({ what, keys }: { what: string; keys: RateKeys }) {
  return (
    <>
      {keys.map((k) => (
        <th key={k} scope="col" className={`num${k === "all" ? "" : ` rate-${k}`}`}>
          {what} {k === "all" ? "%" : <span className={`mode-tag mode-tag-${k}`}>{RATE_LABELS[k]}</span>}
        </th>
      ))}
    </>
  );
}

const RateCells = ({ rates, href, keys }: { rates: RatesByMode; href?: string; keys: RateKeys }) => (
  <>
    {keys.map((k) => (
      <RateCell key={k} rate={rates[k]} href={href} />
    ))}
  </>
);

export function DatasetVersionsTable({ versions }: { versions: DatasetVersionRow[] }) {
  return (
    <div className="table-scroll">
      <table className="ds-sticky" id="versions">
        <caption>Dataset versions, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Version</th>
            <th scope="col">Imported</th>
            <th scope="col" className="num">
              Repositories
            </th>
            <th scope="col" className="num">
              Chains
            </th>
            <th scope="col" className="num">
              Bugs
            </th>
            <th scope="col">Modes</th>
          </tr>
        </thead>
        <tbody>
          {versions.map((v) => (
            <tr key={v.version}>
              <th scope="row">
                <Link href={datasetHref(v.version)}>{v.version}</Link>
              </th>
              <td>{utcDay(v.createdAt)}</td>
              <td className="num">
                <a href={`#repos-${v.version}`}>{v.repos}</a>
              </td>
              <td className="num">
                <Link href={datasetHref(v.version)}>{v.chains}</Link>
              </td>
              <td className="num">{v.bugs}</td>
              <td>{v.modes.map((m) => MODE_LABELS[m]).join(", ")}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function DatasetRepositoriesTable({ version, repositories }: { version: string; repositories: RepositoryRow[] }) {
  const rows = repositories.map((r) => ({ name: r.repo, chains: r.chains, bugs: r.bugs, href: datasetHref(version, { repo: r.repo }) }));
  return <DatasetCountsTable caption={`Repositories of ${version}`} heading="Repository" rows={rows} />;
}

/** The paper's Table 7 from the version's stored statistics ("mixed": bugs from several benchmarks). */
export function DatasetSourcesTable({ version, sources }: { version: string; sources: NonNullable<DatasetStats["by_source"]> }) {
  const rows = sources.map((s) => ({ name: s.source, chains: s.chains, bugs: s.bugs }));
  return <DatasetCountsTable caption={`Sources of ${version} (“mixed”: a chain whose bugs come from several benchmarks)`} heading="Source" rows={rows} />;
}

export function DatasetChainsTable({ version, chains, caption, keys }: { version: string; chains: DatasetChainRow[]; caption: string; keys: RateKeys }) {
  return (
    <div className="table-scroll">
      <table className="ds-sticky" id="chains">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Chain</th>
            <th scope="col">Repository</th>
            <th scope="col" className="num">
              Length
            </th>
            <th scope="col">Dates</th>
            <th scope="col">Source</th>
            <th scope="col">Image</th>
            <RateHeaders what="Chain solved" keys={keys} />
          </tr>
        </thead>
        <tbody>
          {chains.map((c) => (
            <tr key={c.continuousId}>
              <th scope="row">
                <Link href={chainHref(version, c.continuousId)}>{c.continuousId}</Link>
              </th>
              <td>{c.repo}</td>
              <td className="num">{c.length}</td>
              <td className="nowrap">{c.dateRange}</td>
              <td>{c.source}</td>
              <td>
                <code>{c.dockerImage}</code>
              </td>
              <RateCells rates={c.solved} href={chainHref(version, c.continuousId)} keys={keys} />
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function DatasetPositionsTable({ rows, caption, keys }: { rows: PositionSolveRate[]; caption: string; keys: RateKeys }) {
  return (
    <div className="table-scroll">
      <table className="ds-sticky" id="positions">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Position</th>
            <th scope="col" className="num">
              Chains
            </th>
            <RateHeaders what="Solved" keys={keys} />
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.position}>
              <th scope="row">{r.position}</th>
              <td className="num">{r.chains}</td>
              <RateCells rates={r.rates} keys={keys} />
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function DatasetBugsTable({ bugs, keys }: { bugs: DatasetBugRow[]; keys: RateKeys }) {
  return (
    <div className="table-scroll">
      <table className="ds-sticky" id="bugs">
        <caption>Bugs in chain order</caption>
        <thead>
          <tr>
            <th scope="col">Position</th>
            <th scope="col">Instance</th>
            <th scope="col">Date</th>
            <th scope="col">Gold files</th>
            <th scope="col" className="num">
              <abbr title="FAIL_TO_PASS: tests the fix must make pass">F2P</abbr>
            </th>
            <th scope="col" className="num">
              <abbr title="PASS_TO_PASS: tests that must keep passing">P2P</abbr>
            </th>
            <RateHeaders what="Solved" keys={keys} />
          </tr>
        </thead>
        <tbody>
          {bugs.map((b) => (
            <tr key={b.order}>
              <th scope="row">
                <a href={`#bug-${b.order}`}>{b.order}</a>
              </th>
              <td>
                <code>{b.swebenchInstanceId}</code>
              </td>
              <td className="nowrap">{b.date.slice(0, 10)}</td>
              <td>
                <ul className="file-list">
                  {b.goldFiles.map((f) => (
                    <li key={f}>
                      <code>{f}</code>
                    </li>
                  ))}
                </ul>
              </td>
              <td className="num">{b.failToPass}</td>
              <td className="num">{b.passToPass}</td>
              <RateCells rates={b.solved} href={`#bug-${b.order}-outcomes`} keys={keys} />
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
