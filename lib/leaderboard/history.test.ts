/**
 * Archived boards against a real database (SPEC §6): `as_of` shows the rows
 * public at that day's end, each scored as it was stored then, grader version
 * included; a re-grade and a re-run keep the scores they replace.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { completedSubmission, openTestDb } from "@/lib/testing/test-db";
import { clockTicked } from "@/lib/testing/wait";

let t: Awaited<ReturnType<typeof openTestDb>>;
let agg: typeof import("@/lib/leaderboard/aggregates");
let lb: typeof import("@/lib/leaderboard/data");
let queue: typeof import("@/jobs/queue");

beforeAll(async () => {
  t = await openTestDb();
  agg = await import("@/lib/leaderboard/aggregates");
  lb = await import("@/lib/leaderboard/data");
  queue = await import("@/jobs/queue");
});
afterAll(async () => t?.close());

const day = (d: string) => new Date(`${d}T12:00:00Z`);
const decided = (id: string, action: "publication_approved" | "publication_withdrawn", d: string) =>
  t.db.auditLog.create({ data: { action, targetType: "submission", targetId: id, createdAt: day(d) } });
const rowsOn = async (asOf?: string) =>
  Object.fromEntries((await lb.getLeaderboard({ version: "v1", as_of: asOf })).rows.map((r) => [r.system.name, { resolved: r.counts.resolved, grader: r.graderVersion }]));

describe("the board as of a day", () => {
  it("shows what was public then, scored as stored then, through a re-grade, a withdrawal and a re-run", async () => {
    // A: scored on Jan 10 (grader 0.2.0), approved Jan 12, re-graded Feb 1 (one bug fewer)
    const a = await completedSubmission(t, { system: { name: "hist-a", team: "hist" }, mode: "oracle", aggregates: true });
    await t.db.submission.update({ where: { id: a }, data: { createdAt: day("2026-01-09") } });
    await t.db.submissionScore.update({ where: { submissionId: a }, data: { computedAt: day("2026-01-10"), graderVersion: "0.2.0" } });
    await decided(a, "publication_approved", "2026-01-12");
    await t.db.bugResult.updateMany({ where: { submissionId: a, continuousId: "inikit-chain-1", order: 3 }, data: { resolved: false, fingerprint: "left_unfixed" } });
    await clockTicked();
    await agg.refreshAggregates(a);
    const revisions = await t.db.scoreRevision.findMany({ where: { submissionId: a } });
    expect(revisions.map((r) => [r.computedAt.toISOString(), r.graderVersion])).toEqual([[day("2026-01-10").toISOString(), "0.2.0"]]);
    await t.db.scoreRevision.updateMany({ where: { submissionId: a }, data: { replacedAt: day("2026-02-01") } });
    await t.db.submissionScore.update({ where: { submissionId: a }, data: { computedAt: day("2026-02-01"), graderVersion: "0.3.0" } });
    // B: scored Jan 3, approved Jan 5, withdrawn Jan 20 (private today)
    const b = await completedSubmission(t, { system: { name: "hist-b", team: "hist" }, mode: "oracle", aggregates: true, visibility: "private" });
    await t.db.submission.update({ where: { id: b }, data: { createdAt: day("2026-01-02") } });
    await t.db.submissionScore.update({ where: { submissionId: b }, data: { computedAt: day("2026-01-03") } });
    await decided(b, "publication_approved", "2026-01-05");
    await decided(b, "publication_withdrawn", "2026-01-20");
    await clockTicked();

    expect(await rowsOn("2026-01-04")).toEqual({});
    expect(Object.keys(await rowsOn("2026-01-11"))).toEqual(["hist-b"]);
    expect(await rowsOn("2026-01-15")).toMatchObject({ "hist-a": { resolved: 16, grader: "0.2.0" }, "hist-b": { resolved: 16 } });
    expect(await rowsOn("2026-01-25")).toEqual({ "hist-a": { resolved: 16, grader: "0.2.0" } });
    expect(await rowsOn("2026-02-01")).toEqual({ "hist-a": { resolved: 15, grader: "0.3.0" } });
    expect(await rowsOn()).toEqual({ "hist-a": { resolved: 15, grader: "0.3.0" } });

    // a reviewer's re-run retires A's scores: gone from today's board until rescored, kept on Jan 15's
    await clockTicked();
    await t.db.$transaction((tx) => queue.requeueEvaluation(tx, a, new Date()));
    expect(await t.db.submissionScore.count({ where: { submissionId: a } })).toBe(0);
    expect(await rowsOn()).toEqual({});
    expect(await rowsOn("2026-01-15")).toMatchObject({ "hist-a": { resolved: 16, grader: "0.2.0" } });
    expect(await rowsOn("2026-02-01")).toEqual({ "hist-a": { resolved: 15, grader: "0.3.0" } });
  });

  it("keeps no revision when a refresh computes the same scores again", async () => {
    const c = await completedSubmission(t, { system: { name: "hist-c", team: "hist" }, mode: "seq", aggregates: true });
    const before = await t.db.submissionScore.findUniqueOrThrow({ where: { submissionId: c } });
    await clockTicked();
    await agg.refreshAggregates(c);
    expect(await t.db.scoreRevision.count({ where: { submissionId: c } })).toBe(0);
    expect((await t.db.submissionScore.findUniqueOrThrow({ where: { submissionId: c } })).computedAt).toEqual(before.computedAt);
  });

  it("refuses an as_of that is not a past day", async () => {
    await expect(lb.getLeaderboard({ version: "v1", as_of: "2999-01-01" })).rejects.toThrow(/in the future/);
    await expect(lb.getLeaderboard({ version: "v1", as_of: "2026-13-01" })).rejects.toThrow(/not a calendar date/);
  });
});
