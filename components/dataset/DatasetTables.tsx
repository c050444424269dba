/**
 * The dataset browser's tables: versions, repositories,
 * chains with their difficulty, solve rates by position, and a chain's bugs.
 * Server-rendered DataTables; the numbers come from lib/dataset/view.ts and lib/dataset/solve-rates.ts.
 */
import Link from "next/link";
import { MODE_LABELS } from "@/core/scoring/format";
import type { DatasetStats } from "@/core/schemas/columns";
import { DatasetCountsTable } from "@/components/dataset/DatasetCountsTable";
import type { DatasetBugRow, DatasetChainRow, DatasetVersionRow, RepositoryRow } from "@/lib/dataset/view";
import { RATE_KEYS, type PositionSolveRate, type RatesByMode, type SolveRate } from "@/lib/dataset/solve-rates";
import { utcDay } from "@/core/format";
import { DataTable, type Column } from "@/components/ui/DataTable";
import { chainHref, datasetHref } from "@/lib/dataset/url";

const RATE_LABELS = { all: "All", ...MODE_LABELS } as const;

/** `62.5` with the counts behind it, muted; `—` when nobody attempted it. */
function RateValue({ rate, href }: { rate: SolveRate; href?: string }) {
  if (rate.pct === null) return "—";
  const value = (
    <>
      {rate.pct.toFixed(1)} <small className="muted">{`${rate.solved}/${rate.attempts}`}</small>
    </>
  );
  return href ? <a href={href}>{value}</a> : value;
}

type RateKeys = readonly (typeof RATE_KEYS)[number][];

/** One column per rate (all, then each mode), headed `<what> %` or `<what>` with the mode's tag. */
function rateColumns<Row>(what: string, keys: RateKeys, rates: (row: Row) => RatesByMode, href?: (row: Row) => string): Column<Row>[] {
  return keys.map((k) => ({
    header: `${what} ${k === "all" ? "%" : RATE_LABELS[k]}`,
    label: (
      <>
        {what} {k === "all" ? "%" : <span className={`mode-tag mode-tag-${k}`}>{RATE_LABELS[k]}</span>}
      </>
    ),
    headerClass: k === "all" ? undefined : `rate-${k}`,
    numeric: true,
    cellClass: (row) => (rates(row)[k].pct === null ? "muted nowrap" : "nowrap"),
    cell: (row) => <RateValue rate={rates(row)[k]} href={href?.(row)} />,
  }));
}

const VERSION_COLUMNS: Column<DatasetVersionRow>[] = [
  { header: "Version", cell: (v) => <Link href={datasetHref(v.version)}>{v.version}</Link> },
  { header: "Imported", nowrap: true, cell: (v) => utcDay(v.createdAt) },
  { header: "Repositories", numeric: true, cell: (v) => <a href={`#repos-${v.version}`}>{v.repos}</a> },
  { header: "Chains", numeric: true, cell: (v) => <Link href={datasetHref(v.version)}>{v.chains}</Link> },
  { header: "Bugs", numeric: true, cell: (v) => v.bugs },
  { header: "Modes", cell: (v) => v.modes.map((m) => MODE_LABELS[m]).join(", ") },
];

export function DatasetVersionsTable({ versions }: { versions: DatasetVersionRow[] }) {
  return <DataTable className="ds-sticky" id="versions" caption="Dataset versions, newest first" columns={VERSION_COLUMNS} rows={versions} rowKey={(v) => v.version} />;
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
  const columns: Column<DatasetChainRow>[] = [
    { header: "Chain", cell: (c) => <Link href={chainHref(version, c.continuousId)}>{c.continuousId}</Link> },
    { header: "Repository", cell: (c) => c.repo },
    { header: "Length", numeric: true, cell: (c) => c.length },
    { header: "Dates", cellClass: () => "nowrap", cell: (c) => c.dateRange },
    { header: "Source", cell: (c) => c.source },
    { header: "Image", cell: (c) => <code>{c.dockerImage}</code> },
    ...rateColumns<DatasetChainRow>("Chain solved", keys, (c) => c.solved, (c) => chainHref(version, c.continuousId)),
  ];
  return <DataTable className="ds-sticky" id="chains" caption={caption} columns={columns} rows={chains} rowKey={(c) => c.continuousId} />;
}

export function DatasetPositionsTable({ rows, caption, keys }: { rows: PositionSolveRate[]; caption: string; keys: RateKeys }) {
  const columns: Column<PositionSolveRate>[] = [
    { header: "Position", cell: (r) => r.position },
    { header: "Chains", numeric: true, cell: (r) => r.chains },
    ...rateColumns<PositionSolveRate>("Solved", keys, (r) => r.rates),
  ];
  return <DataTable className="ds-sticky" id="positions" caption={caption} columns={columns} rows={rows} rowKey={(r) => String(r.position)} />;
}

export function DatasetBugsTable({ bugs, keys }: { bugs: DatasetBugRow[]; keys: RateKeys }) {
  const columns: Column<DatasetBugRow>[] = [
    { header: "Position", cell: (b) => <a href={`#bug-${b.order}`}>{b.order}</a> },
    { header: "Instance", cell: (b) => <code>{b.swebenchInstanceId}</code> },
    { header: "Date", cellClass: () => "nowrap", cell: (b) => b.date.slice(0, 10) },
    {
      header: "Gold files",
      cell: (b) => (
        <ul className="file-list">
          {b.goldFiles.map((f) => (
            <li key={f}>
              <code>{f}</code>
            </li>
          ))}
        </ul>
      ),
    },
    { header: "F2P", label: <abbr title="FAIL_TO_PASS: tests the fix must make pass">F2P</abbr>, numeric: true, cell: (b) => b.failToPass },
    { header: "P2P", label: <abbr title="PASS_TO_PASS: tests that must keep passing">P2P</abbr>, numeric: true, cell: (b) => b.passToPass },
    ...rateColumns<DatasetBugRow>("Solved", keys, (b) => b.solved, (b) => `#bug-${b.order}-outcomes`),
  ];
  return <DataTable className="ds-sticky" id="bugs" caption="Bugs in chain order" columns={columns} rows={bugs} rowKey={(b) => String(b.order)} />;
}
