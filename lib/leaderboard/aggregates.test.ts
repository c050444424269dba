/**
 * Aggregates are computed when a submission completes and are what the
 * leaderboard reads: scores equal scoreRun's on the same results, the Seq
 * submission's chain errors are analysed against the system's Oracle one, and
 * the leaderboard shows public rows only, with the relative change vs Oracle.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scoreRun } from "@/core/scoring";
import { completedSubmission, openTestDb } from "@/lib/testing/test-db";

let t: Awaited<ReturnType<typeof openTestDb>>;
let agg: typeof import("@/lib/leaderboard/aggregates");
let lb: typeof import("@/lib/leaderboard/data");

beforeAll(async () => {
  t = await openTestDb();
  agg = await import("@/lib/leaderboard/aggregates");
  lb = await import("@/lib/leaderboard/data");
});
afterAll(async () => t?.close());

/** A completed submission whose bugs all resolve, except those listed as unresolved (chain → orders). */
const completed = (system: string, mode: "oracle" | "seq", unresolved: Record<string, number[]> = {}, visibility = "public") =>
  // the agent's patch for an unresolved bug touched a file the next bug's gold patch needs: an overshoot
  completedSubmission(t, { system: { name: system, team: "agg" }, mode, unresolved, failAs: { fingerprint: "broke_working_code", model_files: ["stray.py"] }, visibility });

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
