/**
 * Every standing public submission's outcome on one bug, each linking to its
 * failure page: the submissions behind a bug's solve rates (every number is a link).
 */
import Link from "next/link";
import type { BugOutcome } from "@/lib/dataset/view";
import { FINGERPRINT_LABELS } from "@/lib/submissions/failure-view";
import { failurePageUrl } from "@/lib/submissions/urls";
import { DatasetModeTag } from "@/components/dataset/DatasetModeTag";
import { DataTable } from "@/components/ui/DataTable";

export function DatasetBugOutcomes({ id, continuousId, order, outcomes }: { id: string; continuousId: string; order: number; outcomes: BugOutcome[] }) {
  if (outcomes.length === 0) return <p className="muted">No public evaluated submission has attempted this chain yet.</p>;
  const solved = outcomes.filter((o) => o.resolved === true).length;
  return (
    <details className="bug-outcomes" id={id}>
      <summary>
        Outcomes by system: {solved} of {outcomes.length} solved
      </summary>
      <DataTable
        caption={`Outcome of each public system on bug ${order}`}
        captionHidden
        columns={[
          { header: "System", cell: (o) => <Link href={failurePageUrl(o.submissionId, continuousId, order)}>{o.system}</Link> },
          { header: "Team", cell: (o) => o.team },
          { header: "Mode", cell: (o) => <DatasetModeTag mode={o.mode} /> },
          {
            header: "Outcome",
            cellClass: (o) => `outcome ${o.resolved ? "resolved" : "unresolved"}`,
            cell: (o) => (o.resolved ? "solved" : o.resolved === false ? "unsolved" : "no result"),
          },
          { header: "Fingerprint", cell: (o) => (o.fingerprint ? FINGERPRINT_LABELS[o.fingerprint] : "—") },
        ]}
        rows={outcomes}
        rowKey={(o) => o.submissionId}
      />
    </details>
  );
}
