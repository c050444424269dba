/**
 * The chain-error page's tables (SPEC §5): the breakdown by position (the
 * charts' text alternative), the breakdown by system, and the list of chain
 * errors, each linking to its failure page and its evidence's prior bug's.
 * Every count links to the list narrowed to the chain errors behind it.
 */
import Link from "next/link";
import type { BreakdownStats, Cause } from "@/evaluator/analysis";
import { CAUSES } from "@/evaluator/analysis";
import { MODE_LABELS, formatPercent } from "@/evaluator/scoring/format";
import { CAUSE_LABELS, FINGERPRINT_LABELS, FINGERPRINT_ORDER, type ChainErrorFilter, type CombinedBreakdown, type FingerprintKey } from "@/lib/analysis/view";
import type { AnalysisEntry, ChainErrorRow } from "@/lib/analysis/data";
import { failurePageUrl, submissionPageUrl } from "@/lib/submissions/urls";
import { ChartModeKey } from "@/components/charts/ChartModeKey";

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

function SplitHeaders({ fingerprints }: { fingerprints: FingerprintKey[] }) {
  return (
    <>
      {CAUSES.map((c) => (
        <th key={c} scope="col" className="num">
          <Swatch colourVar={CAUSE_COLOUR[c]} />
          {CAUSE_LABELS[c]}
        </th>
      ))}
      {fingerprints.map((f) => (
        <th key={f} scope="col" className="num">
          <Swatch colourVar={FINGERPRINT_COLOUR[f]} />
          {FINGERPRINT_LABELS[f]}
        </th>
      ))}
    </>
  );
}

/** Rate and splits of one row; `at` narrows the links (a position, a system). */
function StatsCells({ s, fingerprints, href, at }: { s: BreakdownStats; fingerprints: FingerprintKey[]; href: ListHref; at: ChainErrorFilter & { system?: string } }) {
  return (
    <>
      <td className="num">
        <Link href={href(at)}>{s.unresolved_downstream}</Link>
      </td>
      <td className="num">
        <Link href={href(at)}>{s.chain_errors}</Link>
      </td>
      <td className="num">{s.rate === null ? "—" : <Link href={href(at)}>{formatPercent(s.rate)}</Link>}</td>
      {CAUSES.map((c) => (
        <td key={c} className="num">
          <Link href={href({ ...at, cause: c })}>{s.causes[c].count}</Link>{" "}
          <span className="share">{s.causes[c].pct === null ? "" : `${formatPercent(s.causes[c].pct)}%`}</span>
        </td>
      ))}
      {fingerprints.map((f) => (
        <td key={f} className="num">
          <Link href={href({ ...at, fingerprint: f })}>{s.fingerprints[f].count}</Link>{" "}
          <span className="share">{s.fingerprints[f].pct === null ? "" : `${formatPercent(s.fingerprints[f].pct)}%`}</span>
        </td>
      ))}
    </>
  );
}

const RATE_HEADERS = (
  <>
    <th scope="col" className="num">
      Unresolved downstream
    </th>
    <th scope="col" className="num">
      Chain errors
    </th>
    <th scope="col" className="num">
      Rate %
    </th>
  </>
);

export function ChainErrorPositionTable({ combined, href }: { combined: CombinedBreakdown; href: ListHref }) {
  const fingerprints = shownFingerprints(combined.overall);
  return (
    <div className="table-scroll">
      <table id="by-position">
        <caption>Chain errors by position: rate, causes and fingerprints (counts; shares of the chain errors)</caption>
        <thead>
          <tr>
            <th scope="col">Position</th>
            {RATE_HEADERS}
            <SplitHeaders fingerprints={fingerprints} />
          </tr>
        </thead>
        <tbody>
          {combined.positions.map((p) => (
            <tr key={p.position}>
              <th scope="row">{p.position}</th>
              <StatsCells s={p} fingerprints={fingerprints} href={href} at={{ position: p.position }} />
            </tr>
          ))}
          <tr className="group-start">
            <th scope="row">All</th>
            <StatsCells s={combined.overall} fingerprints={fingerprints} href={href} at={{}} />
          </tr>
        </tbody>
      </table>
    </div>
  );
}

export function ChainErrorSystemTable({ analyses, href }: { analyses: AnalysisEntry[]; href: ListHref }) {
  const fingerprints = FINGERPRINT_ORDER.filter((f) => f !== "unknown" || analyses.some((a) => a.breakdown.overall.fingerprints.unknown.count > 0));
  return (
    <div className="table-scroll">
      <table id="by-system" className="sticky-first">
        <caption>Chain errors by system (all positions)</caption>
        <thead>
          <tr>
            <th scope="col">System</th>
            <th scope="col">Mode</th>
            <th scope="col">Against</th>
            {RATE_HEADERS}
            <SplitHeaders fingerprints={fingerprints} />
          </tr>
        </thead>
        <tbody>
          {analyses.map((a) => (
            <tr key={a.seqSubmissionId}>
              <th scope="row">
                <Link href={href({ system: a.system.id })}>{a.system.name}</Link>
                <div className="muted">{a.team.name}</div>
              </th>
              <td>
                <Link href={submissionPageUrl(a.seqSubmissionId)}>
                  <ChartModeKey mode={a.mode} />
                </Link>
              </td>
              <td>
                <Link href={submissionPageUrl(a.oracleSubmissionId)}>{MODE_LABELS.oracle}</Link>
              </td>
              <StatsCells s={a.breakdown.overall} fingerprints={fingerprints} href={href} at={{ system: a.system.id }} />
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
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

export function ChainErrorList({ errors }: { errors: ChainErrorRow[] }) {
  return (
    <div className="table-scroll">
      <table id="errors-table" className="sticky-first">
        <caption>Chain errors: bugs resolved under Oracle and unresolved under Seq, with the prior bugs that explain them</caption>
        <thead>
          <tr>
            <th scope="col">Bug</th>
            <th scope="col">System</th>
            <th scope="col">Mode</th>
            <th scope="col" className="num">
              Position
            </th>
            <th scope="col">Fingerprint</th>
            <th scope="col">Cause</th>
            <th scope="col">Evidence (prior bug, file)</th>
          </tr>
        </thead>
        <tbody>
          {errors.map((e) => (
            <tr key={`${e.seqSubmissionId}/${e.continuous_id}/${e.order}`} data-testid="chain-error-row">
              <th scope="row">
                <Link href={failurePageUrl(e.seqSubmissionId, e.continuous_id, e.order)}>
                  {e.continuous_id} #{e.order}
                </Link>
              </th>
              <td>
                {e.system} <span className="muted">({e.team})</span>
              </td>
              <td>
                <ChartModeKey mode={e.seq_mode} />
              </td>
              <td className="num">{e.order}</td>
              <td>{FINGERPRINT_LABELS[e.fingerprint ?? "unknown"]}</td>
              <td>
                <Swatch colourVar={CAUSE_COLOUR[e.cause]} />
                {CAUSE_LABELS[e.cause]}
              </td>
              <td>
                <Evidence e={e} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
