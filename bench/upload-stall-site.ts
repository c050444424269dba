/**
 * bench/upload-stall --site: what another client of the real site sees (the
 * production build served by bin/site.mjs on a fresh SQLite database with the
 * demo dataset, no evaluation workers) while, in turn:
 *
 *   traj-upload       a team uploads an accepted 67 MB trajectories tar: 16 logs
 *                     of 4 MB, each a dense run of `git log --all` calls (every
 *                     call a shortcut hit), with valid outcome files
 *   failure page      a visitor reloads one such bug's failure page (the
 *                     submission public, its trajectories shown)
 *   submission page   … and the submission's page, and its JSON
 *   predictions-32mb  a team uploads an accepted predictions file of 32 MB
 *                     (16 patches of 2 MB)
 *   proposal-32mb     a user proposes 16 chains with 2 MB of problem statements each,
 *                     the last record of the wrong type: checked whole on the
 *                     upload-checking thread, then refused (422), nothing stored
 *   read shapes       a visitor (or a team's token) repeating each read whose
 *                     parameters they choose: the board as of a day and on the
 *                     Mini split (page, JSON and CSV, a bad as_of too), the
 *                     version's records download, the held-out statements'
 *                     audited download (one chain held out), the discrimination
 *                     export (none stored here: its lookup) and a bad table
 *
 * The other client GETs /api/v1/dataset over and over; prints its p50/p99/max
 * latency and errors per shape, with the hostile requests' status, bytes and time.
 */
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { openAsBlob } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import * as tarStream from "tar-stream";
import { loadDataset } from "@/evaluator/dataset";
import { pathSegment } from "@/core/trajectory/layout";
import { MAX_TRAJECTORY_LOG_BYTES } from "@/lib/submissions/trajectories";
import type { Chain } from "@/core/schemas/dataset";
import { otherClient, report } from "./stall-client";
import { buildSite, CHAINSWE, fmt, freePort, ROOT, run, SITE, siteReady, start, stop, waitFor } from "./support";

const DATASET_PATH = "/api/v1/dataset";
/** Node's flags for a profiled site: V8 writes the profiles at exit, so SIGTERM exits (without workers the site leaves it to Node, which writes none). */
const PROFILED = (dir: string) => ["--cpu-prof", "--cpu-prof-dir", dir, "--cpu-prof-interval", "1000", `--import=data:text/javascript,process.once("SIGTERM",()=>process.exit(0))`];
const log = (line: string) => process.stderr.write(`${line}\n`);

type Bug = { chain: Chain; order: number };
const bugsOf = (chains: Chain[]): Bug[] => chains.flatMap((chain) => chain.bug_fixes.map((b) => ({ chain, order: b.order })));

/** 16 marker-dense 4 MB logs, one per bug, each with a valid outcome file: about 67 MB of tar. */
async function denseTrajectories(dir: string, bugs: Bug[]): Promise<string> {
  const call = "##[chainswe] $ git log --all\nout\n##[chainswe] exit 0 1ms\n";
  const text = call.repeat(Math.floor((MAX_TRAJECTORY_LOG_BYTES - 1024) / call.length));
  const pack = tarStream.pack();
  for (const { chain, order } of bugs) {
    const b = chain.bug_fixes[order - 1]!;
    const outcome = { continuous_id: chain.continuous_id, swebench_instance_id: b.swebench_instance_id, order, mode: "seq", timed_out: false, exit_code: 0, wall_seconds: 1, patch_empty: true, patch_source: "tree", metrics: {}, warnings: [] };
    pack.entry({ name: `${pathSegment(chain.continuous_id)}/${order}.log` }, text);
    pack.entry({ name: `${pathSegment(chain.continuous_id)}/${order}.json` }, JSON.stringify(outcome));
  }
  pack.finalize();
  const path = join(dir, "dense.tar");
  const out = createWriteStream(path);
  pack.pipe(out);
  await once(out, "finish");
  return path;
}

