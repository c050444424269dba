/**
 * /dataset/proposals/[id]: a proposal's chains, each with its validation on the
 * workers (per bug and run: gold patch applied, seconds, failing tests; the
 * flaky tests; the refusal naming bug and test; the logs) and its review. Its
 * proposer and reviewers only; anyone else gets 404. Reviewers decide here.
 */
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ProposalReviewForm } from "@/components/proposals/ProposalReviewForm";
import { DataTable } from "@/components/ui/DataTable";
import { FactList } from "@/components/ui/FactList";
import { UtcTime } from "@/components/ui/Time";
import { NotFoundError } from "@/core/errors";
import { canReview } from "@/lib/authz";
import { getViewer } from "@/lib/auth/viewer";
import { getProposal, type ProposedChainView } from "@/lib/proposals/data";
import { chainStage } from "@/lib/proposals/view";
import { reviewChainAction } from "./actions";

export const metadata: Metadata = { title: "Chain proposal · ChainSWE" };
export const dynamic = "force-dynamic";

type Props = { params: Promise<{ id: string }> };

function ChainValidation({ chain }: { chain: ProposedChainView }) {
  const v = chain.validation;
  if (!v) return null;
  return (
    <DataTable
      caption={`Gold runs: ${v.runs}; flaky tests ${v.rule === "drop" ? "taken out of the lists" : "refuse the chain"}`}
      rows={v.bugs}
      rowKey={(b) => String(b.order)}
      testId={`validation-${chain.continuousId}`}
      columns={[
        { header: "Bug", cell: (b) => `${b.order} · ${b.swebench_instance_id}` },
        { header: "Gold applied", cell: (b) => `${b.runs.filter((r) => r.patch_applied).length}/${b.runs.length}` },
        { header: "Seconds per run", cell: (b) => b.runs.map((r) => r.duration_s.toFixed(1)).join(", ") },
        { header: "Failing tests", cell: (b) => [...new Set(b.runs.flatMap((r) => r.failing))].join(", ") || "none" },
        { header: "Flaky tests", cell: (b) => b.flaky.join(", ") || "none" },
        { header: "Verdict", cell: (b) => b.problem ?? "passes" },
      ]}
    />
  );
}

export default async function ProposalPage({ params }: Props) {
  const { id } = await params;
  const viewer = await getViewer();
  const proposal = await getProposal(viewer, id).catch((e: unknown) => {
    if (e instanceof NotFoundError) notFound();
    throw e;
  });
  const reviewer = canReview(viewer) && viewer?.id !== proposal.proposedById;
  return (
    <main>
      <h1>Chain proposal {proposal.id}</h1>
      <FactList
        facts={[
          ["Dataset version", proposal.datasetVersion],
          ["Proposed by", proposal.proposedBy ?? "—"],
          ["When", <UtcTime key="t" date={proposal.createdAt} />],
          ["File", `${proposal.fileName} (sha256 ${proposal.sha256.slice(0, 12)}…)`],
        ]}
      />
      {proposal.warnings.length > 0 && (
        <ul className="muted">
          {proposal.warnings.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      )}
      {proposal.chains.map((c) => (
        <section key={c.id} aria-labelledby={`chain-${c.id}`} data-testid={`proposed-${c.continuousId}`}>
          <h2 id={`chain-${c.id}`}>{c.continuousId}</h2>
          <FactList
            facts={[
              ["Repository", c.repo],
              ["Image", c.dockerImage],
              ["Bugs", String(c.bugs)],
              ["Stage", chainStage(c)],
              ...(c.job?.lastError && c.status === "validating" ? [["Last attempt", c.job.lastError] as [string, string]] : []),
              ...(c.refusal ? [["Refused", c.refusal] as [string, string]] : []),
              ...(c.review !== "pending" ? [[`Review`, `${c.review} by ${c.reviewedBy ?? "—"}: ${c.reviewReason ?? ""}`] as [string, string]] : []),
            ]}
          />
          <ChainValidation chain={c} />
          {c.log && (
            <details>
              <summary>Validation logs{c.logTruncated ? " (first 256 KB)" : ""}</summary>
              <pre className="log">{c.log}</pre>
            </details>
          )}
          {reviewer && c.review === "pending" && <ProposalReviewForm decide={reviewChainAction.bind(null, proposal.id, c.id)} chain={c.continuousId} acceptable={c.status === "valid"} />}
        </section>
      ))}
    </main>
  );
}
