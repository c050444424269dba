/**
 * getLeaderboard against a real database: the newest public completed
 * submission stands for each system × mode, nothing private shows, and the
 * scores kept in memory between requests follow every recomputation.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bugResultRow } from "@/evaluator/queue/results";
import { DEMO_GOLD_SEQ, fakeGradedChain, openTestDb } from "@/lib/testing/test-db";

let t: Awaited<ReturnType<typeof openTestDb>>;
let agg: typeof import("@/lib/leaderboard/aggregates");
let lb: typeof import("@/lib/leaderboard/data");

beforeAll(async () => {
  t = await openTestDb();
  agg = await import("@/lib/leaderboard/aggregates");
  lb = await import("@/lib/leaderboard/data");
}, 60_000);
afterAll(async () => t?.close());

/** A completed, scored submission; `unresolved` bugs as "chain#order". */
async function completed(system: string, mode: "oracle" | "seq", opts: { unresolved?: string[]; visibility?: string; finishedAt?: Date } = {}) {
  const { id } = await t.submissions.createSubmission({ systemName: system, teamName: "lb", datasetVersion: "v1", mode, predictions: DEMO_GOLD_SEQ });
  for (const job of await t.db.evaluationJob.findMany({ where: { submissionId: id } })) {
    const arts = fakeGradedChain((await t.datasets.getChain("v1", job.continuousId))!, system).map((a) =>
      opts.unresolved?.includes(`${job.continuousId}#${a.bug.order}`) ? { ...a, bug: { ...a.bug, resolved: false, fingerprint: "left_unfixed" as const } } : a,
    );
    await t.db.bugResult.createMany({ data: arts.map((a) => bugResultRow(id, a)) });
  }
  await t.db.submission.update({
    where: { id },
    data: { status: "completed", visibility: opts.visibility ?? "public", finishedAt: opts.finishedAt ?? new Date(), reviewedAt: new Date() },
  });
  await agg.refreshAggregates(id);
  return id;
}

const names = (rows: { system: { name: string }; mode: string; submissionId: string }[]) => rows.map((r) => `${r.system.name}/${r.mode}`).sort();

describe("getLeaderboard", () => {
  it("one row per public system × mode: the newest public completed submission", async () => {
    await completed("lb-a", "oracle", { finishedAt: new Date("2025-01-01") });
    const newer = await completed("lb-a", "oracle", { unresolved: ["inikit-chain-1#1"], finishedAt: new Date("2025-02-01") });
    await completed("lb-a", "seq", { visibility: "pending_review" });
    await completed("lb-b", "seq", { visibility: "private" });
    const board = await lb.getLeaderboard({ version: "v1" });
    expect(names(board.rows)).toEqual(["lb-a/oracle"]);
    expect(board.rows[0]!.submissionId).toBe(newer);
    expect(board.rows[0]!.counts.resolved).toBe(15);
    expect(board.rows[0]!.team).toEqual({ name: "lb", slug: expect.any(String) });
    expect(board.versions).toEqual(["v1"]);
    expect((await lb.getLeaderboard({ version: "nope" })).rows).toEqual([]);
  });

  it("follows a recomputation of the stored scores, and drops a row whose scores are gone", async () => {
    const seq = await completed("lb-c", "seq");
    const before = (await lb.getLeaderboard({ version: "v1" })).rows.find((r) => r.submissionId === seq)!;
    expect(before.counts.resolved).toBe(16);
    // the results change (as after a re-run) and the aggregates are recomputed
    await t.db.bugResult.updateMany({ where: { submissionId: seq, continuousId: "inikit-chain-1", order: 1 }, data: { resolved: false, fingerprint: "left_unfixed" } });
    await sleep(5);
    await agg.refreshAggregates(seq);
    const strict = (await lb.getLeaderboard({ version: "v1" })).rows.find((r) => r.submissionId === seq)!;
    const lenient = (await lb.getLeaderboard({ version: "v1", scoring: "lenient" })).rows.find((r) => r.submissionId === seq)!;
    // strict: bug 1 unresolved takes the chain's bugs 2 and 3 with it
    expect(strict.counts.resolved).toBe(13);
    expect(lenient.counts.resolved).toBe(15);
    await t.db.submissionScore.delete({ where: { submissionId: seq } });
    expect((await lb.getLeaderboard({ version: "v1" })).rows.find((r) => r.submissionId === seq)).toBeUndefined();
  });

  it("answers from memory while nothing changed, and sees a withdrawal or a system's edit at once", async () => {
    const id = await completed("lb-d", "oracle");
    const first = await lb.getLeaderboard({ version: "v1" });
    expect(await lb.getLeaderboard({ version: "v1" })).toBe(first);
    await sleep(2);
    await t.db.system.updateMany({ where: { name: "lb-d" }, data: { model: "lb-d-model-2" } });
    expect((await lb.getLeaderboard({ version: "v1" })).rows.find((r) => r.submissionId === id)?.system.model).toBe("lb-d-model-2");
    await sleep(2);
    await t.db.submission.update({ where: { id }, data: { visibility: "private" } });
    expect((await lb.getLeaderboard({ version: "v1" })).rows.find((r) => r.submissionId === id)).toBeUndefined();
  });

  it("keeps what was derived from it until its data changes", async () => {
    let computed = 0;
    const derive = () => lb.derivedFromLeaderboard("test", async () => ++computed);
    expect(await derive()).toBe(1);
    expect(await derive()).toBe(1);
    await sleep(2);
    await completed("lb-e", "seq");
    expect(await derive()).toBe(2);
  });
});
