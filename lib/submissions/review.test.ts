/**
 * Publication, review, re-run and cancel against a real SQLite file: each rule
 * for each kind of viewer, the audit row it leaves, and that a refused action
 * changed nothing.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Viewer } from "@/lib/authz";
import { FieldError, ForbiddenError, NotFoundError } from "@/core/errors";
import { DEMO_GOLD_SEQ, fakeGradedChain, gradeQueuedChains, openTestDb, TEST_QUEUE_POLICY, testViewer } from "@/lib/testing/test-db";

let t: Awaited<ReturnType<typeof openTestDb>>;
let vis: typeof import("@/lib/submissions/review");
let queue: typeof import("@/jobs/queue");
let progress: typeof import("@/jobs/queue/progress");
let member: Viewer;
let outsider: Viewer;
let reviewer: Viewer;
/** a site reviewer who is also on the submitting team */
let teamReviewer: Viewer;
let systemId: string;

const policy = TEST_QUEUE_POLICY;
const CHAINS = ["inikit-chain-1", "moneyx-chain-1"];

beforeAll(async () => {
  t = await openTestDb();
  vis = await import("@/lib/submissions/review");
  queue = await import("@/jobs/queue");
  progress = await import("@/jobs/queue/progress");
  const { ensureSystem } = await import("@/lib/teams/systems");
  systemId = await ensureSystem({ teamName: "Alpha", name: "alpha-agent" });
  const alpha = await t.db.system.findUniqueOrThrow({ where: { id: systemId }, select: { teamId: true } });
  const otherSystem = await ensureSystem({ teamName: "Beta", name: "beta-agent" });
  const beta = await t.db.system.findUniqueOrThrow({ where: { id: otherSystem }, select: { teamId: true } });
  member = await testViewer(t, "alice", alpha.teamId);
  outsider = await testViewer(t, "bob", beta.teamId);
  reviewer = await testViewer(t, "rita", null, { isReviewer: true });
  teamReviewer = await testViewer(t, "ruth", alpha.teamId, { isReviewer: true });
}, 60_000);

afterAll(async () => t?.close());

beforeEach(async () => {
  await t.db.submission.deleteMany();
});

async function submission(): Promise<string> {
  const s = await t.submissions.createSubmission({ systemId, datasetVersion: "v1", mode: "seq", predictions: DEMO_GOLD_SEQ, chainIds: CHAINS });
  return s.id;
}

/** Grades every chain of the (only) submission in the queue. */
async function completed(): Promise<string> {
  const id = await submission();
  await gradeQueuedChains(t);
  return id;
}

const setVisibility = (id: string, visibility: string) => t.db.submission.update({ where: { id }, data: { visibility } });

/** Everything an action could touch. */
async function snapshot(id: string) {
  const [submission, jobs, results, audits] = await Promise.all([
    t.db.submission.findUnique({ where: { id } }),
    t.db.evaluationJob.findMany({ where: { submissionId: id }, orderBy: { id: "asc" } }),
    t.db.bugResult.count({ where: { submissionId: id } }),
    t.db.auditLog.findMany({ where: { targetId: id } }),
  ]);
  return { submission, jobs, results, audits };
}

async function refusedUnchanged(id: string, act: () => Promise<unknown>, error: new (...a: never[]) => Error, message?: RegExp) {
  const before = await snapshot(id);
  const thrown = await act().then(
    () => null,
    (e: unknown) => e,
  );
  expect(thrown).toBeInstanceOf(error);
  if (message) expect((thrown as Error).message).toMatch(message);
  expect(await snapshot(id)).toEqual(before);
}

const audits = (id: string) => t.db.auditLog.findMany({ where: { targetId: id }, orderBy: { createdAt: "asc" } });

