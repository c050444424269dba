/**
 * Killing the server mid-evaluation loses nothing: a site
 * SIGKILLed while its embedded worker replays a chain is started again on the
 * same database; the chain's lease runs out, it is claimed again, and the
 * submission completes with every bug graded exactly once and no container
 * left behind.
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import Database from "better-sqlite3";
import { expect, test } from "@playwright/test";
import { DEMO_VERSION, ROOT, chainswe, freshDatabase, startSite, type Site } from "./site";
import { waitFor } from "@/lib/testing/wait";

const PORT = Number(process.env.CHAINSWE_E2E_PORT ?? 3210) + 1;

test("a server killed mid-evaluation and restarted completes the submission with every bug graded once", async () => {
  const { url: dbUrl, dir } = freshDatabase("restart");
  const id = chainswe(dbUrl, ["submit-local", join(ROOT, "demo", "predictions", "demo-gold.seq.jsonl"), "--dataset-version", DEMO_VERSION, "--mode", "seq", "--team", "restart"]).trim();
  const sqlite = new Database(join(dir, "site.db"), { readonly: true, fileMustExist: true });
  const jobs = () =>
    sqlite.prepare(`SELECT continuousId, status, attempts, progress FROM EvaluationJob WHERE submissionId = ?`).all(id) as {
      continuousId: string;
      status: string;
      attempts: number;
      progress: string;
    }[];
  const results = () => sqlite.prepare(`SELECT continuousId, "order" FROM BugResult WHERE submissionId = ?`).all(id) as { continuousId: string; order: number }[];
  const status = () => (sqlite.prepare(`SELECT status FROM Submission WHERE id = ?`).get(id) as { status: string }).status;
  const bugs = (sqlite.prepare(`SELECT COUNT(*) AS n FROM Bug b JOIN Chain c ON b.chainId = c.id JOIN DatasetVersion v ON c.datasetVersionId = v.id WHERE v.version = ?`).get(DEMO_VERSION) as { n: number }).n;

  let site: Site | undefined = await startSite({ dbUrl, port: PORT, env: { CHAINSWE_LEASE_S: "4" } });
  try {
    // one chain graded, and the next one's first bug graded (its live progress): kill the server mid-chain
    const killedChain = await waitFor("a chain done and another half-way", () => {
      const js = jobs();
      const running = js.find((j) => j.status === "running" && (JSON.parse(j.progress) as unknown[]).length >= 1);
      return js.some((j) => j.status === "done") && running ? running.continuousId : undefined;
    });
    const before = results().length;
    await site.stop("SIGKILL");
    expect(jobs().find((j) => j.continuousId === killedChain)?.status).toBe("running");

    site = await startSite({ dbUrl, port: PORT, env: { CHAINSWE_LEASE_S: "4" } });
    await waitFor("the submission to complete", () => status() === "completed", { timeoutMs: 300_000 });

    const graded = results();
    expect(graded.length).toBeGreaterThan(before);
    expect(graded).toHaveLength(bugs);
    expect(new Set(graded.map((r) => `${r.continuousId}#${r.order}`)).size).toBe(bugs);
    expect(jobs().every((j) => j.status === "done")).toBe(true);
    expect(jobs().find((j) => j.continuousId === killedChain)?.attempts).toBeGreaterThanOrEqual(2);
    const left = execFileSync("docker", ["ps", "-aq", "--filter", `label=chainswe.submission=${id}`], { encoding: "utf8" }).trim();
    expect(left).toBe("");
  } finally {
    await site?.stop();
    sqlite.close();
  }
});

test("a server stopped with SIGTERM hands its running chain back before it exits", async () => {
  const { url: dbUrl, dir } = freshDatabase("sigterm");
  const id = chainswe(dbUrl, ["submit-local", join(ROOT, "demo", "predictions", "demo-gold.seq.jsonl"), "--dataset-version", DEMO_VERSION, "--mode", "seq", "--team", "sigterm"]).trim();
  const sqlite = new Database(join(dir, "site.db"), { readonly: true, fileMustExist: true });
  const jobs = () =>
    sqlite.prepare(`SELECT continuousId, status, attempts, leaseOwner, progress, lastError FROM EvaluationJob WHERE submissionId = ?`).all(id) as {
      continuousId: string;
      status: string;
      attempts: number;
      leaseOwner: string | null;
      progress: string;
      lastError: string | null;
    }[];
  // a lease far longer than the test: only a hand-back can free the chain
  const site = await startSite({ dbUrl, port: PORT, env: { CHAINSWE_LEASE_S: "600" } });
  try {
    const running = await waitFor("a chain half-way", () => jobs().find((j) => j.status === "running" && (JSON.parse(j.progress) as unknown[]).length >= 1)?.continuousId);
    site.child.kill("SIGTERM");
    expect(await site.exited).toBe(0);
    expect(site.output()).toContain("SIGTERM: handing running chains back");
    const job = jobs().find((j) => j.continuousId === running)!;
    expect(job).toMatchObject({ status: "queued", attempts: 0, leaseOwner: null });
    expect(job.lastError).toMatch(/^released/);
    const left = execFileSync("docker", ["ps", "-aq", "--filter", `label=chainswe.submission=${id}`], { encoding: "utf8" }).trim();
    expect(left).toBe("");
  } finally {
    await site.stop();
    sqlite.close();
  }
});
