/**
 * The durable queue end to end, with real workers in child processes
 * (`chainswe worker`) replaying demo chains in Docker: a worker SIGKILLed
 * mid-chain loses nothing — another worker claims the chain once the lease
 * runs out, removes the dead worker's container, and the submission completes
 * with every bug graded exactly once. And SIGTERM gives a running chain back
 * to the queue at once, leaving no container behind.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { execFileSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { DEMO_DATASET, ensureDemoImages } from "@/cli/demo";
import { loadDataset } from "@/evaluator/dataset";
import { docker } from "@/evaluator/sandbox";
import { waitFor } from "@/lib/testing/wait";

const ROOT = new URL("../../", import.meta.url).pathname;
const GOLD_SEQ = join(ROOT, "demo", "predictions", "demo-gold.seq.jsonl");

let dir: string;
let url: string;
let db: typeof import("@/db/client").db;
let submissions: typeof import("@/lib/submissions/data");
const children: ChildProcess[] = [];

type Worker = { child: ChildProcess; log: () => string; exited: Promise<number | null> };

function startWorker(workerId: string): Worker {
  const args = ["bin/chainswe.mjs", "worker", "--concurrency", "1", "--lease-seconds", "4", "--poll-seconds", "0.5", "--worker-id", workerId];
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, DATABASE_URL: url }, stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  let text = "";
  child.stdout!.on("data", (c: Buffer) => (text += c.toString()));
  child.stderr!.on("data", (c: Buffer) => (text += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, log: () => text, exited };
}

const sandboxesOf = (submissionId: string) =>
  docker().listContainers({ all: true, filters: { label: ["chainswe.sandbox=1", `chainswe.submission=${submissionId}`] } });

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "chainswe-queue-docker-"));
  url = `file:${join(dir, "queue.db")}`;
  const prisma = join(ROOT, "node_modules", "prisma", "build", "index.js");
  execFileSync(process.execPath, [prisma, "migrate", "deploy", "--config", join(ROOT, "prisma.config.ts")], {
    env: { ...process.env, DATABASE_URL: url },
    stdio: "pipe",
  });
  vi.stubEnv("DATABASE_URL", url);
  vi.stubEnv("CHAINSWE_TEST_TIMEOUT_S", "120");
  delete (globalThis as { chainsweDb?: unknown }).chainsweDb;
  db = (await import("@/db/client")).db;
  submissions = await import("@/lib/submissions/data");
  await (await import("@/lib/dataset/data")).importDataset(DEMO_DATASET, "v1");
  await ensureDemoImages(await loadDataset(DEMO_DATASET));
});

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  await db?.$disconnect();
  vi.unstubAllEnvs();
  await rm(dir, { recursive: true, force: true });
});

describe("chainswe worker", () => {
  it("survives a worker killed mid-chain: every bug graded exactly once, no container left", async () => {
    const chains = ["dateranges-chain-1", "inikit-chain-1"];
    const s = await submissions.createSubmission({ datasetVersion: "v1", mode: "seq", predictions: GOLD_SEQ, chainIds: chains });
    const first = startWorker("first");
    // mid-chain: bug 1 of the 4-bug chain graded, the rest still to come
    await waitFor("the first worker to grade bug 1", () => /dateranges-chain-1 .*: bug 1 resolved/.test(first.log()));
    first.child.kill("SIGKILL");
    await first.exited;
    const killed = await db.evaluationJob.findFirstOrThrow({ where: { submissionId: s.id, continuousId: "dateranges-chain-1" } });
    expect(killed).toMatchObject({ status: "running", leaseOwner: "first/0", attempts: 1 });
    // the dead worker's containers run on (the chain's states container, bug 1's, bug 2's started ahead: some of them)
    expect((await sandboxesOf(s.id)).length).toBeGreaterThanOrEqual(1);

    const second = startWorker("second");
    await waitFor("the submission to complete", async () => (await submissions.getSubmissionProgress(s.id))!.status !== "running");
    const progress = (await submissions.getSubmissionProgress(s.id))!;
    expect(progress).toMatchObject({ status: "completed", chains: { total: 2, done: 2, failed: 0 }, bugs: { total: 7, graded: 7, resolved: 7 } });
    expect(progress.jobs.map((j) => [j.continuousId, j.attempts])).toEqual([
      ["dateranges-chain-1", 2],
      ["inikit-chain-1", 1],
    ]);
    const results = await db.bugResult.findMany({ where: { submissionId: s.id } });
    expect(results).toHaveLength(7);
    expect(new Set(results.map((r) => `${r.continuousId}#${r.order}`)).size).toBe(7);
    expect(results.every((r) => r.resolved && r.patchApplied && r.log.length > 0)).toBe(true);
    expect(second.log()).toMatch(/removed orphaned sandbox .* of job/);

    second.child.kill("SIGTERM");
    expect(await second.exited).toBe(0);
    expect(await sandboxesOf(s.id)).toEqual([]);
  });

  it("SIGTERM gives the running chain back to the queue at once and removes its container", async () => {
    const s = await submissions.createSubmission({ datasetVersion: "v1", mode: "seq", predictions: GOLD_SEQ, chainIds: ["dateranges-chain-1"] });
    const worker = startWorker("stopping");
    await waitFor("bug 1 to be graded", () => /dateranges-chain-1 .*: bug 1 resolved/.test(worker.log()));
    worker.child.kill("SIGTERM");
    expect(await worker.exited).toBe(0);
    const job = await db.evaluationJob.findFirstOrThrow({ where: { submissionId: s.id } });
    expect(job).toMatchObject({ status: "queued", attempts: 0, leaseOwner: null });
    expect(await db.bugResult.count({ where: { submissionId: s.id } })).toBe(0);
    expect(await sandboxesOf(s.id)).toEqual([]);
    expect(worker.log()).toMatch(/released back to the queue/);
  });
});