/** One prediction per bug, each patch `patchBytes` long (a valid diff adding one file). */
async function predictionsFile(dir: string, bugs: Bug[], patchBytes: number, name: string): Promise<string> {
  const lines = bugs.map(({ chain, order }) => {
    const header = `--- /dev/null\n+++ b/bench_${order}.py\n`;
    const line = "+x = 1  # padding padding padding padding padding\n";
    const n = Math.max(0, Math.floor((patchBytes - header.length - 32) / line.length));
    const patch = n ? `${header}@@ -0,0 +1,${n} @@\n${line.repeat(n)}` : "";
    return JSON.stringify({ continuous_id: chain.continuous_id, swebench_instance_id: chain.bug_fixes[order - 1]!.swebench_instance_id, model_patch: patch });
  });
  const path = join(dir, name);
  await writeFile(path, `${lines.join("\n")}\n`);
  return path;
}

/** 16 chains (the demo's, renamed) of `chainBytes` problem statements each; the last record's bug_fixes of the wrong type. */
async function proposalFile(dir: string, chains: Chain[], chainBytes: number): Promise<string> {
  const lines = Array.from({ length: 16 }, (_, i) => {
    const chain = chains[i % chains.length]!;
    const statement = "x".repeat(Math.floor(chainBytes / chain.bug_fixes.length));
    const bugs = chain.bug_fixes.map((b) => ({ ...b, swebench_instance_id: `${b.swebench_instance_id}-bench${i}`, problem_statement: statement }));
    const record = { ...chain, continuous_id: `${chain.continuous_id}-bench${i}`, swebench_instance_ids: bugs.map((b) => b.swebench_instance_id), bug_fixes: i === 15 ? 7 : bugs };
    return JSON.stringify(record);
  });
  const path = join(dir, "proposal.jsonl");
  await writeFile(path, `${lines.join("\n")}\n`);
  return path;
}

/** A user with a team, a system and a token with scopes submit and read, made with the portal's own functions. */
async function seedTeam(dbUrl: string): Promise<{ token: string; system: string }> {
  process.env.DATABASE_URL = dbUrl;
  const { createUser } = await import("@/lib/accounts/users");
  const { createTeam } = await import("@/lib/teams/data");
  const { createSystem } = await import("@/lib/teams/systems");
  const { createApiToken } = await import("@/lib/accounts/api-tokens");
  const { db } = await import("@/db/client");
  const { id } = await createUser({ username: "stall-bench", password: randomBytes(12).toString("hex") });
  const viewer = { id, username: "stall-bench", name: "stall-bench", isReviewer: false, isSiteAdmin: false, teams: [] };
  const team = await createTeam(viewer, { name: "Stall bench" });
  await createSystem({ ...viewer, teams: [{ id: team.id, slug: team.slug, name: "Stall bench", role: "admin" }] }, team.slug, { name: "hostile", model: "m", scaffold: "s", contextConfig: "c" });
  const { token } = await createApiToken(id, { name: "bench", scopes: ["submit", "read"] });
  await db.$disconnect();
  return { token, system: `${team.slug}/hostile` };
}

type Upload = { status: number; ms: number; body: string };

async function upload(base: string, token: string, fields: Record<string, string>, files: Record<string, string>, path = "/api/v1/submissions"): Promise<Upload> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const [k, path] of Object.entries(files)) form.append(k, await openAsBlob(path), path.slice(path.lastIndexOf("/") + 1));
  const t0 = performance.now();
  const res = await fetch(`${base}${path}`, { method: "POST", headers: { authorization: `Bearer ${token}` }, body: form });
  const body = await res.text();
  return { status: res.status, ms: performance.now() - t0, body };
}

/** Sequential GETs of `path` by a visitor for `ms` (one at least); answers their count, statuses, the last page's bytes and the slowest. */
async function visitor(base: string, path: string, ms: number, headers: Record<string, string> = {}): Promise<{ n: number; statuses: Set<number>; bytes: number; slowest: number }> {
  const end = Date.now() + ms;
  const out = { n: 0, statuses: new Set<number>(), bytes: 0, slowest: 0 };
  do {
    const t0 = performance.now();
    const res = await fetch(`${base}${path}`, { headers });
    const body = await res.arrayBuffer();
    out.slowest = Math.max(out.slowest, performance.now() - t0);
    out.n++;
    out.statuses.add(res.status);
    out.bytes = body.byteLength;
  } while (Date.now() < end);
  return out;
}

