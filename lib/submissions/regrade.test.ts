/**
 * Re-grading stored submissions against a real SQLite file: rows whose stored log
 * reads differently under the current grader change, every row records the grader,
 * scores are recomputed, and what changed is kept for the submission page.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GRADER_VERSION } from "@/core/grading";
import { bugResultRow } from "@/jobs/queue/results";
import { bugLogText } from "@/evaluator/replay/log";
import type { BugArtifacts } from "@/evaluator/replay";
import { DEMO_GOLD_SEQ, fakeGradedChain, openTestDb } from "@/lib/testing/test-db";

let t: Awaited<ReturnType<typeof openTestDb>>;
let id: string;
const CHAIN = "inikit-chain-1";

/** The log the replay keeps for a run whose summary reports every listed test as passed. */
function passingLog(a: BugArtifacts): string {
  const ids = [...a.bug.fail_to_pass.success, ...a.bug.fail_to_pass.failure, ...a.bug.pass_to_pass.success, ...a.bug.pass_to_pass.failure];
  const run = { output: ids.map((x) => `PASSED ${x}`).join("\n"), exitCode: 0, timedOut: false, diskExceeded: null, truncated: false, durationMs: 500 };
  return bugLogText({ bug: a.bug, setupLog: "", run, token: "CHAINSWE-aaaaaaaaaaaaaaaaaaaaaaaa", statuses: {} });
}

beforeAll(async () => {
  t = await openTestDb();
  id = (await t.submissions.createSubmission({ systemName: "rg", teamName: "t", datasetVersion: "v1", mode: "seq", predictions: DEMO_GOLD_SEQ, chainIds: [CHAIN] })).id;
  const arts = fakeGradedChain((await t.datasets.getChain("v1", CHAIN))!, "rg").map((a) => ({ ...a, log: passingLog(a) }));
  // an older grader read bug 2's log as leaving its FAIL_TO_PASS test unfixed
  const b = arts[1]!.bug;
  Object.assign(b, { resolved: false, fingerprint: "left_unfixed", fail_to_pass: { success: [], failure: b.fail_to_pass.success }, grader_version: "0.9.0" });
  await t.db.bugResult.createMany({ data: arts.map((a) => bugResultRow(id, a)) });
  await t.db.submission.update({ where: { id }, data: { status: "completed" } });
}, 60_000);
afterAll(async () => t?.close());

describe("regradeSubmission", () => {
  it("updates the verdict the current grader reads differently, records the grader on every row and keeps what changed", async () => {
    const { regradeSubmission, parseLastRegrade } = await import("@/lib/submissions/regrade");
    const report = (await regradeSubmission(id))!;
    expect(report.failures).toEqual([]);
    expect(report.changed.map((c) => [c.order, c.old.resolved, c.new.resolved])).toEqual([[2, false, true]]);
    const tests = report.changed[0]!.tests;
    expect(tests.map((x) => x.id)).toEqual((await t.datasets.getChain("v1", CHAIN))!.bug_fixes[1]!.FAIL_TO_PASS);
    expect(tests.every((x) => x.list === "FAIL_TO_PASS" && x.old === "failed" && x.new === "PASSED")).toBe(true);
    const rows = await t.db.bugResult.findMany({ where: { submissionId: id }, orderBy: { order: "asc" } });
    expect(rows.map((r) => [r.order, r.resolved, r.fingerprint, r.graderVersion])).toEqual([
      [1, true, null, GRADER_VERSION],
      [2, true, null, GRADER_VERSION],
      [3, true, null, GRADER_VERSION],
    ]);
    const stored = await t.db.submission.findUniqueOrThrow({ where: { id }, select: { lastRegrade: true } });
    expect(parseLastRegrade(stored.lastRegrade)).toEqual(report);
    // the scores were recomputed from the new verdicts
    expect(await t.db.submissionScore.findUnique({ where: { submissionId: id } })).not.toBeNull();
  });

  it("changes nothing the second time", async () => {
    const { regradeSubmission } = await import("@/lib/submissions/regrade");
    const scoredAt = (await t.db.submissionScore.findUniqueOrThrow({ where: { submissionId: id } })).computedAt;
    expect((await regradeSubmission(id))!.changed).toEqual([]);
    expect((await t.db.submissionScore.findUniqueOrThrow({ where: { submissionId: id } })).computedAt).toEqual(scoredAt);
  });

  it("is for site admins only, and logged", async () => {
    const { regradeAsSiteAdmin } = await import("@/lib/submissions/regrade");
    const { viewerById } = await import("@/lib/accounts/users");
    const { NotFoundError } = await import("@/core/errors");
    const plain = await t.db.user.create({ data: { username: "pat", name: "pat", isReviewer: true } });
    const admin = await t.db.user.create({ data: { username: "ada", name: "ada", isSiteAdmin: true } });
    await expect(regradeAsSiteAdmin(await viewerById(plain.id), id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(regradeAsSiteAdmin(null, null)).rejects.toBeInstanceOf(NotFoundError);
    expect(await regradeAsSiteAdmin(await viewerById(admin.id), null)).toEqual({ submissions: 1, changed: 0 });
    expect(await t.db.auditLog.findFirst({ where: { action: "results_regraded" } })).toMatchObject({ actorId: admin.id, targetId: "all" });
  });

  it("marks in the audit log a re-grade by a site admin tied to the submission (here: a member of its team)", async () => {
    const { regradeAsSiteAdmin } = await import("@/lib/submissions/regrade");
    const { viewerById } = await import("@/lib/accounts/users");
    const admin = await t.db.user.create({ data: { username: "tam", name: "tam", isSiteAdmin: true } });
    const { system } = await t.db.submission.findUniqueOrThrow({ where: { id }, select: { system: { select: { teamId: true } } } });
    await t.db.teamMember.create({ data: { teamId: system.teamId, userId: admin.id } });
    await regradeAsSiteAdmin(await viewerById(admin.id), id);
    await regradeAsSiteAdmin(await viewerById(admin.id), null);
    const rows = await t.db.auditLog.findMany({ where: { action: "results_regraded", actorId: admin.id }, orderBy: { id: "asc" }, select: { targetId: true, reason: true } });
    // the one re-grade, and the re-grade of all, each name the tie on the submission's own row
    expect(rows.filter((r) => r.targetId === id).map((r) => r.reason)).toEqual([
      `grader ${GRADER_VERSION}; by a member of the submitting team`,
      `grader ${GRADER_VERSION}; by a member of the submitting team (re-grade of all)`,
    ]);
    expect(rows.filter((r) => r.targetId === "all")).toHaveLength(1);
    // an untied admin's re-grade carries no mark
    const ada = (await t.db.user.findUniqueOrThrow({ where: { username: "ada" } })).id;
    await regradeAsSiteAdmin(await viewerById(ada), id);
    expect((await t.db.auditLog.findFirst({ where: { action: "results_regraded", actorId: ada, targetId: id } }))?.reason).toBe(`grader ${GRADER_VERSION}`);
  });

  it("is null for an unknown submission", async () => {
    const { regradeSubmission } = await import("@/lib/submissions/regrade");
    expect(await regradeSubmission("nope")).toBeNull();
  });
});
