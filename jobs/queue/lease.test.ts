/**
 * What a lease guards, against a real SQLite file: only the owner of a running
 * job can heartbeat, hand in results or fail it; a worker that lost its lease
 * (or hands in twice) writes nothing; no bug is ever graded twice.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ClaimedJob } from "./payload";
import { DEMO_GOLD_SEQ, fakeGradedChain, openTestDb } from "@/lib/testing/test-db";

let t: Awaited<ReturnType<typeof openTestDb>>;
let queue: typeof import("./index");

const policy = { leaseMs: 10_000, maxAttempts: 3, backoff: { baseMs: 1_000, maxMs: 60_000 } };
const later = (ms: number) => new Date(Date.now() + ms);

beforeAll(async () => {
  t = await openTestDb();
  queue = await import("./index");
});

afterAll(async () => t?.close());

beforeEach(async () => {
  await t.db.submission.deleteMany();
});

/** A one-chain submission and its job, claimed by `workerId`. */
async function claimed(workerId = "w1", chainId = "inikit-chain-1"): Promise<ClaimedJob> {
  await t.submissions.createSubmission({ datasetVersion: "v1", mode: "seq", predictions: DEMO_GOLD_SEQ, chainIds: [chainId] });
  const job = await queue.claimJob({ workerId, policy });
  if (!job) throw new Error("nothing to claim");
  return job;
}

async function gradedChain(job: ClaimedJob) {
  const chain = await t.datasets.getChain("v1", job.payload.continuousId);
  return fakeGradedChain(chain!);
}

const jobRow = (job: ClaimedJob) => t.db.evaluationJob.findUniqueOrThrow({ where: { id: job.jobId } });
const resultCount = () => t.db.bugResult.count();

describe("heartbeatJob", () => {
  it("extends the owner's lease", async () => {
    const job = await claimed();
    expect(await queue.heartbeatJob({ jobId: job.jobId, workerId: "w1", leaseMs: 10_000, now: later(5_000) })).toBe(true);
    expect((await jobRow(job)).leaseExpiresAt!.getTime()).toBeGreaterThan(job.leaseExpiresAt.getTime());
  });

  it("refuses anyone else and changes nothing", async () => {
    const job = await claimed();
    const before = await jobRow(job);
    expect(await queue.heartbeatJob({ jobId: job.jobId, workerId: "intruder", leaseMs: 60_000 })).toBe(false);
    expect(await jobRow(job)).toEqual(before);
  });

  it("refuses the old owner once another worker took the expired job over", async () => {
    const job = await claimed("slow");
    await queue.claimJob({ workerId: "fast", policy, now: later(11_000) });
    expect(await queue.heartbeatJob({ jobId: job.jobId, workerId: "slow", leaseMs: 10_000 })).toBe(false);
    expect((await jobRow(job)).leaseOwner).toBe("fast");
  });
});

describe("completeJob", () => {
  it("stores every bug of the chain, marks the job done and the submission completed, in one go", async () => {
    const job = await claimed();
    const bugs = await gradedChain(job);
    expect(await queue.completeJob({ jobId: job.jobId, workerId: "w1", bugs })).toEqual({ accepted: true, graded: 3, submissionId: job.payload.submissionId, submissionStatus: "completed" });
    expect(await jobRow(job)).toMatchObject({ status: "done", leaseExpiresAt: null });
    const rows = await t.db.bugResult.findMany({ where: { submissionId: job.payload.submissionId }, orderBy: { order: "asc" } });
    expect(rows.map((r) => [r.order, r.resolved, r.log])).toEqual(bugs.map((a) => [a.bug.order, true, a.log]));
    expect(JSON.parse(rows[0]!.failToPass)).toEqual(bugs[0]!.bug.fail_to_pass);
    const progress = await t.submissions.getSubmissionProgress(job.payload.submissionId);
    expect(progress).toMatchObject({ status: "completed", chains: { total: 1, done: 1 }, bugs: { total: 3, graded: 3, resolved: 3 } });
  });

  it("handing in twice never duplicates a result", async () => {
    const job = await claimed();
    const bugs = await gradedChain(job);
    await queue.completeJob({ jobId: job.jobId, workerId: "w1", bugs });
    expect(await queue.completeJob({ jobId: job.jobId, workerId: "w1", bugs })).toEqual({ accepted: false });
    expect(await resultCount()).toBe(3);
  });

  it("refuses a worker that lost its lease and writes nothing; the new owner's results count", async () => {
    const job = await claimed("slow");
    const taken = await queue.claimJob({ workerId: "fast", policy, now: later(11_000) });
    const bugs = await gradedChain(job);
    expect(await queue.completeJob({ jobId: job.jobId, workerId: "slow", bugs })).toEqual({ accepted: false });
    expect(await resultCount()).toBe(0);
    expect(await jobRow(job)).toMatchObject({ status: "running", leaseOwner: "fast" });
    expect(await queue.completeJob({ jobId: taken!.jobId, workerId: "fast", bugs })).toMatchObject({ accepted: true });
    expect(await resultCount()).toBe(3);
  });

  it("rolls back the whole chain when a bug already has a result (the unique key)", async () => {
    const job = await claimed();
    const bugs = await gradedChain(job);
    await queue.completeJob({ jobId: job.jobId, workerId: "w1", bugs });
    // bypass the lease check as a buggy re-run would: the job runs again with its results still there
    await t.db.evaluationJob.update({ where: { id: job.jobId }, data: { status: "running", leaseOwner: "w1" } });
    await expect(queue.completeJob({ jobId: job.jobId, workerId: "w1", bugs })).rejects.toThrow(/Unique constraint/);
    expect(await resultCount()).toBe(3);
    expect((await jobRow(job)).status).toBe("running");
  });

  it("refuses a chain handed in with bugs missing", async () => {
    const job = await claimed();
    const bugs = (await gradedChain(job)).slice(0, 2);
    await expect(queue.completeJob({ jobId: job.jobId, workerId: "w1", bugs })).rejects.toThrow(/2 graded bug\(s\) handed in for a chain of 3/);
    expect(await resultCount()).toBe(0);
  });
});

