/**
 * Publication, review, re-run and cancel as a viewer does them: authorization
 * (lib/authz.ts), the rule (lib/submissions/visibility.ts), then one transaction that
 * writes the change and its AuditLog row together.
 *
 * A viewer who cannot read the submission gets NotFoundError; one who can but
 * may not act gets ForbiddenError; a rejection without a reason is
 * FieldError("reason"). A refused action changes nothing. Each transaction
 * writes first (a compare-and-swap on the state the rule was checked against),
 * so a change made meanwhile by someone else is refused, not overwritten.
 */
import { followVersionMini } from "@/lib/dataset/mini";
import { z } from "zod";
import { cancelEvaluation, requeueEvaluation, type CancelOutcome } from "@/jobs/queue/lifecycle";
import { canReview, type Viewer } from "@/lib/authz";
import { db } from "@/db/client";
import { FieldError, ForbiddenError, NotFoundError } from "@/core/errors";
import { recordNotification } from "@/jobs/queue/notify";
import { refreshVersionRanking } from "@/lib/leaderboard/ranking-refresh";
import { parseColumn, visibilitySchema, type AuditAction, type NotificationEvent, type Visibility } from "@/core/schemas/columns";
import { modeSchema, type Mode } from "@/core/schemas/prediction";
import { decisionConflict, isEvaluationOpen, visibilityRequestSchema, visibilityTransition, type VisibilityRequest } from "@/lib/submissions/visibility";
import { readableSubmission } from "@/lib/submissions/access";
import { scoresForSubmissions, type SubmissionScores } from "@/lib/submissions/scores";
import { entriesTrust, trustRunSelect } from "@/lib/leaderboard/trust";
import { storedChainRecords } from "@/lib/leaderboard/window";
import type { BadgeFacts } from "@/lib/leaderboard/view";
import { versionRulesSchema } from "@/core/schemas/manifest";

const CHANGED_MEANWHILE = "the submission changed meanwhile; reload the page and try again";

function parseRequest(input: unknown): VisibilityRequest {
  const parsed = visibilityRequestSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  // not an object at all (an array, a string, null): the body is at fault, not a field of it
  if (!issue?.path.length) throw new FieldError("body", `${issue?.message ?? "invalid"}; send an object such as {"action": "request_publication"}`);
  throw new FieldError(String(issue.path[0]), issue.message);
}

/** A reviewer's decision tells the team; the team's own requests and withdrawals do not. */
const reviewEvent = (audit: AuditAction): NotificationEvent | null =>
  audit === "publication_approved" || audit === "publication_rejected" ? audit : null;

/** Request, withdraw, approve or reject publication (a reviewer's decision notifies the team); answers the new visibility. */
export async function changeVisibility(viewer: Viewer | null, id: string, input: unknown, now: Date = new Date()): Promise<Visibility> {
  const request = parseRequest(input);
  const s = await readableSubmission(viewer, id);
  const t = visibilityTransition({ ...request, visibility: s.visibility, status: s.status, role: s.role, now });
  if (!t.ok) throw t.refusal === "reason" ? new FieldError("reason", t.message) : new ForbiddenError(t.message);
  await db.$transaction(async (tx) => {
    const changed = await tx.submission.updateMany({
      where: { id, visibility: s.visibility, ...(request.action === "request_publication" ? { status: "completed" } : {}) },
      data: t.changes,
    });
    if (changed.count === 0) throw new ForbiddenError(CHANGED_MEANWHILE);
    await tx.auditLog.create({ data: { actorId: viewer?.id ?? null, action: t.audit, targetType: "submission", targetId: id, reason: t.reason } });
    const event = reviewEvent(t.audit);
    if (event) await recordNotification(tx, { submissionId: id, event, reason: t.reason, now });
  });
  // a row joined or left the board: its version's rank tiers (SPEC §4) and its Mini (SPEC §8) follow the published rows
  if (s.visibility === "public" || t.to === "public") {
    const sub = await db.submission.findUnique({ where: { id }, select: { datasetVersionId: true } });
    if (sub) await refreshVersionRanking(sub.datasetVersionId);
    await followVersionMini(id);
  }
  return t.to;
}

