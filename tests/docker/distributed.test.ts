/**
 * The distributed deployment end to end: PostgreSQL for
 * the site's data, a Redis of the test's own (append-only file, so it can be
 * restarted), `chainswe dispatcher` (what the site runs with
 * CHAINSWE_QUEUE=bullmq) and `chainswe worker --redis` processes replaying demo
 * chains in Docker. The workers get a database URL that cannot be reached: they
 * must never need it. Fault tests: a worker SIGKILLed mid-chain, Redis
 * restarted mid-run, a worker whose Docker engine is unreachable, the
 * dispatcher killed and restarted mid-evaluation, and a cancel on the site. Each ends with every bug
 * graded exactly once and no container left.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { DEMO_DATASET, ensureDemoImages } from "@/cli/demo";
import { loadDataset } from "@/evaluator/dataset";
import { CHAINS_QUEUE, QUEUE_PREFIX, REPORTS_QUEUE } from "@/jobs/distributed/protocol";
import { docker } from "@/evaluator/sandbox";
import { createPostgresDatabase } from "@/lib/testing/test-db";
import { patchFor, predictionsFor } from "./patches";
import { waitFor } from "@/lib/testing/wait";

const ROOT = new URL("../../", import.meta.url).pathname;
const GOLD_SEQ = join(ROOT, "demo", "predictions", "demo-gold.seq.jsonl");
const DEMO_BUGS = 16;
/** what the workers get: any attempt to open it fails at once */
const UNREACHABLE_DB = "postgresql://nobody@127.0.0.1:1/never";

let dir: string;
let pgUrl: string;
let dropPg: () => Promise<void>;
let redisPort: number;
let redis: ChildProcess | undefined;
let db: typeof import("@/db/client").db;
let submissions: typeof import("@/lib/submissions/data");
const children = new Set<ChildProcess>();

type Proc = { child: ChildProcess; log: () => string; exited: Promise<void> };

