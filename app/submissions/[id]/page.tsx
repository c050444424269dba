/**
 * One submission: what ran, how far it got (live while it runs), its scores and
 * every bug's outcome, downloads, and the team's and reviewers' buttons.
 * Anyone who may not read it gets the 404 page (lib/submissions/view.ts).
 */
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ProgressPanel } from "@/components/submissions/ProgressPanel";
import { RegradeChanges } from "@/components/submissions/RegradeChanges";
import { SubmissionActions } from "@/components/submissions/SubmissionActions";
import { SubmissionResultsTables, SubmissionScoresTable } from "@/components/submissions/SubmissionResults";
import { MODE_LABELS } from "@/core/scoring";
import { getViewer } from "@/lib/auth/viewer";
import { getSubmissionForViewer, submissionJson, type SubmissionView } from "@/lib/submissions/view";
import { NotFoundError } from "@/core/errors";
import { graderLabel } from "@/lib/submissions/grader-view";
import { isEvaluationOpen, visibilityLabel, visibilityNote } from "@/lib/submissions/visibility";
import { utcWhen } from "@/core/format";
import { FactList } from "@/components/ui/FactList";
import { SubmissionRuns } from "@/components/submissions/SubmissionRuns";
import { SubmissionManifest } from "@/components/submissions/SubmissionManifest";
import { SubmissionTrajectories } from "@/components/submissions/SubmissionTrajectories";
import { SubmissionEarlierAttempts } from "@/components/submissions/SubmissionEarlierAttempts";
import { rerunWarning } from "@/lib/submissions/rerun-warning";
import { cancelAction, deleteAction, rerunAction, trajectoriesAction, visibilityAction } from "./actions";

type Props = { params: Promise<{ id: string }> };

export const metadata: Metadata = { title: "Submission · ChainSWE" };

async function load(id: string): Promise<SubmissionView> {
  try {
    return await getSubmissionForViewer(await getViewer(), id);
  } catch (e) {
    if (e instanceof NotFoundError) notFound();
    throw e;
  }
}


export default async function SubmissionPage({ params }: Props) {
  const { id } = await params;
  const v = await load(id);
  const note = visibilityNote(v.visibility);
  const api = `/api/v1/submissions/${encodeURIComponent(v.id)}`;
  const facts: [string, string][] = [
    ["Team", v.system.team.name],
    ["Model", v.system.model],
    ["Scaffold", v.system.scaffold],
    ["Context", v.system.contextConfig],
    ["Mode", MODE_LABELS[v.mode]],
    ["Dataset", v.datasetVersion],
    ["Submitted", utcWhen(v.createdAt)],
    ["Finished", utcWhen(v.finishedAt)],
    // which grader produced the results (SPEC §7); several after a partial re-grade
    ...v.graders.map((g): [string, string] => ["Graded by", `${graderLabel(g)} · ${g.bugs} bug${g.bugs === 1 ? "" : "s"}`]),
    // what the team said about the run
    ...Object.entries(v.metadata).map(([k, value]): [string, string] => [k, String(value)]),
  ];
  return (
    <main className="submission-page">
      <h1>
        {v.system.name} <span className="muted">· {MODE_LABELS[v.mode]}</span>
      </h1>
      <p>
        <span className={`badge ${v.visibility}`} data-testid="submission-visibility">
          {visibilityLabel(v.visibility)}
        </span>{" "}
        {note && <span className="muted">{note}</span>}
      </p>
      {v.visibility === "rejected" && v.review.reviewReason && (
        <p className="errors" role="note">
          Publication rejected{v.review.reviewedAt ? ` on ${utcWhen(v.review.reviewedAt)}` : ""}: {v.review.reviewReason}
        </p>
      )}
      {v.visibility === "pending_review" && <p className="muted">Publication requested {utcWhen(v.review.publishRequestedAt)}; waiting for a reviewer.</p>}
      <FactList facts={facts} />
      <SubmissionRuns id={v.id} entry={v.entry} canAdd={v.actions.add_run} />
      <SubmissionManifest manifest={v.manifest} breaches={v.ruleBreaches} />
      <SubmissionTrajectories trajectories={v.trajectories} choose={trajectoriesAction.bind(null, v.id)} />

      <ProgressPanel initial={submissionJson(v)} />

      {!isEvaluationOpen(v.status) && v.scores && <SubmissionScoresTable scores={v.scores} />}
      {!isEvaluationOpen(v.status) && v.progress.bugs.graded > 0 && <SubmissionResultsTables id={v.id} chains={v.chains} />}
      {v.lastRegrade && <RegradeChanges regrade={v.lastRegrade} />}
      <SubmissionEarlierAttempts attempts={v.earlierAttempts} />

      <p className="downloads">
        Download: <a href={`${api}/results.jsonl`}>results.jsonl</a>
        {v.actions.predictions && (
          <>
            {" · "}
            <a href={`${api}/predictions.jsonl`}>predictions</a>
          </>
        )}
        {v.status === "completed" && (
          <>
            {" · "}
            <a href={`${api}/bundle`} title="results, logs, dataset records, report and a manifest of hashes; check it with chainswe verify">
              reproducibility bundle
            </a>
          </>
        )}
        {" · "}
        <a href={api}>JSON</a>
      </p>

      <SubmissionActions
        allowed={v.actions}
        rerunWarning={rerunWarning({ chains: v.chains.length, bugsGraded: v.progress.bugs.graded, bugsResolved: v.progress.bugs.resolved, earlierAttempts: v.earlierAttempts.length })}
        actions={{
          visibility: visibilityAction.bind(null, v.id),
          cancel: cancelAction.bind(null, v.id),
          delete: deleteAction.bind(null, v.id),
          rerun: rerunAction.bind(null, v.id),
        }}
      />
    </main>
  );
}