/**
 * A reviewer's re-run: the submission's results are kept as an earlier attempt
 * and every chain is queued again from scratch. A worker still replaying a chain holds a lease that no
 * longer matches (leaseOwner reset to null), so its heartbeat, progress and
 * hand-in are all refused (jobs/queue/complete.ts).
 */
export async function rerunSubmission(viewer: Viewer | null, id: string, now: Date = new Date()): Promise<{ jobs: number }> {
  const s = await readableSubmission(viewer, id);
  if (!canReview(viewer)) throw new ForbiddenError("only a reviewer can re-run a submission");
  const conflict = decisionConflict(s.role);
  if (conflict) throw new ForbiddenError(conflict);
  return db.$transaction(async (tx) => {
    const jobs = await requeueEvaluation(tx, id, now, viewer?.id ?? null);
    await tx.auditLog.create({ data: { actorId: viewer?.id ?? null, action: "submission_rerun", targetType: "submission", targetId: id } });
    return { jobs };
  });
}

/**
 * The team's choice whether its trajectories are public once the submission
 * is (SPEC §7); any member of the team, at any time, with its audit row.
 */
export async function setTrajectoriesPublic(viewer: Viewer | null, id: string, shown: boolean): Promise<boolean> {
  const s = await readableSubmission(viewer, id);
  if (!s.role.team) throw new ForbiddenError("only the submission's team can choose who reads its trajectories");
  return db.$transaction(async (tx) => {
    await tx.submission.update({ where: { id }, data: { trajectoriesPublic: shown } });
    await tx.auditLog.create({ data: { actorId: viewer?.id ?? null, action: shown ? "trajectories_shown" : "trajectories_hidden", targetType: "submission", targetId: id } });
    return shown;
  });
}

/** The team's cancel of a queued or running evaluation (cancelSubmission), with its audit row. */
export async function cancelSubmissionFor(viewer: Viewer | null, id: string, now: Date = new Date()): Promise<CancelOutcome> {
  const s = await readableSubmission(viewer, id);
  if (!s.role.team) throw new ForbiddenError("only the submitting team can cancel its evaluation");
  if (!isEvaluationOpen(s.status)) throw new ForbiddenError(`the evaluation already ended (${s.status})`);
  return db.$transaction(async (tx) => {
    const outcome = await cancelEvaluation(tx, id, now);
    // ended meanwhile (or deleted): throwing rolls the no-op back with nothing logged
    if (!outcome || outcome.cancelledJobs === 0) throw new ForbiddenError(CHANGED_MEANWHILE);
    await tx.auditLog.create({ data: { actorId: viewer?.id ?? null, action: "submission_cancelled", targetType: "submission", targetId: id } });
    return outcome;
  });
}

// ---------------------------------------------------------------- the review page

/** Which of its entry's runs a submission is (SPEC §7): run 1 of 1 for a single run. */
export type RunOfEntry = { run: number; of: number };

export type PendingReview = {
  id: string;
  system: { name: string; model: string; contextConfig: string };
  run: RunOfEntry;
  /** what its badges stand on, as the leaderboard reads them (lib/leaderboard/view.ts rowBadges): this run's own */
  badges: BadgeFacts;
  team: { name: string; slug: string };
  mode: Mode;
  datasetVersion: string;
  publishRequestedAt: Date | null;
  scores: SubmissionScores | null;
};

function assertReviewer(viewer: Viewer | null): void {
  // the review queue does not exist for anyone else
  if (!canReview(viewer)) throw new NotFoundError("review queue");
}

/** How many runs each of these submissions' entries has, by its run 1's id. */
async function entryRunCounts(subs: readonly { id: string; runOfId: string | null }[]): Promise<Map<string, number>> {
  const firsts = [...new Set(subs.map((s) => s.runOfId ?? s.id))];
  const later = await db.submission.groupBy({ by: ["runOfId"], where: { runOfId: { in: firsts } }, _count: { _all: true } });
  const counts = new Map(firsts.map((f) => [f, 1]));
  for (const l of later) if (l.runOfId) counts.set(l.runOfId, 1 + l._count._all);
  return counts;
}

