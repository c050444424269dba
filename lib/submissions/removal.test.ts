/**
 * Deleting submissions against a real database: the team's delete of its own
 * private submission (and every refusal, which changes nothing), and the
 * cleanup of cancelled ones after their grace period. Either way everything
 * stored with the submission goes and its audit rows stay.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Viewer } from "@/lib/authz";
import { ForbiddenError, NotFoundError } from "@/core/errors";
import { DEMO_GOLD_SEQ, gradeQueuedChains, openTestDb, testViewer } from "@/lib/testing/test-db";

let t: Awaited<ReturnType<typeof openTestDb>>;
let removal: typeof import("@/lib/submissions/removal");
let review: typeof import("@/lib/submissions/review");
let member: Viewer;
let outsider: Viewer;
let reviewer: Viewer;
let systemId: string;

const CHAINS = ["inikit-chain-1", "moneyx-chain-1"];

beforeAll(async () => {
  t = await openTestDb();
  removal = await import("@/lib/submissions/removal");
  review = await import("@/lib/submissions/review");
  const { ensureSystem } = await import("@/lib/teams/systems");
  systemId = await ensureSystem({ teamName: "Alpha", name: "alpha-agent" });
  const { teamId } = await t.db.system.findUniqueOrThrow({ where: { id: systemId }, select: { teamId: true } });
  const other = await t.db.system.findUniqueOrThrow({ where: { id: await ensureSystem({ teamName: "Beta", name: "beta-agent" }) }, select: { teamId: true } });
  member = await testViewer(t, "alice", teamId);
  outsider = await testViewer(t, "bob", other.teamId);
  reviewer = await testViewer(t, "rita", null, { isReviewer: true });
}, 60_000);

afterAll(async () => t?.close());

beforeEach(async () => {
  await t.db.submission.deleteMany();
  await t.db.auditLog.deleteMany();
});

const queued = async (runOf?: string) =>
  (await t.submissions.createSubmission({ systemId, datasetVersion: "v1", mode: "seq", predictions: DEMO_GOLD_SEQ, chainIds: CHAINS, runOf })).id;

async function completed(runOf?: string): Promise<string> {
  const id = await queued(runOf);
  await gradeQueuedChains(t);
  return id;
}

/** What is stored for the submission, row counts by table. */
async function stored(id: string) {
  const where = { submissionId: id };
  const [submission, predictions, results, jobs, trajectories, scores] = await Promise.all([
    t.db.submission.count({ where: { id } }),
    t.db.prediction.count({ where }),
    t.db.bugResult.count({ where }),
    t.db.evaluationJob.count({ where }),
    t.db.trajectory.count({ where }),
    t.db.submissionScore.count({ where }),
  ]);
  return { submission, predictions, results, jobs, trajectories, scores };
}

const audits = async (id: string) => (await t.db.auditLog.findMany({ where: { targetId: id }, orderBy: { createdAt: "asc" } })).map((a) => [a.action, a.actorId]);

async function refusedUnchanged(id: string, act: () => Promise<unknown>, error: new (...a: never[]) => Error, message?: RegExp) {
  const before = [await stored(id), await t.db.submission.findUnique({ where: { id } }), await audits(id)];
  const thrown = await act().then(() => null, (e: unknown) => e);
  expect(thrown).toBeInstanceOf(error);
  if (message) expect((thrown as Error).message).toMatch(message);
  expect([await stored(id), await t.db.submission.findUnique({ where: { id } }), await audits(id)]).toEqual(before);
}

