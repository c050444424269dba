/**
 * Close to gold (SPEC §7): each graded bug's similarity to gold is stored with
 * the result, filled in by the aggregate refresh for results stored without it,
 * recomputed on re-grade, and counted on the row against the version's threshold.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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

const row = async (id: string) => (await lb.getLeaderboard({ version: "v1" })).rows.find((r) => r.submissionId === id)!;

describe("close to gold", () => {
  it("is stored with each result, filled in by the refresh when missing, recomputed on re-grade, and counted on the row", async () => {
    const id = await completedSubmission(t, { system: { name: "copier", team: "gold" }, mode: "seq", aggregates: true });
    expect((await row(id)).closeToGold).toEqual({ bugs: 16, of: 16, threshold: 0.9 });

    // results stored before the similarity existed: the refresh computes it from the predictions (the demo's gold patches)
    await t.db.bugResult.updateMany({ where: { submissionId: id }, data: { goldSimilarity: null } });
    await agg.refreshAggregates(id);
    expect((await t.db.bugResult.findMany({ where: { submissionId: id }, select: { goldSimilarity: true } })).map((r) => r.goldSimilarity)).toEqual(Array(16).fill(1));

    // the prediction for inikit 1 becomes empty: a re-grade recomputes its similarity (0) and the row's count
    await t.db.prediction.updateMany({ where: { submissionId: id, continuousId: "inikit-chain-1", order: 1 }, data: { modelPatch: "" } });
    const { regradeSubmission } = await import("@/lib/submissions/regrade");
    await regradeSubmission(id);
    const inikit1 = await t.db.bugResult.findFirstOrThrow({ where: { submissionId: id, continuousId: "inikit-chain-1", order: 1 } });
    expect(inikit1.goldSimilarity).toBe(0);
    expect((await row(id)).closeToGold).toMatchObject({ bugs: 15, of: 16 });
  });

  it("uses the version's threshold", async () => {
    const id = await completedSubmission(t, { system: { name: "near-copier", team: "gold" }, mode: "oracle", aggregates: true });
    await t.db.bugResult.updateMany({ where: { submissionId: id, continuousId: "moneyx-chain-1" }, data: { goldSimilarity: 0.95 } });
    await agg.refreshAggregates(id);
    expect((await row(id)).closeToGold).toEqual({ bugs: 16, of: 16, threshold: 0.9 });
    await t.db.datasetVersion.update({ where: { version: "v1" }, data: { rules: JSON.stringify({ close_to_gold: 0.99 }), rulesSetAt: new Date() } });
    expect((await row(id)).closeToGold).toEqual({ bugs: 13, of: 16, threshold: 0.99 });
  });
});
