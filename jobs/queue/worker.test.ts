/**
 * The worker pool without Docker: a job whose chain cannot be found is a
 * dataset error, so it fails for good before any container is started; and
 * stop() returns once the slots are idle. (tests/docker/queue.test.ts runs
 * real chains, kills workers and checks containers.)
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_GOLD_SEQ, openTestDb } from "@/lib/testing/test-db";
import { waitFor } from "@/lib/testing/wait";

let t: Awaited<ReturnType<typeof openTestDb>>;
let queue: typeof import("./index");

beforeAll(async () => {
  t = await openTestDb();
  queue = await import("./index");
});

afterAll(async () => t?.close());

describe("startWorkerPool", () => {
  it("fails a job for good on a dataset error and settles the submission, then stops", async () => {
    const s = await t.submissions.createSubmission({ datasetVersion: "v1", mode: "seq", predictions: DEMO_GOLD_SEQ, chainIds: ["inikit-chain-1"] });
    // a chain the dataset version does not have: getChain answers null
    await t.db.evaluationJob.updateMany({ where: { submissionId: s.id }, data: { continuousId: "gone-chain-1" } });
    const lines: string[] = [];
    const { portalLoaders } = await import("@/lib/site/queue-loaders");
    const pool = queue.startWorkerPool({ concurrency: 2, leaseMs: 5_000, pollMs: 20, workerId: "test", loaders: portalLoaders, log: (l) => lines.push(l), reapOrphans: false });
    try {
      await waitFor("the submission to fail", async () => (await t.db.submission.findUniqueOrThrow({ where: { id: s.id } })).status === "failed", { timeoutMs: 60_000, everyMs: 25 });
    } finally {
      await pool.stop();
    }
    const job = await t.db.evaluationJob.findFirstOrThrow({ where: { submissionId: s.id } });
    expect(job).toMatchObject({ status: "failed", attempts: 1, leaseOwner: null });
    expect(job.lastError).toMatch(/^dataset error: no chain gone-chain-1 in dataset version v1/);
    expect((await t.submissions.getSubmissionProgress(s.id))!.status).toBe("failed");
    expect(lines.join("\n")).toMatch(/gone-chain-1 .*: failed: dataset error/);
    expect(await t.db.bugResult.count()).toBe(0);
  });
});