function start(args: string[], env: Record<string, string>): Proc {
  const child = spawn(process.execPath, ["bin/chainswe.mjs", ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  children.add(child);
  let text = "";
  child.stdout!.on("data", (c: Buffer) => (text += c.toString()));
  child.stderr!.on("data", (c: Buffer) => (text += c.toString()));
  const exited = new Promise<void>((resolve) => child.on("exit", () => (children.delete(child), resolve())));
  return { child, log: () => text, exited };
}

const redisUrl = () => `redis://127.0.0.1:${redisPort}`;

function startWorker(id: string, extraEnv: Record<string, string> = {}): Proc {
  return start(["worker", "--redis", redisUrl(), "--concurrency", "1", "--lock-seconds", "3", "--worker-id", id], {
    DATABASE_URL: UNREACHABLE_DB,
    CHAINSWE_TEST_TIMEOUT_S: "120",
    ...extraEnv,
  });
}

function startDispatcher(): Proc {
  return start(["dispatcher", "--redis", redisUrl(), "--lease-seconds", "5", "--poll-seconds", "0.3"], { DATABASE_URL: pgUrl });
}

async function stop(p: Proc, signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
  if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill(signal);
  await p.exited;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

async function startRedis(): Promise<void> {
  // appendfsync always: a restart keeps every queued chain and report, as a production Redis with AOF would
  redis = spawn("redis-server", ["--port", String(redisPort), "--bind", "127.0.0.1", "--dir", dir, "--appendonly", "yes", "--appendfsync", "always", "--save", ""], {
    stdio: "ignore",
  });
  const { Redis } = await import("ioredis");
  const probe = new Redis({ host: "127.0.0.1", port: redisPort, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on("error", () => {});
  await waitFor("redis to answer", async () => probe.connect().then(() => true, () => false), { timeoutMs: 60_000 });
  probe.disconnect();
}

async function stopRedis(): Promise<void> {
  const r = redis;
  if (!r || r.exitCode !== null) return;
  const exited = new Promise<void>((resolve) => r.on("exit", () => resolve()));
  r.kill("SIGTERM");
  await exited;
}

/** How many jobs of a queue on the test's Redis are in each of `states`. */
async function queued(name: string, ...states: ("waiting" | "active" | "delayed" | "prioritized")[]): Promise<number> {
  const { Queue } = await import("bullmq");
  const queue = new Queue(name, { connection: { host: "127.0.0.1", port: redisPort }, prefix: QUEUE_PREFIX });
  try {
    return Object.values(await queue.getJobCounts(...states)).reduce((a, b) => a + b, 0);
  } finally {
    await queue.close();
  }
}

/** Whether `p`, past the first `from` characters of its output, said it lost its connection to Redis. */
const lostRedis = (p: Proc, from: number) => /ECONNREFUSED|Connection is closed|Stream isn't writeable/.test(p.log().slice(from));

async function submit(chains: string[] | null = null): Promise<string> {
  const created = await submissions.createSubmission({ systemName: "demo-gold", datasetVersion: "v1", mode: "seq", predictions: GOLD_SEQ, chainIds: chains });
  return created.id;
}

const status = async (id: string) => (await db.submission.findUniqueOrThrow({ where: { id }, select: { status: true } })).status;

/** Every bug of the submission graded exactly once, all resolved (the gold patches), every job done. */
async function expectGradedOnce(id: string, bugs: number): Promise<void> {
  expect(await status(id)).toBe("completed");
  const rows = await db.bugResult.findMany({ where: { submissionId: id }, select: { continuousId: true, order: true, resolved: true, fingerprint: true, log: true } });
  expect(rows).toHaveLength(bugs);
  expect(new Set(rows.map((r) => `${r.continuousId}#${r.order}`)).size).toBe(bugs);
  expect(rows.filter((r) => !r.resolved).map((r) => `${r.continuousId}#${r.order} ${r.fingerprint}: ${r.log.split("\n").filter((l) => !/^\s+(PASSED|FAILED|ABSENT|ERROR)\s/.test(l)).join("\n").slice(0, 3000)}`)).toEqual([]);
  const jobs = await db.evaluationJob.findMany({ where: { submissionId: id }, select: { status: true } });
  expect(jobs.every((j) => j.status === "done")).toBe(true);
}

const sandboxes = (label: string) => docker().listContainers({ all: true, filters: { label: ["chainswe.sandbox=1", label] } });

/** The progress column shows a bug graded: the chain is mid-replay. */
async function someChainMidReplay(id: string): Promise<string> {
  let found = "";
  await waitFor("a chain to be mid-replay", async () => {
    const jobs = await db.evaluationJob.findMany({ where: { submissionId: id, status: "running" }, select: { continuousId: true, progress: true } });
    found = jobs.find((j) => j.progress !== "[]")?.continuousId ?? "";
    return found !== "";
  });
  return found;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "chainswe-distributed-"));
  const pg = await createPostgresDatabase("chainswe_dist");
  pgUrl = pg.url;
  dropPg = pg.drop;
  const { migrateDatabase } = await import("@/db/migrate");
  await migrateDatabase(pgUrl, { quiet: true });
  vi.stubEnv("DATABASE_URL", pgUrl);
  delete (globalThis as { chainsweDb?: unknown }).chainsweDb;
  db = (await import("@/db/client")).db;
  submissions = await import("@/lib/submissions/data");
  await (await import("@/lib/dataset/data")).importDataset(DEMO_DATASET, "v1");
  await ensureDemoImages(await loadDataset(DEMO_DATASET));
  redisPort = await freePort();
  await startRedis();
});

afterEach(async () => {
  for (const child of [...children]) child.kill("SIGKILL");
  await waitFor("test processes to exit", () => children.size === 0, { timeoutMs: 60_000 });
});

afterAll(async () => {
  await stopRedis();
  await db?.$disconnect();
  vi.unstubAllEnvs();
  await dropPg?.();
  await rm(dir, { recursive: true, force: true });
});

describe("distributed evaluation (PostgreSQL + BullMQ on Redis)", () => {
  it("a worker SIGKILLed mid-chain: the other worker takes the chain over, every bug graded exactly once, the dead worker's container removed", async () => {
    const dispatcher = startDispatcher();
    const a = startWorker("worker-a");
    const id = await submit();
    const chain = await someChainMidReplay(id);
    // only A is up, so the chain mid-replay is A's
    expect(a.log()).toContain(`${chain} (seq`);
    const b = startWorker("worker-b");
    await stop(a, "SIGKILL");
    expect((await sandboxes("chainswe.worker=worker-a")).length).toBeGreaterThan(0);
    await waitFor("the submission to complete", async () => (await status(id)) === "completed");
    await expectGradedOnce(id, DEMO_BUGS);
    // B replayed the chain A died in, from its first bug
    expect(b.log()).toMatch(new RegExp(`${chain} \\(seq, job \\S+, attempt 1\\): taken`));
    expect(dispatcher.log()).toMatch(/graded by worker-b/);
    await waitFor("the dead worker's container to be reaped", async () => (await sandboxes("chainswe.worker=worker-a")).length === 0, { timeoutMs: 180_000 });
    expect(b.log()).toContain("of worker worker-a");
    await stop(b);
    await stop(dispatcher);
    expect(await sandboxes(`chainswe.submission=${id}`)).toEqual([]);
  });

  it("Redis restarted mid-run: the dispatcher and the workers reconnect and finish", async () => {
    const dispatcher = startDispatcher();
    const w = startWorker("worker-c");
    const id = await submit();
    await someChainMidReplay(id);
    const [dispatcherSaid, workerSaid] = [dispatcher.log().length, w.log().length];
    await stopRedis();
    // both sides have lost the connection before Redis comes back
    await waitFor("the dispatcher and the worker to lose Redis", () => lostRedis(dispatcher, dispatcherSaid) && lostRedis(w, workerSaid), { timeoutMs: 120_000 });
    await startRedis();
    await waitFor("the submission to complete", async () => (await status(id)) === "completed");
    await expectGradedOnce(id, DEMO_BUGS);
    expect(dispatcher.child.exitCode).toBeNull();
    expect(w.child.exitCode).toBeNull();
    await stop(w);
    await stop(dispatcher);
  });

  it("a worker whose Docker engine is unreachable: the chain fails as a retryable environment error, nothing is graded, and a healthy worker completes it", async () => {
    const dispatcher = startDispatcher();
    const broken = startWorker("worker-no-engine", { DOCKER_HOST: `unix://${join(dir, "no-docker.sock")}` });
    const [first] = (await loadDataset(DEMO_DATASET)).chains;
    const id = await submit([first!.continuous_id]);
    await waitFor("the environment error to be recorded", async () => {
      const job = await db.evaluationJob.findFirstOrThrow({ where: { submissionId: id } });
      return job.lastError !== null;
    });
    const job = await db.evaluationJob.findFirstOrThrow({ where: { submissionId: id } });
    expect(job.lastError).toMatch(/^environment error: Docker engine not reachable at unix:\/\/.*no-docker\.sock/);
    // retryable: back in the queue with a backoff, the submission not failed, no grade recorded
    expect(job.status).toBe("queued");
    expect(job.runAfter.getTime()).toBeGreaterThan(Date.now() - 1000);
    expect(await status(id)).not.toBe("failed");
    expect(await db.bugResult.count({ where: { submissionId: id } })).toBe(0);
    await stop(broken);
    const healthy = startWorker("worker-d");
    await waitFor("the submission to complete", async () => (await status(id)) === "completed");
    await expectGradedOnce(id, first!.bug_fixes.length);
    expect((await db.evaluationJob.findFirstOrThrow({ where: { submissionId: id } })).attempts).toBe(2);
    await stop(healthy);
    await stop(dispatcher);
  });

  it("the site's dispatcher killed mid-evaluation and restarted: nothing lost, no chain dispatched twice", async () => {
    const first = startDispatcher();
    const w = startWorker("worker-e");
    const id = await submit();
    await someChainMidReplay(id);
    await stop(first, "SIGKILL");
    // the worker goes on; its reports wait in Redis while no dispatcher reads them
    await waitFor("a report to wait in Redis with no dispatcher to read it", async () => (await queued(REPORTS_QUEUE, "waiting")) > 0);
    const second = startDispatcher();
    await waitFor("the submission to complete", async () => (await status(id)) === "completed");
    await expectGradedOnce(id, DEMO_BUGS);
    const jobs = await db.evaluationJob.findMany({ where: { submissionId: id }, select: { attempts: true } });
    expect(jobs.every((j) => j.attempts === 1)).toBe(true);
    await stop(w);
    await stop(second);
  });

  it("a submission cancelled on the site: waiting chains leave Redis, the running one is stopped on its worker, no container left, nothing more graded", async () => {
    const dispatcher = startDispatcher();
    const w = startWorker("worker-f");
    // bug 1's patch makes the package sleep on import: the chain is still running when the team cancels
    const chains = (await loadDataset(DEMO_DATASET)).chains;
    const slow = chains.find((c) => c.continuous_id === "moneyx-chain-1")!;
    const waiting = chains.find((c) => c.continuous_id === "tablefmt-chain-1")!;
    const init = readFileSync(join(ROOT, "demo", "repos", "moneyx", "commits", "1-initial", "moneyx", "__init__.py"), "utf8");
    const sleepy = patchFor([{ path: "moneyx/__init__.py", before: init, after: `import time\ntime.sleep(90)\n${init}` }]);
    const predictions = predictionsFor(slow, { 1: sleepy }, "demo-sleepy");
    predictions.byChain.set(waiting.continuous_id, predictionsFor(waiting, { 1: "" }, "demo-sleepy").byChain.get(waiting.continuous_id)!);
    const { id } = await submissions.createSubmission({ systemName: "demo-sleepy", datasetVersion: "v1", mode: "seq", predictions, chainIds: [slow.continuous_id, waiting.continuous_id] });
    // the states' container, bug 1's and bug 2's (started ahead): some of them
    await waitFor("the slow chain's containers", async () => (await sandboxes(`chainswe.chain=${slow.continuous_id}`)).length >= 1 && w.log().includes(": taken"), { timeoutMs: 180_000 });
    // bug 1's own container is up: its tests sleep on import
    await waitFor("bug 1's container to run", async () => (await sandboxes(`chainswe.chain=${slow.continuous_id}`)).some((c) => c.Labels["chainswe.use"] === "bug" && c.State === "running"), {
      timeoutMs: 180_000,
    });
    expect(await submissions.cancelSubmission(id)).toMatchObject({ status: "cancelled" });
    await waitFor("the worker to stop the chain", () => w.log().includes("released (cancelled or re-run on the site)"), { timeoutMs: 120_000 });
    expect(dispatcher.log()).toContain("no longer wanted; taken off the queue");
    await waitFor("the submission's containers to go", async () => (await sandboxes(`chainswe.submission=${id}`)).length === 0, { timeoutMs: 120_000 });
    // the worker is idle again, and nothing of the cancelled submission reaches it or the database:
    // Redis holds no chain for it to take
    await waitFor("Redis to hold no chain", async () => (await queued(CHAINS_QUEUE, "waiting", "active", "delayed", "prioritized")) === 0);
    expect(w.log().match(/: taken/g)).toHaveLength(1);
    expect(await db.bugResult.count({ where: { submissionId: id } })).toBe(0);
    expect(await status(id)).toBe("cancelled");
    await stop(w);
    await stop(dispatcher);
  });
});
