/**
 * Aggregates are computed when a submission completes and are what the
 * leaderboard reads: scores equal scoreRun's on the same results, the Seq
 * submission's chain errors are analysed against the system's Oracle one, and
 * the leaderboard shows public rows only, with the relative change vs Oracle.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bugResultRow } from "@/evaluator/queue/results";
import { scoreRun } from "@/evaluator/scoring";
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

/** A completed submission whose bugs all resolve, except those listed as unresolved (chain → orders). */
async function completed(system: string, mode: "oracle" | "seq", unresolved: Record<string, number[]> = {}, visibility = "public") {
  const { id } = await t.submissions.createSubmission({ systemName: system, teamName: "agg", datasetVersion: "v1", mode, predictions: DEMO_GOLD_SEQ });
  for (const job of await t.db.evaluationJob.findMany({ where: { submissionId: id } })) {
    const arts = fakeGradedChain((await t.datasets.getChain("v1", job.continuousId))!, system).map((a) => {
      if (!unresolved[job.continuousId]?.includes(a.bug.order)) return a;
      // the agent's patch for this bug touched a file the next bug's gold patch needs: an overshoot
      return { ...a, bug: { ...a.bug, resolved: false, fingerprint: "broke_working_code" as const, model_files: ["stray.py"] } };
    });
    await t.db.bugResult.createMany({ data: arts.map((a) => bugResultRow(id, a)) });
  }
  await t.db.evaluationJob.updateMany({ where: { submissionId: id }, data: { status: "done" } });
  await t.db.submission.update({ where: { id }, data: { status: "completed", visibility, finishedAt: new Date(), reviewedAt: new Date() } });
  return id;
}

describe("refreshAggregates and the leaderboard", () => {
  it("stores scoreRun's scores, analyses Seq against Oracle, and ranks public rows with their change vs Oracle", async () => {
    const oracle = await completed("sys-a", "oracle");
    const seq = await completed("sys-a", "seq", { "inikit-chain-1": [2] });
    await completed("sys-private", "seq", {}, "private");

    expect(await agg.refreshAggregates(seq)).toEqual({ scored: true, analyses: 1 });
    expect(await agg.refreshAggregates(oracle)).toEqual({ scored: true, analyses: 1 });
    const stored = agg.parseStoredScores((await t.db.submissionScore.findUniqueOrThrow({ where: { submissionId: seq } })).scores);
    const { runResultsForSubmission } = await import("@/lib/submissions/run-results");
    const run = (await runResultsForSubmission(seq))!;
    expect(stored.strict.length3).toEqual(scoreRun(run, { scoring: "strict", positions: "length3" }));
    expect(stored.lenient.all).toEqual(scoreRun(run, { scoring: "lenient", positions: "all" }));
    // strict: bug 2 unresolved takes bug 3 of the chain with it
    expect(stored.strict.all.counts.resolved).toBe(14);
    expect(stored.lenient.all.counts.resolved).toBe(15);

    const analysis = await t.db.chainErrorAnalysis.findUniqueOrThrow({ where: { seqSubmissionId: seq } });
    expect(analysis.oracleSubmissionId).toBe(oracle);
    const errors = JSON.parse(analysis.chainErrors) as { continuous_id: string; order: number }[];
    expect(errors.map((e) => [e.continuous_id, e.order])).toEqual([["inikit-chain-1", 2]]);

    const board = await lb.getLeaderboard({ version: "v1" });
    expect(board.rows.map((r) => `${r.system.name}/${r.mode}`).sort()).toEqual(["sys-a/oracle", "sys-a/seq"]);
    const seqRow = board.rows.find((r) => r.mode === "seq")!;
    expect(seqRow.perBug.value).toBeCloseTo((14 / 16) * 100, 6);
    expect(seqRow.vsOracle.perBug).toBeCloseTo(14 / 16 - 1, 6);
    expect(board.rows.find((r) => r.mode === "oracle")!.vsOracle.perBug).toBeNull();
    const lenient = await lb.getLeaderboard({ version: "v1", scoring: "lenient" });
    expect(lenient.rows.find((r) => r.mode === "seq")!.perBug.value).toBeCloseTo((15 / 16) * 100, 6);
  });

  it("a re-run removes what was computed from the old results", async () => {
    const oracle = await completed("sys-b", "oracle");
    const seq = await completed("sys-b", "seq");
    await agg.refreshAggregates(oracle);
    await agg.refreshAggregates(seq);
    const reviewer = await t.db.user.create({ data: { username: "rev-agg", isReviewer: true } });
    const { viewerById } = await import("@/lib/accounts/users");
    const { rerunSubmission } = await import("@/lib/submissions/review");
    await rerunSubmission((await viewerById(reviewer.id))!, oracle);
    expect(await t.db.submissionScore.count({ where: { submissionId: oracle } })).toBe(0);
    expect(await t.db.chainErrorAnalysis.count({ where: { oracleSubmissionId: oracle } })).toBe(0);
    expect(await t.db.submissionScore.count({ where: { submissionId: seq } })).toBe(1);
  });
});