describe("changeVisibility", () => {
  it("runs the whole cycle: request, reject with a reason, request again, approve, withdraw; each audited", async () => {
    const id = await completed();
    expect(await vis.changeVisibility(member, id, { action: "request_publication" })).toBe("pending_review");
    const requested = await t.db.submission.findUniqueOrThrow({ where: { id } });
    expect(requested.publishRequestedAt).toBeInstanceOf(Date);

    expect(await vis.changeVisibility(reviewer, id, { action: "reject", reason: "  logs show a flaky test  " })).toBe("rejected");
    expect(await t.db.submission.findUniqueOrThrow({ where: { id } })).toMatchObject({ visibility: "rejected", reviewReason: "logs show a flaky test" });

    expect(await vis.changeVisibility(member, id, { action: "request_publication" })).toBe("pending_review");
    expect(await t.db.submission.findUniqueOrThrow({ where: { id } })).toMatchObject({ reviewReason: null, reviewedAt: null });
    expect(await vis.changeVisibility(reviewer, id, { action: "approve" })).toBe("public");
    expect((await t.db.submission.findUniqueOrThrow({ where: { id } })).reviewedAt).toBeInstanceOf(Date);
    expect(await vis.changeVisibility(member, id, { action: "withdraw" })).toBe("private");

    expect((await audits(id)).map((a) => [a.action, a.actorId, a.targetType, a.reason])).toEqual([
      ["publication_requested", member.id, "submission", null],
      ["publication_rejected", reviewer.id, "submission", "logs show a flaky test"],
      ["publication_requested", member.id, "submission", null],
      ["publication_approved", reviewer.id, "submission", null],
      ["publication_withdrawn", member.id, "submission", null],
    ]);
  });

  it("refuses a reviewer's decision on their own team's submission", async () => {
    const id = await completed();
    await vis.changeVisibility(teamReviewer, id, { action: "request_publication" });
    await refusedUnchanged(id, () => vis.changeVisibility(teamReviewer, id, { action: "approve" }), ForbiddenError, /own team.*another reviewer/);
    await refusedUnchanged(id, () => vis.changeVisibility(teamReviewer, id, { action: "reject", reason: "x" }), ForbiddenError, /own team/);
    expect(await vis.changeVisibility(reviewer, id, { action: "approve" })).toBe("public");
  });

  it("refuses publication before the evaluation completed", async () => {
    const id = await submission();
    await refusedUnchanged(id, () => vis.changeVisibility(member, id, { action: "request_publication" }), ForbiddenError, /queued/);
  });

  it("refuses a rejection without a reason, naming the field", async () => {
    const id = await completed();
    await setVisibility(id, "pending_review");
    await refusedUnchanged(id, () => vis.changeVisibility(reviewer, id, { action: "reject", reason: " " }), FieldError, /^reason/);
    await refusedUnchanged(id, () => vis.changeVisibility(reviewer, id, { action: "reject", reason: "x".repeat(5000) }), FieldError, /^reason/);
    await refusedUnchanged(id, () => vis.changeVisibility(reviewer, id, { action: "publish" }), FieldError, /^action/);
    // a body that is no object at all names the body, not a field
    for (const body of [null, [], "approve", 1]) await refusedUnchanged(id, () => vis.changeVisibility(reviewer, id, body), FieldError, /^body: .*send an object/);
  });

  it("lets only reviewers decide and only the team ask", async () => {
    const id = await completed();
    await setVisibility(id, "pending_review");
    await refusedUnchanged(id, () => vis.changeVisibility(member, id, { action: "approve" }), ForbiddenError);
    await refusedUnchanged(id, () => vis.changeVisibility(reviewer, id, { action: "withdraw" }), ForbiddenError);
    await setVisibility(id, "private");
    await refusedUnchanged(id, () => vis.changeVisibility(reviewer, id, { action: "approve" }), ForbiddenError, /private/);
  });

  it("answers not found to anyone who cannot read the submission, public or not", async () => {
    const id = await completed();
    await refusedUnchanged(id, () => vis.changeVisibility(outsider, id, { action: "request_publication" }), NotFoundError);
    await refusedUnchanged(id, () => vis.changeVisibility(null, id, { action: "request_publication" }), NotFoundError);
    await setVisibility(id, "public");
    // a public submission is readable: now the answer is forbidden, still changing nothing
    await refusedUnchanged(id, () => vis.changeVisibility(outsider, id, { action: "withdraw" }), ForbiddenError);
    await refusedUnchanged(id, () => vis.changeVisibility(null, id, { action: "withdraw" }), ForbiddenError);
    await expect(vis.changeVisibility(member, "no-such-id", { action: "withdraw" })).rejects.toBeInstanceOf(NotFoundError);
  });

  it("refuses an approval when the request was withdrawn in the meantime (checked inside the write)", async () => {
    const id = await completed();
    await setVisibility(id, "pending_review");
    // the reviewer's page was loaded while pending; the team withdraws before the click lands
    await vis.changeVisibility(member, id, { action: "withdraw" });
    await refusedUnchanged(id, () => vis.changeVisibility(reviewer, id, { action: "approve" }), ForbiddenError, /private/);
  });
});

