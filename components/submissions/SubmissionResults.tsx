/**
 * A finished evaluation: the headline scores (strict and lenient, with 95%
 * bootstrap intervals) and, per chain, every bug's outcome with a link to its
 * full test log. Server-rendered; the numbers come from lib/submissions/view.ts.
 */
import Link from "next/link";
import { EstimateText } from "@/components/leaderboard/EstimateText";
import { DataTable } from "@/components/ui/DataTable";
import { failurePageUrl, logPageUrl } from "@/lib/submissions/urls";
import type { BugResultView, ChainResultsView } from "@/lib/submissions/view";
import type { SubmissionScores } from "@/lib/submissions/scores";

export function SubmissionScoresTable({ scores }: { scores: SubmissionScores }) {
  const rows =
    scores.scoring === "lenient"
      ? [{ label: "Oracle (each bug on its own)", s: scores.lenient }]
      : [
          { label: "Strict (a bug counts only if every earlier bug of its chain resolved)", s: scores.strict },
          { label: "Lenient (each bug on its own)", s: scores.lenient },
        ];
  return (
    <section aria-labelledby="scores-heading">
      <h2 id="scores-heading">Scores</h2>
      <p className="muted">
        Over the {scores.chains} chain(s) and {scores.bugs} bug(s) this submission covers; {scores.resolved} bug(s) and{" "}
        {scores.chainsResolved} chain(s) resolved. 95% bootstrap intervals over chains.
      </p>
      <DataTable
        className="scores-table"
        columns={[
          { header: "Scoring", cell: (r) => r.label },
          { header: "Per-bug %", numeric: true, cell: (r) => <EstimateText estimate={r.s.perBug} /> },
          { header: "Chain %", numeric: true, cell: (r) => <EstimateText estimate={r.s.chain} /> },
        ]}
        rows={rows}
        rowKey={(r) => r.label}
      />
    </section>
  );
}

function FailingTests({ r }: { r: BugResultView }) {
  const failing = [...r.failToPass.failing, ...r.passToPass.failing];
  const summary = `F2P ${r.failToPass.failure}/${r.failToPass.success + r.failToPass.failure}, P2P ${r.passToPass.failure}/${r.passToPass.success + r.passToPass.failure}`;
  if (failing.length === 0) return <>{summary}</>;
  return (
    <details>
      <summary>{summary}</summary>
      <ul className="failing-tests">
        {failing.map((t) => (
          <li key={t}>
            <code>{t}</code>
          </li>
        ))}
      </ul>
    </details>
  );
}

function outcomeText(r: BugResultView): string {
  return r.resolved ? "resolved" : "unresolved";
}

function appliedText(r: BugResultView): string {
  return r.patchApplied ? (r.applyMethod ?? "yes") : "no";
}

/** Its own markup, not a DataTable: a bug not graded spans the outcome columns in one cell. */
export function SubmissionResultsTables({ id, chains }: { id: string; chains: ChainResultsView[] }) {
  return (
    <section aria-labelledby="results-heading">
      <h2 id="results-heading">Results by chain</h2>
      {chains.map((c) => (
        <div className="table-scroll chain-results" key={c.continuousId}>
          <table>
            <caption>{c.continuousId}</caption>
            <thead>
              <tr>
                <th scope="col" className="num">
                  Position
                </th>
                <th scope="col">Instance</th>
                <th scope="col">Resolved</th>
                <th scope="col">Applied</th>
                <th scope="col">Fingerprint</th>
                <th scope="col">Tests failing</th>
                <th scope="col" className="num">
                  Duration
                </th>
                <th scope="col">Log</th>
              </tr>
            </thead>
            <tbody>
              {c.bugs.map(({ order, swebenchInstanceId, result: r }) => (
                <tr key={order}>
                  <td className="num">{order}</td>
                  <td>
                    {/* every bug opens its failure page */}
                    <Link href={failurePageUrl(id, c.continuousId, order)}>
                      <code>{swebenchInstanceId}</code>
                    </Link>
                  </td>
                  {r ? (
                    <>
                      <td className={r.resolved ? "ok" : "error"}>
                        {outcomeText(r)}
                        {r.tampered && <span className="badge rejected">tampered</span>}
                      </td>
                      <td>{appliedText(r)}</td>
                      <td>{r.fingerprint ?? "—"}</td>
                      <td>
                        <FailingTests r={r} />
                      </td>
                      <td className="num">
                        {r.durationS.toFixed(1)} s{r.timedOut && <span className="muted"> (timed out)</span>}
                      </td>
                      <td>
                        <Link href={logPageUrl(id, c.continuousId, order)}>log</Link>
                      </td>
                    </>
                  ) : (
                    <td colSpan={6} className="muted">
                      not graded
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ))}
    </section>
  );
}