/** Submissions waiting for a reviewer, oldest request first. */
export async function listPendingReview(viewer: Viewer | null): Promise<PendingReview[]> {
  assertReviewer(viewer);
  const rows = await db.submission.findMany({
    where: { visibility: "pending_review" },
    orderBy: [{ publishRequestedAt: "asc" }, { createdAt: "asc" }],
    select: {
      ...trustRunSelect,
      mode: true,
      runOfId: true,
      publishRequestedAt: true,
      score: { select: { computedAt: true } },
      datasetVersion: { select: { version: true, rules: true } },
      system: { select: { name: true, model: true, contextConfig: true, openWeights: true, openScaffold: true, team: { select: { name: true, slug: true } } } },
    },
  });
  const [scores, runs, records] = await Promise.all([
    scoresForSubmissions(rows.map((r) => r.id)),
    entryRunCounts(rows),
    storedChainRecords(rows.flatMap((r) => (r.score ? [{ id: r.id, computedAt: r.score.computedAt }] : []))),
  ]);
  // each waiting run on its own: its badges are its own, not its entry's public row's
  const trust = await Promise.all(rows.map(async (r) => (await entriesTrust([[r]], parseColumn(versionRulesSchema, r.datasetVersion.rules, "DatasetVersion.rules"), records))[0]!));
  return rows.map((r, i) => ({
    id: r.id,
    system: { name: r.system.name, model: r.system.model, contextConfig: r.system.contextConfig },
    run: { run: r.run, of: runs.get(r.runOfId ?? r.id) ?? 1 },
    badges: { ...trust[i]!, system: { openWeights: r.system.openWeights, openScaffold: r.system.openScaffold } },
    team: r.system.team,
    mode: modeSchema.parse(r.mode),
    datasetVersion: r.datasetVersion.version,
    publishRequestedAt: r.publishRequestedAt,
    scores: scores.get(r.id) ?? null,
  }));
}

export const REVIEW_DECISIONS = ["publication_approved", "publication_rejected", "submission_rerun"] as const satisfies readonly AuditAction[];
const reviewDecisionSchema = z.enum(REVIEW_DECISIONS);

export type ReviewDecision = {
  id: string;
  action: (typeof REVIEW_DECISIONS)[number];
  actor: string | null;
  submissionId: string;
  /** null when the submission is gone */
  system: string | null;
  mode: Mode | null;
  run: RunOfEntry | null;
  visibility: Visibility | null;
  reason: string | null;
  at: Date;
};

/** The latest reviewer decisions, newest first. */
export async function recentReviewDecisions(viewer: Viewer | null, limit = 20): Promise<ReviewDecision[]> {
  assertReviewer(viewer);
  const rows = await db.auditLog.findMany({
    where: { targetType: "submission", action: { in: [...REVIEW_DECISIONS] } },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit,
    select: { id: true, action: true, targetId: true, reason: true, createdAt: true, actor: { select: { username: true, name: true } } },
  });
  const subs = await db.submission.findMany({
    where: { id: { in: rows.map((r) => r.targetId) } },
    select: { id: true, visibility: true, mode: true, run: true, runOfId: true, system: { select: { name: true } } },
  });
  const byId = new Map(subs.map((s) => [s.id, s]));
  const runs = await entryRunCounts(subs);
  return rows.map((r) => {
    const s = byId.get(r.targetId);
    return {
      id: r.id,
      action: reviewDecisionSchema.parse(r.action),
      actor: r.actor?.username ?? r.actor?.name ?? null,
      submissionId: r.targetId,
      system: s?.system.name ?? null,
      mode: s ? modeSchema.parse(s.mode) : null,
      run: s ? { run: s.run, of: runs.get(s.runOfId ?? s.id) ?? 1 } : null,
      visibility: s ? visibilitySchema.parse(s.visibility) : null,
      reason: r.reason,
      at: r.createdAt,
    };
  });
}
