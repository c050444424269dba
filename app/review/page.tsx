/**
 * The reviewers' queue: submissions waiting for a publication decision, oldest
 * request first, with their scores; and the latest decisions from the audit
 * log. Reviewers only: for anyone else the page does not exist.
 */
import type { Metadata } from "next";
import Link from "next/link";
import { EstimateText } from "@/components/leaderboard/EstimateText";
import { notFound } from "next/navigation";
import { MODE_LABELS } from "@/core/scoring";
import { canReview } from "@/lib/authz";
import { getViewer } from "@/lib/auth/viewer";
import { listPendingReview, recentReviewDecisions, type ReviewDecision, type RunOfEntry } from "@/lib/submissions/review";
import { LeaderboardBadges } from "@/components/leaderboard/LeaderboardBadges";
import { rowBadges } from "@/lib/leaderboard/view";
import { submissionPageUrl } from "@/lib/submissions/urls";
import { utcWhen } from "@/core/format";
import { DataTable } from "@/components/ui/DataTable";

export const metadata: Metadata = { title: "Review · ChainSWE" };


const DECISION_LABELS: Record<ReviewDecision["action"], string> = {
  publication_approved: "approved",
  publication_rejected: "rejected",
  submission_rerun: "re-run",
};

const runText = (r: RunOfEntry) => `run ${r.run} of ${r.of}`;

export default async function ReviewPage() {
  const viewer = await getViewer();
  if (!canReview(viewer)) notFound();
  const [pending, decisions] = await Promise.all([listPendingReview(viewer), recentReviewDecisions(viewer)]);
  return (
    <main>
      <h1>Review</h1>
      <section aria-labelledby="pending-heading">
        <h2 id="pending-heading">Waiting for a decision</h2>
        {pending.length === 0 ? (
          <p className="muted">No submission is waiting for review.</p>
        ) : (
          <DataTable
            columns={[
              {
                header: "System",
                cell: (p) => (
                  <>
                    <Link href={submissionPageUrl(p.id)}>{p.system.name}</Link>
                    <div className="muted">
                      {p.system.model} · {p.system.contextConfig}
                    </div>
                  </>
                ),
              },
              { header: "Team", cell: (p) => p.team.name },
              { header: "Mode", cell: (p) => MODE_LABELS[p.mode] },
              { header: "Run", nowrap: true, cell: (p) => runText(p.run) },
              { header: "Dataset", cell: (p) => p.datasetVersion },
              { header: "Requested", cell: (p) => utcWhen(p.publishRequestedAt) },
              { header: "Per-bug %", numeric: true, cell: (p) => <EstimateText estimate={p.scores?.headline?.perBug} /> },
              { header: "Chain %", numeric: true, cell: (p) => <EstimateText estimate={p.scores?.headline?.chain} /> },
              { header: "Badges", cell: (p) => <LeaderboardBadges badges={rowBadges(p.badges)} /> },
            ]}
            rows={pending}
            rowKey={(p) => p.id}
          />
        )}
        <p className="muted">
          Per-bug % and chain % are strict for Seq and Seq+Mem (as in the paper), over the chains each submission covers. Badges are the leaderboard&apos;s, for
          this run on its own.
        </p>
      </section>
      <section aria-labelledby="decisions-heading">
        <h2 id="decisions-heading">Recent decisions</h2>
        {decisions.length === 0 ? (
          <p className="muted">No decision yet.</p>
        ) : (
          <DataTable
            columns={[
              { header: "When", cell: (d) => utcWhen(d.at) },
              { header: "Decision", cell: (d) => DECISION_LABELS[d.action] },
              { header: "Submission", cell: (d) => (d.system ? <Link href={submissionPageUrl(d.submissionId)}>{d.system}</Link> : <span className="muted">deleted</span>) },
              { header: "Mode", cell: (d) => (d.mode ? MODE_LABELS[d.mode] : "—") },
              { header: "Run", nowrap: true, cell: (d) => (d.run ? runText(d.run) : "—") },
              { header: "Reviewer", cell: (d) => d.actor ?? "—" },
              { header: "Reason", cell: (d) => d.reason ?? "" },
            ]}
            rows={decisions}
            rowKey={(d) => d.id}
            rowHeader={false}
          />
        )}
      </section>
    </main>
  );
}
