/**
 * createSubmission / getChainPredictions / getSubmissionProgress / ensureSystem
 * against a real SQLite file (the queue's test database: demo dataset as v1).
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadDataset, loadPredictions } from "@/evaluator/dataset";
import { DEMO_DATASET, DEMO_GOLD_SEQ, openTestDb } from "@/lib/testing/test-db";
import { InputError } from "@/core/errors";

let t: Awaited<ReturnType<typeof openTestDb>>;

beforeAll(async () => {
  t = await openTestDb();
}, 60_000);

afterAll(async () => t?.close());

async function rowCounts() {
  const [submissions, predictions, jobs, systems, teams] = await Promise.all([
    t.db.submission.count(),
    t.db.prediction.count(),
    t.db.evaluationJob.count(),
    t.db.system.count(),
    t.db.team.count(),
  ]);
  return { submissions, predictions, jobs, systems, teams };
}

describe("createSubmission", () => {
  it("stores the submission, every prediction and one queued job per chain", async () => {
    const created = await t.submissions.createSubmission({ datasetVersion: "v1", mode: "seq", predictions: DEMO_GOLD_SEQ, metadata: { note: "x" } });
    expect(created).toMatchObject({ chains: 5, predictions: 16 });
    const row = await t.db.submission.findUniqueOrThrow({ where: { id: created.id }, include: { system: { include: { team: true } } } });
    expect(row).toMatchObject({ status: "queued", visibility: "private", mode: "seq", metadata: '{"note":"x"}' });
    expect(row.system).toMatchObject({ name: "demo-gold", team: { name: "local" } });
    const jobs = await t.db.evaluationJob.findMany({ where: { submissionId: created.id } });
    expect(jobs.map((j) => [j.status, j.attempts])).toEqual(Array(5).fill(["queued", 0]));
    const progress = await t.submissions.getSubmissionProgress(created.id);
    expect(progress).toMatchObject({ status: "queued", datasetVersion: "v1", chains: { total: 5, done: 0 }, bugs: { total: 16, graded: 0 } });
    expect(progress!.jobs.map((j) => j.bugs)).toEqual([4, 3, 3, 3, 3]);
  });

  it("gives each chain's predictions back as loadPredictions read them", async () => {
    const { chains } = await loadDataset(DEMO_DATASET);
    const loaded = await loadPredictions(DEMO_GOLD_SEQ, chains);
    const created = await t.submissions.createSubmission({ datasetVersion: "v1", mode: "oracle", predictions: loaded });
    for (const chain of chains) {
      const stored = await t.submissions.getChainPredictions(created.id, chain.continuous_id);
      const want = loaded.byChain.get(chain.continuous_id)!;
      expect([...stored.keys()]).toEqual([...want.keys()]);
      for (const [order, p] of want) expect(stored.get(order)).toMatchObject({ model_patch: p.model_patch, swebench_instance_id: p.swebench_instance_id });
    }
  });

  it("stores nothing for a rejected upload and names the line and field", async () => {
    const lines = (await readFile(DEMO_GOLD_SEQ, "utf8")).trim().split("\n");
    const bad = JSON.parse(lines[2]!) as Record<string, unknown>;
    bad.swebench_instance_id = "no-such-instance";
    lines[2] = JSON.stringify(bad);
    const path = join(t.dir, "bad.jsonl");
    await writeFile(path, lines.join("\n") + "\n");
    const before = await rowCounts();
    const err = await t.submissions.createSubmission({ datasetVersion: "v1", mode: "seq", predictions: path }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as Error).message).toMatch(/line 3, field swebench_instance_id: unknown instance no-such-instance/);
    expect(await rowCounts()).toEqual(before);
  });

  it("refuses an unknown dataset version or chain, storing nothing", async () => {
    const before = await rowCounts();
    await expect(t.submissions.createSubmission({ datasetVersion: "v9", mode: "seq", predictions: DEMO_GOLD_SEQ })).rejects.toThrow(/unknown dataset version v9/);
    await expect(
      t.submissions.createSubmission({ datasetVersion: "v1", mode: "seq", predictions: DEMO_GOLD_SEQ, chainIds: ["nope"] }),
    ).rejects.toBeInstanceOf(t.submissions.SubmissionError);
    expect(await rowCounts()).toEqual(before);
  });

  it("queues only the chains asked for, with their predictions", async () => {
    const created = await t.submissions.createSubmission({ datasetVersion: "v1", mode: "seq", predictions: DEMO_GOLD_SEQ, chainIds: ["moneyx-chain-1"] });
    expect(created).toMatchObject({ chains: 1, predictions: 3 });
  });
});

describe("ensureSystem", () => {
  it("finds the same team and system again instead of creating another", async () => {
    const { ensureSystem } = await import("@/lib/teams/systems");
    const a = await ensureSystem({ teamName: "Team A", name: "agent-1" });
    const b = await ensureSystem({ teamName: "Team A", name: "agent-1" });
    expect(a).toBe(b);
    expect(await t.db.team.findUniqueOrThrow({ where: { name: "Team A" } })).toMatchObject({ slug: "team-a" });
  });
});
