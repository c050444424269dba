/**
 * A bug's failure page: the bug, this submission's outcome
 * beside the same system's other mode, the chain error's cause and evidence,
 * the files and patches compared with the gold patch, the agent's
 * trajectory, the failing tests with their errors and the full log. Whoever may read the submission may read
 * this page; everyone else gets the 404 page (lib/submissions/failure.ts).
 */
import { FailureEffort } from "@/components/submissions/FailureEffort";
import { FailureTrajectory } from "@/components/submissions/FailureTrajectory";
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { DatasetProblemStatement } from "@/components/dataset/DatasetProblemStatement";
import { DiffView } from "@/components/submissions/DiffView";
import { FailureChainError } from "@/components/submissions/FailureChainError";
import { FailureFileSets } from "@/components/submissions/FailureFileSets";
import { FailureNav } from "@/components/submissions/FailureNav";
import { FailureOutcomes } from "@/components/submissions/FailureOutcomes";
import { chainHref } from "@/lib/dataset/url";
import { MODE_LABELS } from "@/core/scoring/format";
import { getViewer } from "@/lib/auth/viewer";
import { getFailurePage, type FailurePage } from "@/lib/submissions/failure";
import { NotFoundError } from "@/core/errors";
import { goldSimilarityText, notChainErrorReason } from "@/lib/submissions/failure-view";
import { visibilityLabel, visibilityNote } from "@/lib/submissions/visibility";
import { bugOrderParam } from "@/lib/submissions/urls";

export const metadata: Metadata = { title: "Bug failure · ChainSWE" };

type Props = { params: Promise<{ id: string; chain: string; order: string }>; searchParams: Promise<{ page?: string | string[] }> };

async function load(id: string, chain: string, order: string, page: number): Promise<FailurePage> {
  try {
    return await getFailurePage(await getViewer(), id, chain, bugOrderParam(order), page);
  } catch (e) {
    if (e instanceof NotFoundError) notFound();
    throw e;
  }
}

export default async function FailurePageView({ params, searchParams }: Props) {
  const { id, chain, order } = await params;
  // the trajectory's page: a plain positive integer, else the first
  const asked = (await searchParams).page;
  const page = await load(id, chain, order, typeof asked === "string" && /^[1-9][0-9]{0,5}$/.test(asked) ? Number(asked) : 1);
  const { submission: s, bug, sides } = page;
  const current = sides[0];
  const oracle = sides.find((x) => x.mode === "oracle");
  const seq = sides.find((x) => x.mode !== "oracle");
  const notError = oracle && seq && !page.chainError ? notChainErrorReason(bug.order, oracle.outcome?.resolved ?? null, seq.outcome?.resolved ?? null) : null;
  const note = visibilityNote(s.visibility);
  return (
    <main className="failure-page">
      <FailureNav page={page} />
      <h1>
        Bug {bug.order} of {bug.chainLength}: <code>{bug.swebenchInstanceId}</code>
      </h1>
      <p>
        <Link href={`/submissions/${encodeURIComponent(s.id)}`}>
          {s.system.name} · {MODE_LABELS[current.mode]}
        </Link>{" "}
        <span className="muted">
          by {s.system.team.name} ({s.system.model}, {s.system.scaffold}, {s.system.contextConfig}) on chain{" "}
          <Link href={chainHref(s.datasetVersion, bug.continuousId)}>{bug.continuousId}</Link> of dataset {s.datasetVersion}
        </span>
        {note && (
          <>
            {" "}
            <span className={`badge ${s.visibility}`}>{visibilityLabel(s.visibility)}</span> <span className="muted">{note}</span>
          </>
        )}
      </p>
      <p className="muted">
        {bug.repo} · {bug.date.slice(0, 10)} · fix commit <code>{bug.commitHash.slice(0, 12)}</code> · {bug.failToPass} FAIL_TO_PASS and{" "}
        {bug.passToPass} PASS_TO_PASS tests
      </p>
      <DatasetProblemStatement text={bug.problemStatement} open />

      {page.chainError && <FailureChainError error={page.chainError} />}

      <section aria-labelledby="outcomes-heading">
        <h2 id="outcomes-heading">Outcome{sides.length > 1 ? ": Oracle and Seq side by side" : ""}</h2>
        {sides.length === 1 && (
          <p className="muted">
            No completed {current.mode === "oracle" ? "Seq or Seq+Mem" : "Oracle"} submission of this system on dataset {s.datasetVersion} that
            you can read, so there is nothing to compare with.
          </p>
        )}
        {notError && <p data-testid="not-chain-error">{notError}</p>}
        <FailureOutcomes sides={sides} currentId={s.id} />
      </section>

      <FailureEffort effort={page.effort} trajectory={page.trajectory} />

      <FailureTrajectory trajectory={page.trajectory} carried={page.carried} />

      <section aria-labelledby="files-heading">
        <h2 id="files-heading">Files: agent patch against gold patch</h2>
        <FailureFileSets rows={page.fileSets} sides={sides} currentId={s.id} />
      </section>

      <section aria-labelledby="patches-heading">
        <h2 id="patches-heading">Patches</h2>
        <p data-testid="gold-similarity">{goldSimilarityText(page.goldSimilarity)}</p>
        <div className="patches-side">
          <div>
            <h3>Agent patch ({MODE_LABELS[current.mode]}, this submission)</h3>
            {page.agentPatch.visible ? (
              page.agentPatch.empty ? (
                <p className="muted">The agent submitted an empty patch for this bug.</p>
              ) : (
                <DiffView files={page.agentPatch.files} label="Agent patch" />
              )
            ) : (
              <p className="muted" data-testid="patch-hidden">
                The agent&apos;s patch is the team&apos;s prediction: it is visible to the team and to reviewers only. The file sets above show
                what it touched.
              </p>
            )}
          </div>
          <div>
            <h3>Gold patch</h3>
            <DiffView files={page.goldDiff} label="Gold patch" />
          </div>
        </div>
      </section>

      <FailureNav page={page} />
    </main>
  );
}
