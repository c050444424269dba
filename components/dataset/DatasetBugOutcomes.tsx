/**
 * Every standing public submission's outcome on one bug, each linking to its
 * failure page: the submissions behind a bug's solve rates (every number is a link).
 */
import Link from "next/link";
import type { BugOutcome } from "@/lib/dataset/view";
import { FINGERPRINT_LABELS } from "@/lib/submissions/failure-view";
import { failurePageUrl } from "@/lib/submissions/urls";
import { DatasetModeTag } from "@/components/dataset/DatasetModeTag";

export function DatasetBugOutcomes({ id, continuousId, order, outcomes }: { id: string; continuousId: string; order: number; outcomes: BugOutcome[] }) {
  if (outcomes.length === 0) return <p className="muted">No public evaluated submission has attempted this chain yet.</p>;
  const solved = outcomes.filter((o) => o.resolved === true).length;
  return (
    <details className="bug-outcomes" id={id}>
      <summary>
        Outcomes by system: {solved} of {outcomes.length} solved
      </summary>
      <div className="table-scroll">
        <table>
          <caption className="visually-hidden">Outcome of each public system on bug {order}</caption>
          <thead>
            <tr>
              <th scope="col">System</th>
              <th scope="col">Team</th>
              <th scope="col">Mode</th>
              <th scope="col">Outcome</th>
              <th scope="col">Fingerprint</th>
            </tr>
          </thead>
          <tbody>
            {outcomes.map((o) => (
              <tr key={o.submissionId}>
                <th scope="row">
                  <Link href={failurePageUrl(o.submissionId, continuousId, order)}>{o.system}</Link>
                </th>
                <td>{o.team}</td>
                <td>
                  <DatasetModeTag mode={o.mode} />
                </td>
                <td className={`outcome ${o.resolved ? "resolved" : "unresolved"}`}>{o.resolved ? "solved" : o.resolved === false ? "unsolved" : "no result"}</td>
                <td>{o.fingerprint ? FINGERPRINT_LABELS[o.fingerprint] : "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}
