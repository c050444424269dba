/**
 * Chain proposals in the database (SPEC §8): storing a checked proposal with
 * its chains' validation jobs, reading one as its proposer or a reviewer sees
 * it, and the accepted chains a release takes in.
 *
 * Who reads a proposal: its proposer and reviewers; anyone else is answered as
 * if it did not exist (NotFoundError), so ids cannot be probed.
 */
import { db } from "@/db/client";
import type { Tx } from "@/db/tx";
import { NotFoundError } from "@/core/errors";
import { chainSchema, type Chain } from "@/core/schemas/dataset";
import { parseColumn, proposalReviewSchema, proposedChainStatusSchema, jobStatusSchema, type ProposalReview, type ProposedChainStatus, type JobStatus } from "@/core/schemas/columns";
import { chainValidationSchema, type ChainValidationResult } from "@/core/dataset/proposal-validation";
import { canonicalJson, recordSha256 } from "@/core/grading/version";
import { enqueueValidations } from "@/jobs/validation";
import { canReview, type Viewer } from "@/lib/authz";
import { z } from "zod";

export type NewProposal = {
  datasetVersionId: string;
  proposedById: string;
  fileName: string;
  sha256: string;
  warnings: string[];
  chains: Chain[];
};

/** Stores the proposal, its chains and one validation job per chain, in the caller's transaction. Answers its id. */
export async function storeProposal(tx: Tx, p: NewProposal): Promise<string> {
  const proposal = await tx.chainProposal.create({
    data: { datasetVersionId: p.datasetVersionId, proposedById: p.proposedById, fileName: p.fileName, sha256: p.sha256, warnings: JSON.stringify(p.warnings) },
    select: { id: true },
  });
  const ids: string[] = [];
  for (const [position, chain] of p.chains.entries()) {
    const row = await tx.proposedChain.create({
      data: { proposalId: proposal.id, position, continuousId: chain.continuous_id, record: canonicalJson(chain), recordSha256: recordSha256(chain) },
      select: { id: true },
    });
    ids.push(row.id);
  }
  await enqueueValidations(tx, ids);
  return proposal.id;
}

/** Chains of the version's open proposals (not refused, failed or rejected) and the instances they hold: a new proposal may not repeat them. */
export async function openProposedIds(datasetVersionId: string): Promise<{ chains: Map<string, string>; instances: Map<string, string> }> {
  const rows = await db.proposedChain.findMany({
    where: { proposal: { datasetVersionId }, status: { in: ["validating", "valid"] }, review: { not: "rejected" } },
    select: { continuousId: true, record: true, proposalId: true },
  });
  const chains = new Map<string, string>();
  const instances = new Map<string, string>();
  for (const r of rows) {
    chains.set(r.continuousId, r.proposalId);
    for (const id of chainSchema.parse(JSON.parse(r.record)).swebench_instance_ids) instances.set(id, r.continuousId);
  }
  return { chains, instances };
}

const logLimit = 256 * 1024;

export type ProposedChainView = {
  id: string;
  continuousId: string;
  repo: string;
  dockerImage: string;
  bugs: number;
  recordSha256: string;
  status: ProposedChainStatus;
  /** the validation job's state and its last error (an image missing on the worker: it waits, retried) */
  job: { status: JobStatus; attempts: number; lastError: string | null; finishedAt: Date | null } | null;
  validation: ChainValidationResult | null;
  refusal: string | null;
  /** the logs, cut at 256 KB for the page (the whole text stays stored) */
  log: string;
  logTruncated: boolean;
  review: ProposalReview;
  reviewedBy: string | null;
  reviewedAt: Date | null;
  reviewReason: string | null;
};

export type ProposalView = {
  id: string;
  datasetVersion: string;
  proposedBy: string | null;
  proposedById: string | null;
  fileName: string;
  sha256: string;
  warnings: string[];
  createdAt: Date;
  chains: ProposedChainView[];
};

const mayRead = (viewer: Viewer | null, proposedById: string | null) => !!viewer && (viewer.id === proposedById || canReview(viewer));

