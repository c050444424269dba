/**
 * A proposal as the API answers it (GET /api/v1/proposals/{id}, docs/API.md)
 * and the words its page uses, from ProposalView (./data.ts).
 */
import type { ProposalView, ProposedChainView } from "./data";

/** One word for where a chain stands: its validation, then its review. */
export function chainStage(c: Pick<ProposedChainView, "status" | "review" | "job">): string {
  if (c.review !== "pending") return c.review;
  if (c.status === "validating") return c.job?.status === "running" ? "validating" : c.job?.lastError ? "waiting (retrying)" : "queued for validation";
  return c.status === "valid" ? "valid, awaiting review" : c.status;
}

export function proposalJson(p: ProposalView) {
  return {
    id: p.id,
    dataset_version: p.datasetVersion,
    proposed_by: p.proposedBy,
    file_name: p.fileName,
    sha256: p.sha256,
    warnings: p.warnings,
    created_at: p.createdAt.toISOString(),
    url: `/dataset/proposals/${p.id}`,
    chains: p.chains.map((c) => ({
      id: c.id,
      continuous_id: c.continuousId,
      repo: c.repo,
      docker_image: c.dockerImage,
      bugs: c.bugs,
      record_sha256: c.recordSha256,
      status: c.status,
      stage: chainStage(c),
      job: c.job && { status: c.job.status, attempts: c.job.attempts, last_error: c.job.lastError, finished_at: c.job.finishedAt?.toISOString() ?? null },
      refusal: c.refusal,
      validation: c.validation,
      review: c.review,
      reviewed_by: c.reviewedBy,
      reviewed_at: c.reviewedAt?.toISOString() ?? null,
      review_reason: c.reviewReason,
    })),
  };
}
