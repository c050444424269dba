/**
 * The chain-error page's tables (SPEC §5): the breakdown by position (the
 * charts' text alternative), the breakdown by system, and the list of chain
 * errors, each linking to its failure page and its evidence's prior bug's.
 * Every count links to the list narrowed to the chain errors behind it.
 */
import Link from "next/link";
import type { BreakdownStats, Cause } from "@/core/analysis";
import { CAUSES } from "@/core/analysis";
import { MODE_LABELS, formatPercent } from "@/core/scoring/format";
import { CAUSE_LABELS, FINGERPRINT_LABELS, FINGERPRINT_ORDER, type ChainErrorFilter, type CombinedBreakdown, type FingerprintKey } from "@/lib/analysis/view";
import type { AnalysisEntry, ChainErrorRow } from "@/lib/analysis/data";
import { failurePageUrl, submissionPageUrl } from "@/lib/submissions/urls";
import { ChartModeKey } from "@/components/charts/ChartModeKey";
import { DataTable, type Column } from "@/components/ui/DataTable";

/** The list narrowed (on top of the page's filters); `system` narrows the systems too. */
export type ListHref = (f: ChainErrorFilter & { system?: string }) => string;

export const CAUSE_COLOUR: Record<Cause, string> = {
  overshoot: "--cause-overshoot",
  undershoot: "--cause-undershoot",
  both: "--cause-both",
  unattributed: "--cause-unattributed",
};
export const FINGERPRINT_COLOUR: Record<FingerprintKey, string> = {
  broke_working_code: "--fp-broke-working-code",
  left_unfixed: "--fp-left-unfixed",
  no_usable_patch: "--fp-no-usable-patch",
  unknown: "--fp-unknown",
};

const Swatch = ({ colourVar }: { colourVar: string }) => <span className="chart-swatch" style={{ background: `var(${colourVar})` }} aria-hidden="true" />;

function shownFingerprints(stats: BreakdownStats): FingerprintKey[] {
  return FINGERPRINT_ORDER.filter((f) => f !== "unknown" || stats.fingerprints.unknown.count > 0);
}

/**
 * The rate and split columns of a breakdown row: unresolved downstream, chain
 * errors, rate, then each cause and fingerprint (count and share); `at` narrows
 * the links (a position, a system).
 */
function statsColumns<Row>(stats: (row: Row) => BreakdownStats, at: (row: Row) => ChainErrorFilter & { system?: string }, fingerprints: FingerprintKey[], href: ListHref): Column<Row>[] {
  /** One cause's or fingerprint's column: its count, linking to the list narrowed to it, and its share. */
  const split = (name: string, colourVar: string, part: (s: BreakdownStats) => { count: number; pct: number | null }, narrow: ChainErrorFilter): Column<Row> => ({
    header: name,
    label: (
      <>
        <Swatch colourVar={colourVar} />
        {name}
      </>
    ),
    numeric: true,
    cell: (r) => {
      const { count, pct } = part(stats(r));
      return (
        <>
          <Link href={href({ ...at(r), ...narrow })}>{count}</Link> <span className="share">{pct === null ? "" : `${formatPercent(pct)}%`}</span>
        </>
      );
    },
  });
  return [
    { header: "Unresolved downstream", numeric: true, cell: (r) => <Link href={href(at(r))}>{stats(r).unresolved_downstream}</Link> },
    { header: "Chain errors", numeric: true, cell: (r) => <Link href={href(at(r))}>{stats(r).chain_errors}</Link> },
    { header: "Rate %", numeric: true, cell: (r) => (stats(r).rate === null ? "—" : <Link href={href(at(r))}>{formatPercent(stats(r).rate)}</Link>) },
    ...CAUSES.map((c) => split(CAUSE_LABELS[c], CAUSE_COLOUR[c], (s) => s.causes[c], { cause: c })),
    ...fingerprints.map((f) => split(FINGERPRINT_LABELS[f], FINGERPRINT_COLOUR[f], (s) => s.fingerprints[f], { fingerprint: f })),
  ];
}

/** A row of the breakdown by position: one position, or all of them. */
type PositionRow = { name: string; stats: BreakdownStats; at: ChainErrorFilter; total: boolean };

