/**
 * Live progress under the lease, against a real SQLite file: each graded bug
 * lands in EvaluationJob.progress for the lease owner only, a new attempt starts
 * empty, and getSubmissionProgress shows the running chain's bugs as provisional
 * and a handed-in chain's from its results.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEMO_GOLD_SEQ, fakeGradedChain, openTestDb } from "@/lib/testing/test-db";
import type { ClaimedJob } from "./payload";

let t: Awaited<ReturnType<typeof openTestDb>>;
let queue: typeof import("./index");
let progress: typeof import("./progress");

const policy = { leaseMs: 10_000, maxAttempts: 3, backoff: { baseMs: 1_000, maxMs: 60_000 } };
const later = (ms: number) => new Date(Date.now() + ms);

beforeAll(async () => {
  t = await openTestDb();
  queue = await import("./index");
  progress = await import("./progress");
});

afterAll(async () => t?.close());

beforeEach(async () => {
  await t.db.submission.deleteMany();
});

async function claimed(workerId = "w1", chainIds = ["inikit-chain-1"]): Promise<ClaimedJob> {
  await t.submissions.createSubmission({ datasetVersion: "v1", mode: "seq", predictions: DEMO_GOLD_SEQ, chainIds });
  const job = await queue.claimJob({ workerId, policy });
  if (!job) throw new Error("nothing to claim");
  return job;
}

const storedProgress = async (job: ClaimedJob) =>
  JSON.parse((await t.db.evaluationJob.findUniqueOrThrow({ where: { id: job.jobId } })).progress) as unknown;

const bug = (order: number, resolved: boolean) => ({ order, resolved, fingerprint: resolved ? null : "left_unfixed" });

describe("withBug", () => {
  it("keeps the list in order and replaces a repeated order", () => {
    expect(progress.withBug([bug(2, true)], bug(1, false))).toEqual([bug(1, false), bug(2, true)]);
    expect(progress.withBug([bug(1, false)], bug(1, true))).toEqual([bug(1, true)]);
  });
});

describe("recordBugProgress", () => {
  it("adds each bug as it is graded, for the lease owner", async () => {
    const job = await claimed();
    expect(await progress.recordBugProgress({ jobId: job.jobId, workerId: "w1", bug: bug(1, true) })).toBe(true);
    expect(await storedProgress(job)).toEqual([bug(1, true)]);
    expect(await progress.recordBugProgress({ jobId: job.jobId, workerId: "w1", bug: bug(2, false) })).toBe(true);
    expect(await storedProgress(job)).toEqual([bug(1, true), bug(2, false)]);
  });

  it("ignores a worker whose lease was taken over, and the new attempt starts empty", async () => {
    const job = await claimed("slow");
    await progress.recordBugProgress({ jobId: job.jobId, workerId: "slow", bug: bug(1, true) });
    const taken = await queue.claimJob({ workerId: "fast", policy, now: later(11_000) });
    expect(taken).toMatchObject({ jobId: job.jobId, attempts: 2 });
    expect(await storedProgress(job)).toEqual([]);
    expect(await progress.recordBugProgress({ jobId: job.jobId, workerId: "slow", bug: bug(2, true) })).toBe(false);
    expect(await storedProgress(job)).toEqual([]);
    expect(await progress.recordBugProgress({ jobId: job.jobId, workerId: "fast", bug: bug(1, false) })).toBe(true);
    expect(await storedProgress(job)).toEqual([bug(1, false)]);
  });

  it("a requeued job claimed again starts empty", async () => {
    const { EnvironmentError } = await import("@/core/errors");
    const job = await claimed();
    await progress.recordBugProgress({ jobId: job.jobId, workerId: "w1", bug: bug(1, true) });
    await queue.failJob({ jobId: job.jobId, workerId: "w1", error: new EnvironmentError("engine down"), policy });
    expect(await progress.recordBugProgress({ jobId: job.jobId, workerId: "w1", bug: bug(2, true) })).toBe(false);
    const again = await queue.claimJob({ workerId: "w2", policy, now: later(5_000) });
    expect(again?.jobId).toBe(job.jobId);
    expect(await storedProgress(job)).toEqual([]);
  });

  it("ignores a cancelled job's worker", async () => {
    const job = await claimed();
    await t.submissions.cancelSubmission(job.payload.submissionId);
    expect(await progress.recordBugProgress({ jobId: job.jobId, workerId: "w1", bug: bug(1, true) })).toBe(false);
    expect(await storedProgress(job)).toEqual([]);
  });
});

describe("getSubmissionProgress bug states", () => {
  it("shows the running chain's bugs as provisional, then the handed-in results", async () => {
    const job = await claimed("w1", ["inikit-chain-1", "moneyx-chain-1"]);
    await progress.recordBugProgress({ jobId: job.jobId, workerId: "w1", bug: bug(1, true) });
    await progress.recordBugProgress({ jobId: job.jobId, workerId: "w1", bug: bug(2, false) });
    let p = (await t.submissions.getSubmissionProgress(job.payload.submissionId))!;
    const running = p.jobs.find((j) => j.continuousId === job.payload.continuousId)!;
    expect(running.bugStates.map((b) => [b.order, b.state, b.fingerprint, b.provisional])).toEqual([
      [1, "resolved", null, true],
      [2, "unresolved", "left_unfixed", true],
      [3, "pending", null, false],
    ]);
    expect(running.bugStates[0]!.swebenchInstanceId).toMatch(/inikit/);
    const other = p.jobs.find((j) => j.continuousId !== job.payload.continuousId)!;
    expect(other.bugStates.every((b) => b.state === "pending")).toBe(true);
    expect(p.bugs.graded).toBe(0);

    const chain = (await t.datasets.getChain("v1", job.payload.continuousId))!;
    await queue.completeJob({ jobId: job.jobId, workerId: "w1", bugs: fakeGradedChain(chain) });
    p = (await t.submissions.getSubmissionProgress(job.payload.submissionId))!;
    const done = p.jobs.find((j) => j.continuousId === job.payload.continuousId)!;
    expect(done.bugStates.map((b) => [b.state, b.provisional])).toEqual(Array(3).fill(["resolved", false]));
    expect(p).toMatchObject({ status: "running", chains: { total: 2, done: 1 }, bugs: { total: 6, graded: 3, resolved: 3 } });
  });
});
