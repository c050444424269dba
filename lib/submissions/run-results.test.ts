/**
 * Stored results read back as the evaluator's RunResults: the graded bugs the
 * replay handed in (with the predictions' cost figures), in dataset order, and
 * scored exactly as `chainswe report` scores an evaluation directory.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bugResultRow } from "@/jobs/queue/results";
import { scoreRun } from "@/core/scoring";
import { DEMO_GOLD_SEQ, fakeGradedChain, openTestDb } from "@/lib/testing/test-db";

let t: Awaited<ReturnType<typeof openTestDb>>;

beforeAll(async () => {
  t = await openTestDb();
}, 60_000);
afterAll(async () => t?.close());

describe("runResultsForSubmission", () => {
  it("gives back every graded bug as handed in, and scores missing chains as unresolved", async () => {
    const { id } = await t.submissions.createSubmission({ systemName: "rr", teamName: "t", datasetVersion: "v1", mode: "seq", predictions: DEMO_GOLD_SEQ });
    await t.db.prediction.updateMany({ where: { submissionId: id, continuousId: "inikit-chain-1" }, data: { meta: '{"cost_usd":0.5,"peak_context_tokens":1000}' } });
    const graded = ["inikit-chain-1", "dateranges-chain-1"];
    const handedIn = [];
    for (const chainId of graded) {
      const arts = fakeGradedChain((await t.datasets.getChain("v1", chainId))!, "rr");
      handedIn.push(...arts.map((a) => a.bug));
      await t.db.bugResult.createMany({ data: arts.map((a) => bugResultRow(id, a)) });
    }
    const { runResultsForSubmission } = await import("@/lib/submissions/run-results");
    const run = (await runResultsForSubmission(id))!;
    expect(run.summary).toMatchObject({ system: "rr", mode: "seq", chains_selected: null, bugs_graded: 7 });
    expect(run.summary.dataset.chains).toHaveLength(5);
    // each bug carries its own prediction's figures (the demo's, or the ones set above)
    const metas = new Map(
      (await t.db.prediction.findMany({ where: { submissionId: id } })).map((p) => [`${p.continuousId}#${p.order}`, JSON.parse(p.meta) as object]),
    );
    const expected = handedIn.map((b) => ({ ...metas.get(`${b.continuous_id}#${b.order}`), ...b }));
    // dataset (queue) order: the demo's chains are queued dateranges first
    expect(run.bugs).toEqual(expected.sort((a, b) => a.continuous_id.localeCompare(b.continuous_id) || a.order - b.order));
    expect(run.bugs.filter((b) => b.continuous_id === "inikit-chain-1").map((b) => b.cost_usd)).toEqual([0.5, 0.5, 0.5]);
    const scores = scoreRun(run, { scoring: "strict", positions: "all" });
    expect(scores.counts).toMatchObject({ chains: 5, bugs: 16, graded: 7, resolved: 7, chains_resolved: 2 });
    expect(scores.per_bug.value).toBeCloseTo((7 / 16) * 100, 6);
    expect(await runResultsForSubmission("nope")).toBeNull();
  });
});