describe("rerunSubmission", () => {
  it("drops the results, queues every chain afresh and audits; the old worker can hand nothing in", async () => {
    const id = await submission();
    // one chain done, one mid-replay under worker "old"
    const first = (await queue.claimJob({ workerId: "w", policy }))!;
    await queue.completeJob({ jobId: first.jobId, workerId: "w", bugs: fakeGradedChain((await t.datasets.getChain("v1", first.payload.continuousId))!) });
    const second = (await queue.claimJob({ workerId: "old", policy }))!;
    await progress.recordBugProgress({ jobId: second.jobId, workerId: "old", bug: { order: 1, resolved: true, fingerprint: null } });

    expect(await vis.rerunSubmission(reviewer, id)).toEqual({ jobs: 2 });
    const after = await snapshot(id);
    expect(after.results).toBe(0);
    expect(after.submission).toMatchObject({ status: "queued", finishedAt: null });
    expect(after.jobs.map((j) => [j.status, j.attempts, j.leaseOwner, j.progress, j.lastError])).toEqual(Array(2).fill(["queued", 0, null, "[]", null]));
    expect(after.audits.map((a) => [a.action, a.actorId])).toEqual([["submission_rerun", reviewer.id]]);

    const stale = fakeGradedChain((await t.datasets.getChain("v1", second.payload.continuousId))!);
    expect(await queue.completeJob({ jobId: second.jobId, workerId: "old", bugs: stale })).toEqual({ accepted: false });
    expect(await progress.recordBugProgress({ jobId: second.jobId, workerId: "old", bug: { order: 2, resolved: true, fingerprint: null } })).toBe(false);
    expect(await queue.heartbeatJob({ jobId: second.jobId, workerId: "old", leaseMs: 10_000 })).toBe(false);
    // a new worker claims the job and its results are the ones that count
    // even once the chain is claimed again, the old worker's hand-in is refused and the new owner's counts
    const claims = [await queue.claimJob({ workerId: "new1", policy }), await queue.claimJob({ workerId: "new2", policy })];
    const fresh = claims.find((c) => c?.jobId === second.jobId)!;
    expect(fresh).toMatchObject({ attempts: 1 });
    expect(await queue.completeJob({ jobId: fresh.jobId, workerId: "old", bugs: stale })).toEqual({ accepted: false });
    expect(await t.db.bugResult.count({ where: { submissionId: id } })).toBe(0);
    expect(await queue.completeJob({ jobId: fresh.jobId, workerId: fresh.leaseOwner, bugs: stale })).toMatchObject({ accepted: true });
  });

  it("keeps the results it replaces as an earlier attempt: each bug's row and log, the status and end, who re-ran it", async () => {
    const id = await completed();
    const before = await t.db.bugResult.findMany({ where: { submissionId: id }, orderBy: [{ continuousId: "asc" }, { order: "asc" }] });
    const ended = await t.db.submission.findUniqueOrThrow({ where: { id }, select: { status: true, finishedAt: true } });
    expect(before.length).toBeGreaterThan(0);
    await vis.rerunSubmission(reviewer, id);
    const [one] = await t.db.earlierAttempt.findMany({ where: { submissionId: id } });
    expect(one).toMatchObject({ attempt: 1, status: ended.status, finishedAt: ended.finishedAt, replacedById: reviewer.id, bugsGraded: before.length, bugsResolved: before.filter((b) => b.resolved).length });
    const kept = one!.results.trimEnd().split("\n").map((l) => JSON.parse(l) as { continuousId: string; order: number; resolved: boolean });
    expect(kept.map((r) => [r.continuousId, r.order, r.resolved])).toEqual(before.map((b) => [b.continuousId, b.order, b.resolved]));
    expect(JSON.parse(one!.logs)).toEqual(Object.fromEntries(before.map((b) => [`${b.continuousId}/${b.order}`, b.log])));
    // a second re-run of what is still queued keeps nothing more (nothing graded), a later one numbers on
    await vis.rerunSubmission(reviewer, id);
    expect(await t.db.earlierAttempt.count({ where: { submissionId: id } })).toBe(1);
  });

  it("is refused to a reviewer on the submitting team", async () => {
    const id = await completed();
    await refusedUnchanged(id, () => vis.rerunSubmission(teamReviewer, id), ForbiddenError, /own team/);
  });

  it("is for reviewers only", async () => {
    const id = await completed();
    await refusedUnchanged(id, () => vis.rerunSubmission(member, id), ForbiddenError);
    await refusedUnchanged(id, () => vis.rerunSubmission(outsider, id), NotFoundError);
    await refusedUnchanged(id, () => vis.rerunSubmission(null, id), NotFoundError);
  });
});

