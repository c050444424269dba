/**
 * The deployment layout in the browser: the real site on
 * PostgreSQL with CHAINSWE_QUEUE=bullmq, its dispatcher handing chains through
 * Redis to a `chainswe worker --redis` process that has no database. A team
 * signs up, submits with an API token, watches the evaluation, and the site is
 * SIGKILLed mid-evaluation and started again: the submission completes with
 * every bug graded exactly once. Needs PostgreSQL and Redis on 127.0.0.1
 * (scripts/ensure-services.sh; .ci/run starts them).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { Client } from "pg";
import { DEMO_VERSION, ROOT, chainswe, startSite, type Site } from "./site";
import { createTeamWithSystem, createToken, shot, signUp } from "./steps";
import { waitFor } from "@/lib/testing/wait";

const PORT = Number(process.env.CHAINSWE_E2E_PORT ?? 3210) + 2;
const PG_SERVER = process.env.CHAINSWE_TEST_PG_URL ?? "postgresql://root@localhost/postgres?host=/var/run/postgresql";
// a Redis database of its own on the local server, emptied first
const REDIS_URL = process.env.CHAINSWE_E2E_REDIS_URL ?? "redis://127.0.0.1:6379/7";
const GOLD_SEQ = join(ROOT, "demo", "predictions", "demo-gold.seq.jsonl");
const run = Date.now().toString(36);

async function sql<T>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}

test("PostgreSQL + BullMQ: submit through the API, the site killed mid-evaluation and restarted, every bug graded once by a worker with no database", async ({ browser }) => {
  test.setTimeout(10 * 60_000);
  const name = `chainswe_e2e_${run}`;
  await sql(PG_SERVER, `CREATE DATABASE ${name}`);
  const dbUrl = Object.assign(new URL(PG_SERVER), { pathname: `/${name}` }).toString();
  const { Redis } = await import("ioredis");
  const redis = new Redis(REDIS_URL);
  await redis.flushdb();
  redis.disconnect();
  chainswe(dbUrl, ["db", "migrate"]);
  chainswe(dbUrl, ["dataset", "import", join(ROOT, "demo", "dataset.jsonl"), "--version", DEMO_VERSION]);

  // Generous leases and locks: time is not what this test is about (the restarted site renews the leases of
  // the chains Redis holds, it does not claim them again). With a 5 s lease and a 3 s worker lock, a machine
  // under full load missed a renewal and a chain was rightly dispatched twice, failing "attempts === 1".
  const env = { CHAINSWE_QUEUE: "bullmq", REDIS_URL, CHAINSWE_LEASE_S: "120" };
  let site: Site | undefined = await startSite({ dbUrl, port: PORT, env });
  let worker: ChildProcess | undefined;
  let workerLog = "";
  try {
    worker = spawn(process.execPath, ["bin/chainswe.mjs", "worker", "--redis", REDIS_URL, "--concurrency", "1", "--lock-seconds", "60", "--worker-id", "e2e-worker"], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: "postgresql://nobody@127.0.0.1:1/never" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    worker.stdout!.on("data", (c: Buffer) => (workerLog += c.toString()));
    worker.stderr!.on("data", (c: Buffer) => (workerLog += c.toString()));

    // a browser context of its own: relative URLs go to this site, not the shared one
    const context = await browser.newContext({ baseURL: site.url });
    const page = await context.newPage();
    const base = site.url;
    await signUp(page, `dora-${run}`);
    const teamPath = await createTeamWithSystem(page, `Deploy team ${run}`, { name: "pg-gold", model: "pg-model" });
    const system = `${teamPath.split("/").pop()}/pg-gold`;
    const token = await createToken(page, "deploy", ["submit", "read"]);
    const res = await page.request.post(`${base}/api/v1/submissions`, {
      headers: { authorization: `Bearer ${token}` },
      multipart: {
        system,
        dataset_version: DEMO_VERSION,
        mode: "seq",
        predictions: { name: "demo-gold.seq.jsonl", mimeType: "application/x-ndjson", buffer: readFileSync(GOLD_SEQ) },
      },
    });
    expect(res.status()).toBe(201);
    const { id } = (await res.json()) as { id: string };

    const jobs = () => sql<{ status: string; progress: string; attempts: number }>(dbUrl, `SELECT status, progress, attempts FROM "EvaluationJob" WHERE "submissionId" = $1`, [id]);
    // live progress reaches the submission page through the reports queue
    await page.goto(`${base}/submissions/${id}`);
    await waitFor("a chain done and another mid-replay", async () => {
      const js = await jobs();
      return js.some((j) => j.status === "done") && js.some((j) => j.status === "running" && j.progress !== "[]");
    });
    await site.stop("SIGKILL");
    site = await startSite({ dbUrl, port: PORT, env });

    await page.goto(`${base}/submissions/${id}`);
    await expect(page.getByTestId("submission-status")).toHaveText("completed", { timeout: 240_000 });
    const bugs = await sql<{ n: string }>(dbUrl, `SELECT count(*) AS n FROM "Bug" b JOIN "Chain" c ON b."chainId" = c.id`);
    const graded = await sql<{ key: string; resolved: boolean }>(dbUrl, `SELECT "continuousId" || '#' || "order" AS key, resolved FROM "BugResult" WHERE "submissionId" = $1`, [id]);
    expect(graded).toHaveLength(Number(bugs[0]!.n));
    expect(new Set(graded.map((g) => g.key)).size).toBe(graded.length);
    expect(graded.every((g) => g.resolved)).toBe(true);
    // nothing was dispatched twice: the restarted site took its chains on Redis back
    const settled = await jobs();
    expect(settled.map((j) => [j.status, j.attempts]), workerLog).toEqual(settled.map(() => ["done", 1]));
    expect(workerLog).toContain("e2e-worker");
    await shot(page, "deployment-completed");
  } finally {
    worker?.kill("SIGTERM");
    await site?.stop();
    await sql(PG_SERVER, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
  }
});