/** One proposal as its proposer or a reviewer sees it; NotFoundError for anyone else. */
export async function getProposal(viewer: Viewer | null, id: string): Promise<ProposalView> {
  const row = await db.chainProposal.findUnique({
    where: { id },
    include: {
      datasetVersion: { select: { version: true } },
      proposedBy: { select: { username: true, name: true } },
      chains: { orderBy: { position: "asc" }, include: { job: true, reviewedBy: { select: { username: true, name: true } } } },
    },
  });
  if (!row || !mayRead(viewer, row.proposedById)) throw new NotFoundError("proposal");
  return {
    id: row.id,
    datasetVersion: row.datasetVersion.version,
    proposedBy: row.proposedBy?.username ?? row.proposedBy?.name ?? null,
    proposedById: row.proposedById,
    fileName: row.fileName,
    sha256: row.sha256,
    warnings: parseColumn(z.array(z.string()), row.warnings, "ChainProposal.warnings"),
    createdAt: row.createdAt,
    chains: row.chains.map((c) => {
      const record = chainSchema.parse(JSON.parse(c.record));
      return {
        id: c.id,
        continuousId: c.continuousId,
        repo: record.repo,
        dockerImage: record.docker_image,
        bugs: record.bug_fixes.length,
        recordSha256: c.recordSha256,
        status: proposedChainStatusSchema.parse(c.status),
        job: c.job ? { status: jobStatusSchema.parse(c.job.status), attempts: c.job.attempts, lastError: c.job.lastError, finishedAt: c.job.finishedAt } : null,
        validation: c.validation === null ? null : parseColumn(chainValidationSchema, c.validation, "ProposedChain.validation"),
        refusal: c.refusal,
        log: c.log.slice(0, logLimit),
        logTruncated: c.log.length > logLimit,
        review: proposalReviewSchema.parse(c.review),
        reviewedBy: c.reviewedBy?.username ?? c.reviewedBy?.name ?? null,
        reviewedAt: c.reviewedAt,
        reviewReason: c.reviewReason,
      };
    }),
  };
}

export type ProposalSummary = { id: string; datasetVersion: string; proposedBy: string | null; createdAt: Date; chains: number; validating: number; valid: number; refused: number; accepted: number; rejected: number };

/** The proposals the viewer may read (their own; every one for reviewers), newest first. */
export async function listProposals(viewer: Viewer | null, limit = 100): Promise<ProposalSummary[]> {
  if (!viewer) return [];
  const rows = await db.chainProposal.findMany({
    where: canReview(viewer) ? {} : { proposedById: viewer.id },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit,
    include: { datasetVersion: { select: { version: true } }, proposedBy: { select: { username: true, name: true } }, chains: { select: { status: true, review: true } } },
  });
  return rows.map((r) => {
    const count = (f: (c: { status: string; review: string }) => boolean) => r.chains.filter(f).length;
    return {
      id: r.id,
      datasetVersion: r.datasetVersion.version,
      proposedBy: r.proposedBy?.username ?? r.proposedBy?.name ?? null,
      createdAt: r.createdAt,
      chains: r.chains.length,
      validating: count((c) => c.status === "validating"),
      valid: count((c) => c.status === "valid"),
      refused: count((c) => c.status === "refused" || c.status === "failed"),
      accepted: count((c) => c.review === "accepted"),
      rejected: count((c) => c.review === "rejected"),
    };
  });
}

export type AcceptedProposedChain = {
  proposedChainId: string;
  proposalId: string;
  /** the validated record (flaky tests out of its lists under the version's drop rule) */
  record: Chain;
  /** sha256 of `record` (canonical JSON, as SPEC §7 hashes records) */
  recordSha256: string;
  proposedBy: string | null;
  acceptedBy: string | null;
  acceptedAt: Date;
  reason: string | null;
};

/**
 * A version's accepted proposed chains, for assembling its next release: each
 * validated record with who proposed it, who accepted it, when and why, in the
 * order they were accepted. Only chains validation found valid can be accepted
 * (./review.ts), so each has its validated record.
 */
export async function acceptedProposedChains(version: string): Promise<AcceptedProposedChain[]> {
  const rows = await db.proposedChain.findMany({
    where: { review: "accepted", status: "valid", proposal: { datasetVersion: { version } } },
    orderBy: [{ reviewedAt: "asc" }, { id: "asc" }],
    include: { proposal: { select: { proposedBy: { select: { username: true, name: true } } } }, reviewedBy: { select: { username: true, name: true } } },
  });
  return rows.map((r) => {
    const record = chainSchema.parse(JSON.parse(r.validatedRecord ?? r.record));
    return {
      proposedChainId: r.id,
      proposalId: r.proposalId,
      record,
      recordSha256: recordSha256(record),
      proposedBy: r.proposal.proposedBy?.username ?? r.proposal.proposedBy?.name ?? null,
      acceptedBy: r.reviewedBy?.username ?? r.reviewedBy?.name ?? null,
      acceptedAt: r.reviewedAt!,
      reason: r.reviewReason,
    };
  });
}
