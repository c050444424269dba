/**
 * claimJob against a real SQLite file: oldest runnable job first, never the
 * same job to two claimers (in one process or in several), an expired lease
 * claimed again, a job whose workers keep dying failed for good.
 */
import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEMO_GOLD_SEQ, ROOT, openTestDb } from "@/lib/testing/test-db";

let t: Awaited<ReturnType<typeof openTestDb>>;
let queue: typeof import("./index");

const policy = { leaseMs: 10_000, maxAttempts: 3 };
const later = (ms: number) => new Date(Date.now() + ms);
const DEMO_CHAINS = ["dateranges-chain-1", "inikit-chain-1", "moneyx-chain-1", "semverkit-chain-1", "tablefmt-chain-1"];

beforeAll(async () => {
  t = await openTestDb();
  queue = await import("./index");
});

afterAll(async () => t?.close());

beforeEach(async () => {
  await t.db.submission.deleteMany();
});

const submit = (chainIds?: string[]) =>
  t.submissions.createSubmission({ datasetVersion: "v1", mode: "seq", predictions: DEMO_GOLD_SEQ, chainIds });

describe("claimJob", () => {
  it("claims the oldest job first, a submission's chains in dataset order, and marks the submission running", async () => {
    const first = await submit();
    const second = await submit(["moneyx-chain-1"]);
    const claimed = [];
    for (let i = 0; i < 6; i++) claimed.push(await queue.claimJob({ workerId: `w${i}`, policy }));
    expect(claimed.map((c) => c?.payload.continuousId)).toEqual([...DEMO_CHAINS, "moneyx-chain-1"]);
    expect(claimed.map((c) => c?.payload.submissionId)).toEqual([...DEMO_CHAINS.map(() => first.id), second.id]);
    expect(await queue.claimJob({ workerId: "w9", policy })).toBeNull();
    const c = claimed[0]!;
    expect(c).toMatchObject({ leaseOwner: "w0", attempts: 1, payload: { datasetVersion: "v1", mode: "seq", system: "demo-gold" } });
    const row = await t.db.evaluationJob.findUniqueOrThrow({ where: { id: c.jobId } });
    expect(row).toMatchObject({ status: "running", leaseOwner: "w0", attempts: 1 });
    expect(row.leaseExpiresAt!.getTime()).toBe(c.leaseExpiresAt.getTime());
    expect((await t.db.submission.findUniqueOrThrow({ where: { id: first.id } })).status).toBe("running");
  });

  it("gives concurrent claimers different jobs", async () => {
    await submit();
    const claims = await Promise.all(Array.from({ length: 12 }, (_, i) => queue.claimJob({ workerId: `w${i}`, policy })));
    const won = claims.filter((c) => c !== null);
    expect(won).toHaveLength(5);
    expect(new Set(won.map((c) => c.jobId)).size).toBe(5);
    const rows = await t.db.evaluationJob.findMany();
    expect(rows.every((r) => r.status === "running" && r.attempts === 1)).toBe(true);
    expect(new Set(rows.map((r) => r.leaseOwner)).size).toBe(5);
  });

  it("gives claimers in separate processes different jobs", async () => {
    await submit();
    await submit();
    const script = join(t.dir, "claimer.mts");
    await writeFile(
      script,
      `import { claimJob } from ${JSON.stringify(join(ROOT, "jobs/queue/claim.ts"))};
       const won: string[] = [];
       for (let i = 0; i < 10; i++) {
         const job = await claimJob({ workerId: process.argv[2]!, policy: { leaseMs: 60_000, maxAttempts: 3 } });
         if (job) won.push(job.jobId);
       }
       process.stdout.write(JSON.stringify(won));`,
    );
    const run = promisify(execFile);
    const outputs = await Promise.all(
      ["p1", "p2", "p3", "p4"].map((id) =>
        run(process.execPath, ["--import", "tsx", script, id], { cwd: ROOT, env: { ...process.env, DATABASE_URL: t.url } }),
      ),
    );
    const won = outputs.flatMap((o) => JSON.parse(o.stdout) as string[]);
    expect(won).toHaveLength(10);
    expect(new Set(won).size).toBe(10);
  });

  it("claims a running job again once its lease has expired, and not before", async () => {
    await submit(["inikit-chain-1"]);
    const first = await queue.claimJob({ workerId: "dead", policy });
    expect(first).not.toBeNull();
    expect(await queue.claimJob({ workerId: "other", policy, now: later(5_000) })).toBeNull();
    const again = await queue.claimJob({ workerId: "other", policy, now: later(11_000) });
    expect(again).toMatchObject({ jobId: first!.jobId, leaseOwner: "other", attempts: 2 });
  });

  it("does not claim a job before its runAfter", async () => {
    const s = await submit(["inikit-chain-1"]);
    await t.db.evaluationJob.updateMany({ where: { submissionId: s.id }, data: { runAfter: later(60_000) } });
    expect(await queue.claimJob({ workerId: "w", policy })).toBeNull();
    expect(await queue.claimJob({ workerId: "w", policy, now: later(61_000) })).not.toBeNull();
  });

  it("fails a job for good once its lease has expired maxAttempts times", async () => {
    const s = await submit(["inikit-chain-1"]);
    let now = Date.now();
    for (let attempt = 1; attempt <= 3; attempt++) {
      const job = await queue.claimJob({ workerId: `dying-${attempt}`, policy, now: new Date(now) });
      expect(job?.attempts).toBe(attempt);
      now += 11_000;
    }
    expect(await queue.claimJob({ workerId: "next", policy, now: new Date(now) })).toBeNull();
    const row = await t.db.evaluationJob.findFirstOrThrow({ where: { submissionId: s.id } });
    expect(row).toMatchObject({ status: "failed", leaseOwner: null, attempts: 3 });
    expect(row.lastError).toMatch(/lease expired 3 time/);
    expect((await t.db.submission.findUniqueOrThrow({ where: { id: s.id } })).status).toBe("failed");
  });
});