describe("cancelSubmissionFor", () => {
  it("cancels the team's running evaluation and audits it", async () => {
    const id = await submission();
    await queue.claimJob({ workerId: "w", policy });
    expect(await vis.cancelSubmissionFor(member, id)).toEqual({ cancelledJobs: 2, status: "cancelled" });
    const after = await snapshot(id);
    expect(after.submission).toMatchObject({ status: "cancelled" });
    expect(after.submission!.finishedAt).toBeInstanceOf(Date);
    expect(after.audits.map((a) => [a.action, a.actorId])).toEqual([["submission_cancelled", member.id]]);
  });

  it("refuses anyone but the team, and a finished evaluation", async () => {
    const id = await submission();
    await refusedUnchanged(id, () => vis.cancelSubmissionFor(reviewer, id), ForbiddenError);
    await refusedUnchanged(id, () => vis.cancelSubmissionFor(outsider, id), NotFoundError);
    await refusedUnchanged(id, () => vis.cancelSubmissionFor(null, id), NotFoundError);
    await t.db.submission.deleteMany();
    const done = await completed();
    await refusedUnchanged(done, () => vis.cancelSubmissionFor(member, done), ForbiddenError, /completed/);
  });
});

describe("the review queue", () => {
  it("lists pending requests oldest first with scores, and recent decisions; reviewers only", async () => {
    const a = await completed();
    const b = await completed();
    await vis.changeVisibility(member, b, { action: "request_publication" }, new Date("2026-01-01T00:00:00Z"));
    await vis.changeVisibility(member, a, { action: "request_publication" }, new Date("2026-01-02T00:00:00Z"));
    const queueRows = await vis.listPendingReview(reviewer);
    expect(queueRows.map((r) => r.id)).toEqual([b, a]);
    expect(queueRows[0]).toMatchObject({ system: { name: "alpha-agent" }, team: { name: "Alpha" }, mode: "seq", datasetVersion: "v1" });
    expect(queueRows[0]!.scores).toMatchObject({ scoring: "strict", chains: 2, bugs: 6, resolved: 6, strict: { perBug: { value: 100 }, chain: { value: 100 } } });

    await vis.changeVisibility(reviewer, b, { action: "reject", reason: "no" });
    await vis.changeVisibility(reviewer, a, { action: "approve" });
    const decisions = await vis.recentReviewDecisions(reviewer);
    expect(decisions.slice(0, 2).map((d) => [d.action, d.submissionId, d.actor, d.reason, d.visibility, d.system])).toEqual([
      ["publication_approved", a, "rita", null, "public", "alpha-agent"],
      ["publication_rejected", b, "rita", "no", "rejected", "alpha-agent"],
    ]);
    expect(await vis.listPendingReview(reviewer)).toEqual([]);
    await expect(vis.listPendingReview(member)).rejects.toBeInstanceOf(NotFoundError);
    await expect(vis.recentReviewDecisions(null)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("names each run of an entry (run k of n) with its mode, and a waiting run's badges as the leaderboard reads them", async () => {
    const first = await completed();
    const second = (await t.submissions.createSubmission({ systemId, datasetVersion: "v1", mode: "seq", predictions: DEMO_GOLD_SEQ, chainIds: CHAINS, runOf: first })).id;
    await gradeQueuedChains(t);
    await t.db.submission.update({ where: { id: second }, data: { ruleBreaches: JSON.stringify([{ field: "model", rule: "no_hints", action: "flag", message: "not allowed" }]) } });
    await vis.changeVisibility(member, first, { action: "request_publication" });
    await vis.changeVisibility(member, second, { action: "request_publication" });
    const waiting = await vis.listPendingReview(reviewer);
    expect(waiting.map((r) => [r.id, r.run])).toEqual([
      [first, { run: 1, of: 2 }],
      [second, { run: 2, of: 2 }],
    ]);
    // each run's own facts: the breach is run 2's only
    expect(waiting[0]!.badges).toMatchObject({ breaches: [], reviewed: false, verified: false, system: { openWeights: false, openScaffold: false } });
    expect(waiting[1]!.badges.breaches).toEqual([{ field: "model", rule: "no_hints", action: "flag", message: "not allowed", run: 2 }]);
    await vis.changeVisibility(reviewer, second, { action: "approve" });
    const [decision] = await vis.recentReviewDecisions(reviewer);
    expect(decision).toMatchObject({ submissionId: second, mode: "seq", run: { run: 2, of: 2 } });
  });
});