describe("deleteSubmissionFor", () => {
  it("deletes the team's private submission and everything stored with it; its audit rows stay, with the deletion's", async () => {
    const id = await completed();
    await review.changeVisibility(member, id, { action: "request_publication" });
    await review.changeVisibility(member, id, { action: "withdraw" });
    expect(await stored(id)).toMatchObject({ submission: 1, predictions: 6, results: 6, jobs: 2 });
    await removal.deleteSubmissionFor(member, id);
    expect(await stored(id)).toEqual({ submission: 0, predictions: 0, results: 0, jobs: 0, trajectories: 0, scores: 0 });
    expect(await audits(id)).toEqual([
      ["publication_requested", member.id],
      ["publication_withdrawn", member.id],
      ["submission_deleted", member.id],
    ]);
  });

  it("deletes a cancelled or failed one too", async () => {
    const id = await queued();
    await review.cancelSubmissionFor(member, id);
    await removal.deleteSubmissionFor(member, id);
    expect((await stored(id)).submission).toBe(0);
  });

  it("refuses while the evaluation runs, and anything not private, changing nothing", async () => {
    const running = await queued();
    await refusedUnchanged(running, () => removal.deleteSubmissionFor(member, running), ForbiddenError, /queued: cancel it first/);
    await review.cancelSubmissionFor(member, running);
    const id = await completed();
    for (const visibility of ["pending_review", "public", "rejected"]) {
      await t.db.submission.update({ where: { id }, data: { visibility } });
      await refusedUnchanged(id, () => removal.deleteSubmissionFor(member, id), ForbiddenError, /only a private submission can be deleted/);
    }
  });

  it("is the team's alone: reviewers are refused, outsiders and visitors do not find it", async () => {
    const id = await completed();
    await refusedUnchanged(id, () => removal.deleteSubmissionFor(reviewer, id), ForbiddenError, /only the submitting team/);
    await refusedUnchanged(id, () => removal.deleteSubmissionFor(outsider, id), NotFoundError);
    await refusedUnchanged(id, () => removal.deleteSubmissionFor(null, id), NotFoundError);
  });

  it("keeps run 1 of an entry while later runs name it", async () => {
    const first = await completed();
    const second = await completed(first);
    await refusedUnchanged(first, () => removal.deleteSubmissionFor(member, first), ForbiddenError, /run 1 of an entry with 1 later run/);
    await removal.deleteSubmissionFor(member, second);
    await removal.deleteSubmissionFor(member, first);
    expect((await stored(first)).submission).toBe(0);
  });
});

describe("purgeCancelledSubmissions", () => {
  it("deletes what was cancelled more than the grace period ago, with an audit row; keeps the rest", async () => {
    const now = new Date("2026-12-10T12:00:00Z");
    const old = await queued();
    await review.cancelSubmissionFor(member, old, new Date("2026-12-02T11:00:00Z"));
    const recent = await queued();
    await review.cancelSubmissionFor(member, recent, new Date("2026-12-09T12:00:00Z"));
    const done = await completed();
    await t.db.submission.update({ where: { id: done }, data: { finishedAt: new Date("2026-11-01T00:00:00Z") } });
    expect(await removal.purgeCancelledSubmissions(7, now)).toBe(1);
    expect((await stored(old)).submission).toBe(0);
    expect((await stored(old)).predictions).toBe(0);
    expect((await stored(recent)).submission).toBe(1);
    expect((await stored(done)).submission).toBe(1);
    const rows = await t.db.auditLog.findMany({ where: { targetId: old }, orderBy: { createdAt: "asc" } });
    expect(rows.map((r) => [r.action, r.actorId, r.reason])).toEqual([
      ["submission_cancelled", member.id, null],
      ["submission_deleted", null, "cancelled 2026-12-02 11:00 UTC; its stored data is deleted after 7 day(s)"],
    ]);
    expect(await removal.purgeCancelledSubmissions(7, now)).toBe(0);
  });
});

describe("stored bytes (the storage limit's count)", () => {
  it("counts the upload's text when stored, the test logs as each chain is handed in; a re-run starts the logs' count again", async () => {
    const { storageUse } = await import("@/lib/submissions/storage");
    const id = await queued();
    const { teamId } = await t.db.system.findUniqueOrThrow({ where: { id: systemId }, select: { teamId: true } });
    const bytes = () => t.db.submission.findUniqueOrThrow({ where: { id }, select: { uploadBytes: true, resultBytes: true } });
    const before = await bytes();
    expect(before.uploadBytes).toBeGreaterThan(0n);
    expect(before.resultBytes).toBe(0n);
    await review.cancelSubmissionFor(member, id);
    await t.db.submission.deleteMany({ where: { id } });
    const done = await completed();
    const logs = await t.db.bugResult.findMany({ where: { submissionId: done }, select: { log: true } });
    const after = await t.db.submission.findUniqueOrThrow({ where: { id: done }, select: { uploadBytes: true, resultBytes: true } });
    expect(Number(after.resultBytes)).toBeGreaterThan(logs.reduce((n, r) => n + Buffer.byteLength(r.log), 0));
    expect(await storageUse({ teamId })).toBe(Number(after.uploadBytes + after.resultBytes));
    await review.rerunSubmission(reviewer, done);
    expect((await t.db.submission.findUniqueOrThrow({ where: { id: done }, select: { resultBytes: true } })).resultBytes).toBe(0n);
  });
});