export async function siteShapes(opts: { dist: string; rebuild: boolean; visitS: number; verbose: boolean; profile?: string }): Promise<void> {
  buildSite(opts.dist, opts.rebuild, log);
  const dir = await mkdtemp(join(tmpdir(), "chainswe-bench-stall-site-"));
  const dbFile = join(dir, "site.db");
  const dbUrl = `file:${dbFile}`;
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  run("db migrate", process.execPath, [CHAINSWE, "db", "migrate"], { DATABASE_URL: dbUrl });
  run("dataset import", process.execPath, [CHAINSWE, "dataset", "import", join(ROOT, "demo", "dataset.jsonl"), "--version", "demo"], { DATABASE_URL: dbUrl });
  // one chain held out, so its audited download is among the reads measured
  run("held-out", process.execPath, [CHAINSWE, "dataset", "held-out", "demo", "--chains", "moneyx-chain-1"], { DATABASE_URL: dbUrl });
  const { token, system } = await seedTeam(dbUrl);
  const chains = (await loadDataset(join(ROOT, "demo", "dataset.jsonl"))).chains;
  const bugs = bugsOf(chains);
  const site = start(
    "site",
    process.execPath,
    [...(opts.profile ? PROFILED(opts.profile) : []), SITE, "-p", String(port), "-H", "127.0.0.1"],
    { CHAINSWE_NEXT_DIST: opts.dist, NEXT_TELEMETRY_DISABLED: "1", DATABASE_URL: dbUrl, NEXTAUTH_SECRET: "bench-secret-bench-secret-bench-secret", NEXTAUTH_URL: base, CHAINSWE_SITE_WORKERS: "0", NODE_ENV: "production" },
    opts.verbose,
  );
  try {
    await waitFor("the site", () => siteReady(site), 120_000, site, 250);
    // warm the routes measured (each compiles on first use) and the checking thread (it compiles its checker once)
    const warm = await predictionsFile(dir, bugs, 0, "warm.jsonl");
    const warmed = await upload(base, token, { system, dataset_version: "demo", mode: "seq" }, { predictions: warm });
    if (warmed.status !== 201) throw new Error(`the warm-up upload was refused (${warmed.status}): ${warmed.body}`);
    const idle = await otherClient(port, DATASET_PATH, new Promise((r) => setTimeout(r, 2000)));
    report("idle", idle.latencies, idle.errors ? `  errors ${idle.errors}` : "");

    const tar = await denseTrajectories(dir, bugs);
    const empty = await predictionsFile(dir, bugs, 0, "empty.jsonl");
    const trajUpload = upload(base, token, { system, dataset_version: "demo", mode: "seq", trajectories_public: "true" }, { predictions: empty, trajectories: tar });
    const during = await otherClient(port, DATASET_PATH, trajUpload);
    const t = await trajUpload;
    report("traj-upload (67 MB tar)", during.latencies, `  errors ${during.errors}  upload ${t.status} in ${fmt(t.ms / 1000, 2)} s`);
    if (t.status !== 201) throw new Error(`the trajectories upload was refused (${t.status}): ${t.body.slice(0, 500)}`);
    const id = (JSON.parse(t.body) as { id: string }).id;
    // published as a reviewer would, with the team's choice to show the trajectories
    const sqlite = new Database(dbFile, { timeout: 10_000 });
    sqlite.prepare(`UPDATE "Submission" SET "visibility" = 'public', "trajectoriesPublic" = 1 WHERE "id" = ?`).run(id);
    sqlite.close();
    const first = bugs[0]!;
    const pages: [string, string][] = [
      ["failure page", `/submissions/${id}/chains/${encodeURIComponent(first.chain.continuous_id)}/bugs/${first.order}`],
      ["submission page", `/submissions/${id}`],
      ["submission json", `/api/v1/submissions/${id}`],
    ];
    for (const [label, path] of pages) {
      // the route's first view in this process loads its code: a cost paid once, reported apart from the views after it
      const firstView = visitor(base, path, 0);
      const cold = await otherClient(port, DATASET_PATH, firstView);
      report(`${label}, first view`, cold.latencies, `  errors ${cold.errors}  visitor ${fmt((await firstView).slowest / 1000, 2)} s`);
      const visits = visitor(base, path, opts.visitS * 1000);
      const seen = await otherClient(port, DATASET_PATH, visits);
      const v = await visits;
      report(label, seen.latencies, `  errors ${seen.errors}  visitor ${v.n}× ${[...v.statuses].join(",")} ${fmt(v.bytes / 1e6, 2)} MB, slowest ${fmt(v.slowest / 1000, 2)} s`);
    }

    const big = await predictionsFile(dir, bugs, 2 * 1024 * 1024 - 4096, "big.jsonl");
    const predUpload = upload(base, token, { system, dataset_version: "demo", mode: "seq" }, { predictions: big });
    const whilePred = await otherClient(port, DATASET_PATH, predUpload);
    const p = await predUpload;
    report("predictions-32mb", whilePred.latencies, `  errors ${whilePred.errors}  upload ${p.status} in ${fmt(p.ms / 1000, 2)} s`);
    if (p.status !== 201) throw new Error(`the predictions upload was refused (${p.status}): ${p.body.slice(0, 500)}`);

    const proposal = await proposalFile(dir, chains, 2 * 1024 * 1024);
    const propUpload = upload(base, token, { dataset_version: "demo" }, { chains: proposal }, "/api/v1/proposals");
    const whileProp = await otherClient(port, DATASET_PATH, propUpload);
    const q = await propUpload;
    report("proposal-32mb", whileProp.latencies, `  errors ${whileProp.errors}  upload ${q.status} in ${fmt(q.ms / 1000, 2)} s`);
    if (q.status !== 422) throw new Error(`the proposal was not refused by its last record (${q.status}): ${q.body.slice(0, 500)}`);

    // reads whose parameters a visitor chooses: each repeated for the visit's length, the other client measuring
    const reads: [string, string, Record<string, string>?][] = [
      ["board as of a day", "/?version=demo&as_of=2026-01-01"],
      ["board, Mini split", "/?version=demo&split=mini"],
      ["leaderboard json as of a day", "/api/v1/leaderboard?version=demo&as_of=2026-01-01"],
      ["leaderboard csv, Mini split", "/api/v1/leaderboard?version=demo&split=mini&format=csv"],
      ["leaderboard, bad as_of (400)", "/api/v1/leaderboard?version=demo&as_of=9999-99-99"],
      ["records download", "/api/v1/dataset/demo/records"],
      // this database has no evaluated rows, so no figures are stored: the lookup and its 404, and a bad table (400)
      ["discrimination, none stored (404)", "/api/v1/dataset/demo/discrimination?table=bugs&format=csv"],
      ["discrimination, bad table (400)", "/api/v1/dataset/demo/discrimination?table=positions"],
      ["held-out download (team token)", `/api/v1/dataset/demo/held-out?team=${system.split("/")[0]}`, { authorization: `Bearer ${token}` }],
    ];
    for (const [label, path, headers] of reads) {
      const visits = visitor(base, path, opts.visitS * 1000, headers);
      const seen = await otherClient(port, DATASET_PATH, visits);
      const v = await visits;
      report(label, seen.latencies, `  errors ${seen.errors}  visitor ${v.n}× ${[...v.statuses].join(",")} ${fmt(v.bytes / 1e3, 1)} KB, slowest ${fmt(v.slowest, 0)} ms`);
    }
  } finally {
    await stop(site);
    await rm(dir, { recursive: true, force: true });
  }
}