describe("failJob", () => {
  const env = () => new (class extends Error {})("x");
  it("requeues an environment error with backoff, then fails the job at maxAttempts", async () => {
    const { EnvironmentError } = await import("@/core/errors");
    let job = await claimed();
    let now = Date.now();
    for (let attempt = 1; attempt <= 3; attempt++) {
      const out = await queue.failJob({ jobId: job.jobId, workerId: job.leaseOwner, error: new EnvironmentError("engine down"), policy, now: new Date(now) });
      const row = await jobRow(job);
      expect(row.attempts).toBe(attempt);
      if (attempt < 3) {
        const wait = 1_000 * 2 ** (attempt - 1);
        expect(out).toMatchObject({ status: "queued" });
        expect(row).toMatchObject({ status: "queued", leaseOwner: null, lastError: "environment error: engine down" });
        expect(row.runAfter.getTime()).toBe(now + wait);
        expect(await queue.claimJob({ workerId: "early", policy, now: new Date(now + wait - 1) })).toBeNull();
        now += wait;
        job = (await queue.claimJob({ workerId: `w${attempt + 1}`, policy, now: new Date(now) }))!;
        expect(job.attempts).toBe(attempt + 1);
      } else {
        expect(out).toMatchObject({ status: "failed" });
        expect(row).toMatchObject({ status: "failed", leaseOwner: null });
        expect(row.lastError).toMatch(/gave up after 3 attempt/);
      }
    }
    expect(await resultCount()).toBe(0);
    expect((await t.db.submission.findUniqueOrThrow({ where: { id: job.payload.submissionId } })).status).toBe("failed");
  });

  it("retries any other error like an environment error", async () => {
    const job = await claimed();
    const out = await queue.failJob({ jobId: job.jobId, workerId: "w1", error: env(), policy });
    expect(out?.status).toBe("queued");
  });

  it("fails a job for good on a dataset error, with its message, and grades nothing", async () => {
    const { DatasetError } = await import("@/core/errors");
    const job = await claimed();
    const error = new DatasetError("test patch does not apply", job.payload.continuousId, 2);
    expect(await queue.failJob({ jobId: job.jobId, workerId: "w1", error, policy })).toMatchObject({ status: "failed" });
    expect(await jobRow(job)).toMatchObject({ status: "failed", attempts: 1, lastError: "dataset error at bug 2: test patch does not apply" });
    expect(await resultCount()).toBe(0);
    expect(await queue.claimJob({ workerId: "w2", policy, now: later(3_600_000) })).toBeNull();
  });

  it("refuses a worker that does not own the job and changes nothing", async () => {
    const job = await claimed();
    const before = await jobRow(job);
    expect(await queue.failJob({ jobId: job.jobId, workerId: "intruder", error: env(), policy })).toBeNull();
    expect(await jobRow(job)).toEqual(before);
  });
});

describe("releaseJob", () => {
  it("gives the job back at once without counting the attempt", async () => {
    const job = await claimed();
    expect(await queue.releaseJob({ jobId: job.jobId, workerId: "intruder", reason: "stopping" })).toBe(false);
    expect(await queue.releaseJob({ jobId: job.jobId, workerId: "w1", reason: "stopping" })).toBe(true);
    expect(await jobRow(job)).toMatchObject({ status: "queued", attempts: 0, leaseOwner: null });
    expect(await queue.claimJob({ workerId: "w2", policy })).toMatchObject({ jobId: job.jobId, attempts: 1 });
  });
});

describe("cancelSubmission", () => {
  it("cancels the open jobs; the worker replaying one can neither heartbeat nor hand in", async () => {
    const s = await t.submissions.createSubmission({ datasetVersion: "v1", mode: "seq", predictions: DEMO_GOLD_SEQ, chainIds: ["inikit-chain-1", "moneyx-chain-1"] });
    const job = (await queue.claimJob({ workerId: "w1", policy }))!;
    expect(await t.submissions.cancelSubmission(s.id)).toEqual({ cancelledJobs: 2, status: "cancelled" });
    expect(await queue.heartbeatJob({ jobId: job.jobId, workerId: "w1", leaseMs: 10_000 })).toBe(false);
    expect(await queue.completeJob({ jobId: job.jobId, workerId: "w1", bugs: await gradedChain(job) })).toEqual({ accepted: false });
    expect(await queue.claimJob({ workerId: "w2", policy })).toBeNull();
    const progress = await t.submissions.getSubmissionProgress(s.id);
    expect(progress).toMatchObject({ status: "cancelled", chains: { total: 2, cancelled: 2 }, bugs: { graded: 0 } });
    expect(await t.submissions.cancelSubmission("no-such-id")).toBeNull();
  });
});