export function ChainErrorPositionTable({ combined, href }: { combined: CombinedBreakdown; href: ListHref }) {
  const fingerprints = shownFingerprints(combined.overall);
  const rows: PositionRow[] = [
    ...combined.positions.map((p) => ({ name: String(p.position), stats: p, at: { position: p.position }, total: false })),
    { name: "All", stats: combined.overall, at: {}, total: true },
  ];
  return (
    <DataTable
      id="by-position"
      caption="Chain errors by position: rate, causes and fingerprints (counts; shares of the chain errors)"
      columns={[
        { header: "Position", cell: (r: PositionRow) => r.name },
        ...statsColumns<PositionRow>(
          (r) => r.stats,
          (r) => r.at,
          fingerprints,
          href,
        ),
      ]}
      rows={rows}
      rowKey={(r) => r.name}
      rowAttributes={(r): Record<string, string> => (r.total ? { className: "group-start" } : {})}
    />
  );
}

export function ChainErrorSystemTable({ analyses, href }: { analyses: AnalysisEntry[]; href: ListHref }) {
  const fingerprints = FINGERPRINT_ORDER.filter((f) => f !== "unknown" || analyses.some((a) => a.breakdown.overall.fingerprints.unknown.count > 0));
  const columns: Column<AnalysisEntry>[] = [
    {
      header: "System",
      cell: (a) => (
        <>
          <Link href={href({ system: a.system.id })}>{a.system.name}</Link>
          <div className="muted">{a.team.name}</div>
        </>
      ),
    },
    {
      header: "Mode",
      cell: (a) => (
        <Link href={submissionPageUrl(a.seqSubmissionId)}>
          <ChartModeKey mode={a.mode} />
        </Link>
      ),
    },
    { header: "Against", cell: (a) => <Link href={submissionPageUrl(a.oracleSubmissionId)}>{MODE_LABELS.oracle}</Link> },
    ...statsColumns<AnalysisEntry>(
      (a) => a.breakdown.overall,
      (a) => ({ system: a.system.id }),
      fingerprints,
      href,
    ),
  ];
  return <DataTable id="by-system" className="sticky-first" caption="Chain errors by system (all positions)" columns={columns} rows={analyses} rowKey={(a) => a.seqSubmissionId} />;
}

/** The prior bugs whose files explain a chain error, each linking to its failure page. */
function Evidence({ e }: { e: ChainErrorRow }) {
  if (e.evidence.length === 0) return <span className="muted">none: no prior bug&apos;s files explain it</span>;
  return (
    <ul className="evidence">
      {e.evidence.map((x) => (
        <li key={`${x.prior_order}/${x.kind}/${x.file}`}>
          <Link href={failurePageUrl(e.seqSubmissionId, e.continuous_id, x.prior_order)}>bug #{x.prior_order}</Link>: <code>{x.file}</code>{" "}
          {x.kind}
          {x.strong ? "" : " (weak)"}
        </li>
      ))}
    </ul>
  );
}

const ERROR_COLUMNS: Column<ChainErrorRow>[] = [
  {
    header: "Bug",
    cell: (e) => (
      <Link href={failurePageUrl(e.seqSubmissionId, e.continuous_id, e.order)}>
        {e.continuous_id} #{e.order}
      </Link>
    ),
  },
  {
    header: "System",
    cell: (e) => (
      <>
        {e.system} <span className="muted">({e.team})</span>
      </>
    ),
  },
  { header: "Mode", cell: (e) => <ChartModeKey mode={e.seq_mode} /> },
  { header: "Position", numeric: true, cell: (e) => e.order },
  { header: "Fingerprint", cell: (e) => FINGERPRINT_LABELS[e.fingerprint ?? "unknown"] },
  {
    header: "Cause",
    cell: (e) => (
      <>
        <Swatch colourVar={CAUSE_COLOUR[e.cause]} />
        {CAUSE_LABELS[e.cause]}
      </>
    ),
  },
  { header: "Evidence (prior bug, file)", cell: (e) => <Evidence e={e} /> },
];

export function ChainErrorList({ errors }: { errors: ChainErrorRow[] }) {
  return (
    <DataTable
      id="errors-table"
      className="sticky-first"
      caption="Chain errors: bugs resolved under Oracle and unresolved under Seq, with the prior bugs that explain them"
      columns={ERROR_COLUMNS}
      rows={errors}
      rowKey={(e) => `${e.seqSubmissionId}/${e.continuous_id}/${e.order}`}
      rowAttributes={() => ({ "data-testid": "chain-error-row" })}
    />
  );
}
