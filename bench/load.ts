/**
 * bench/load: the leaderboard under concurrent load WHILE an evaluation runs.
 * A fresh SQLite database prepared as the demo is
 * (`chainswe db migrate`, `demo images`, `demo seed`: the demo dataset and the
 * eight demo systems' Oracle and Seq submissions, 80 chains, queued and
 * published), the site built into a dist dir of the bench's own (reused when
 * there) and started with `next start` on a free loopback port, its embedded
 * worker (CHAINSWE_SITE_WORKERS) evaluating the queued chains in Docker all
 * along. Once the first submission is on the leaderboard, for each number of
 * concurrent clients (keep-alive connections, one request in flight each) and
 * for a fixed duration, in this order:
 *
 *   page    GET /                      the leaderboard's server render
 *   api     GET /api/v1/leaderboard    every row as JSON
 *   static  the API's current JSON bytes as a file from a bare node http server
 *           (the baseline, measured in the same run under the same evaluation)
 *
 * prints requests, throughput, p50/p95/p99 latency and errors (connection
 * errors, timeouts, non-2xx), the ratios to the static file, and how far the
 * evaluation got during each window. Then (unless --skip-idle) the site is
 * restarted with its workers off (SIGTERM hands the running chains back) and
 * the same windows run again on the same data: the evaluation's cost to the
 * site, as ratios. The load client is autocannon, in this process: on a 2-core
 * machine it shares the CPUs with the site, the worker and its containers, as
 * every client here would. Stops by itself (about 4 minutes, plus a build when
 * there is none); asserts nothing.
 *
 * Usage: npm run bench:load [-- --concurrency 1,8,32 --duration 10 --site-workers 2
 *          --dist .next-bench --rebuild --skip-idle --verbose]
 */
import { createServer, type Server } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import Database from "better-sqlite3";
import { assertEngine } from "@/evaluator/sandbox";
import { ascending, buildSite, CHAINSWE, fmt, foreignSandboxes, freePort, quantile, removeSandboxesOf, run, SITE, siteReady, start, stop, stopAll, waitFor, type Proc } from "./support";

const { values: args } = parseArgs({
  options: {
    concurrency: { type: "string", default: "1,8,32" },
    duration: { type: "string", default: "10" },
    "site-workers": { type: "string", default: "2" },
    dist: { type: "string", default: ".next-bench" },
    rebuild: { type: "boolean", default: false },
    "skip-idle": { type: "boolean", default: false },
    verbose: { type: "boolean", default: false },
  },
});
const CONCURRENCY = args.concurrency!.split(",").map((s) => Math.max(1, Math.floor(Number(s))));
const DURATION_S = Math.min(120, Math.max(1, Number(args.duration)));
const SITE_WORKERS = Math.max(1, Math.floor(Number(args["site-workers"])));
const log = (line: string) => process.stderr.write(`${line}\n`);

type Target = "page" | "api" | "static";
type EvalState = { bugs: number; done: number; running: number; total: number };
type Window = {
  target: Target;
  clients: number;
  requests: number;
  seconds: number;
  latencies: number[];
  errors: number;
  timeouts: number;
  non2xx: number;
  bytes: number;
  before: EvalState;
  after: EvalState;
};

/** Read-only look at the queue: graded bugs (stored when a chain completes) and chains. */
function evalState(file: string): EvalState {
  const sqlite = new Database(file, { readonly: true, fileMustExist: true, timeout: 5000 });
  try {
    const row = sqlite
      .prepare(
        `SELECT (SELECT count(*) FROM BugResult) AS bugs,
                (SELECT count(*) FROM EvaluationJob WHERE status = 'done') AS done,
                (SELECT count(*) FROM EvaluationJob WHERE status = 'running') AS running,
                (SELECT count(*) FROM EvaluationJob) AS total`,
      )
      .get() as EvalState;
    return row;
  } finally {
    sqlite.close();
  }
}

function submissionIds(file: string): string[] {
  const sqlite = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return (sqlite.prepare(`SELECT id FROM Submission`).all() as { id: string }[]).map((r) => r.id);
  } finally {
    sqlite.close();
  }
}

const NO_COMPRESSION = { "accept-encoding": "identity" };

async function getJson(url: string): Promise<{ bytes: Buffer; count: number }> {
  const res = await fetch(url, { headers: NO_COMPRESSION });
  const bytes = Buffer.from(await res.arrayBuffer());
  if (!res.ok) throw new Error(`${url}: ${res.status}`);
  return { bytes, count: (JSON.parse(bytes.toString()) as { count: number }).count };
}

/** One window of load: `clients` connections for DURATION_S seconds, every response timed. */
async function load(url: string, target: Target, clients: number, dbFile: string): Promise<Window> {
  const latencies: number[] = [];
  let bytes = 0;
  const before = evalState(dbFile);
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const options = { url, connections: clients, pipelining: 1, duration: DURATION_S, timeout: 30, headers: NO_COMPRESSION };
    const instance = autocannon(options, (err: unknown, r: autocannon.Result) => (err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve(r)));
    instance.on("response", (_client, _status, resBytes, ms) => {
      latencies.push(ms);
      bytes += resBytes;
    });
  });
  const after = evalState(dbFile);
  return {
    target,
    clients,
    requests: latencies.length,
    seconds: result.duration,
    latencies: ascending(latencies),
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    bytes,
    before,
    after,
  };
}

function printTable(windows: Window[]): void {
  const cols = ["target", "clients", "requests", "req/s", "p50 ms", "p95 ms", "p99 ms", "errors", "KB/resp", "bugs graded", "chains running"];
  const widths = [8, 8, 10, 9, 9, 9, 9, 8, 9, 13, 16];
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("");
  console.log(line(cols));
  for (const w of windows) {
    const errors = w.errors + w.non2xx; // autocannon counts timeouts among errors
    console.log(
      line([
        w.target,
        String(w.clients),
        String(w.requests),
        fmt(w.requests / w.seconds),
        fmt(quantile(w.latencies, 0.5)),
        fmt(quantile(w.latencies, 0.95)),
        fmt(quantile(w.latencies, 0.99)),
        String(errors),
        fmt(w.bytes / Math.max(1, w.requests) / 1024),
        `+${w.after.bugs - w.before.bugs}`,
        `${w.before.running}→${w.after.running}`,
      ]),
    );
  }
}

function printRatios(windows: Window[]): void {
  console.log(`\nratios to the static file at the same concurrency (throughput: static/target; latency: target/static)`);
  for (const clients of CONCURRENCY) {
    const of = (t: Target) => windows.find((w) => w.target === t && w.clients === clients)!;
    const st = of("static");
    const parts = (["page", "api"] as const).map((t) => {
      const w = of(t);
      const tput = st.requests / st.seconds / (w.requests / w.seconds);
      const p50 = quantile(w.latencies, 0.5) / quantile(st.latencies, 0.5);
      const p99 = quantile(w.latencies, 0.99) / quantile(st.latencies, 0.99);
      return `${t}: throughput ×${fmt(tput)} lower, p50 ×${fmt(p50)}, p99 ×${fmt(p99)}`;
    });
    console.log(`  ${String(clients).padStart(3)} clients  ${parts.join(" | ")}`);
  }
}

/** `next start` on a free loopback port with `workers` embedded worker slots, answering. */
async function startSite(url: string, workers: number): Promise<{ proc: Proc; base: string }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const proc = start(
    `site(${workers})`,
    process.execPath,
    [SITE, "-p", String(port), "-H", "127.0.0.1"],
    {
      CHAINSWE_NEXT_DIST: args.dist!,
      NEXT_TELEMETRY_DISABLED: "1",
      DATABASE_URL: url,
      NEXTAUTH_SECRET: "bench-load-secret-bench-load-secret",
      NEXTAUTH_URL: base,
      CHAINSWE_SITE_WORKERS: String(workers),
    },
    args.verbose,
  );
  await waitFor("the site to be ready", () => siteReady(proc), 120_000, proc, 250);
  return { proc, base };
}

/** Every concurrency × target, in order; the static file is refreshed from the API before its window. */
async function measure(phase: string, base: string, fileServer: StaticFile, dbFile: string): Promise<Window[]> {
  const urls: Record<Target, string> = { page: `${base}/`, api: `${base}/api/v1/leaderboard`, static: fileServer.url };
  fileServer.bytes = (await getJson(urls.api)).bytes;
  for (const u of Object.values(urls)) for (let i = 0; i < 20; i++) await (await fetch(u, { headers: NO_COMPRESSION })).arrayBuffer(); // warm-up
  const windows: Window[] = [];
  for (const clients of CONCURRENCY) {
    for (const target of ["page", "api", "static"] as const) {
      if (target === "static") fileServer.bytes = (await getJson(urls.api)).bytes;
      log(`${phase}: ${target}, ${clients} client(s), ${DURATION_S} s…`);
      windows.push(await load(urls[target], target, clients, dbFile));
    }
  }
  return windows;
}

type StaticFile = { server: Server; url: string; bytes: Buffer };

/** The baseline: a bare node http server answering every request with the same bytes. */
async function startStaticFile(): Promise<StaticFile> {
  const file: StaticFile = { server: createServer(), url: "", bytes: Buffer.alloc(0) };
  file.server.on("request", (_req, res) => {
    res.writeHead(200, { "content-type": "application/json", "content-length": file.bytes.length });
    res.end(file.bytes);
  });
  const port = await freePort();
  await new Promise<void>((ok) => file.server.listen(port, "127.0.0.1", ok));
  file.url = `http://127.0.0.1:${port}/leaderboard.json`;
  return file;
}

/** Loaded against idle, per target and concurrency: how much the running evaluation costs the site. */
function printEvaluationCost(loaded: Window[], idle: Window[]): void {
  console.log(`
during the evaluation vs idle (same site, same data, workers off), per target: throughput ×idle/loaded lower, p50 and p99 ×loaded/idle`);
  for (const clients of CONCURRENCY) {
    const parts = (["page", "api", "static"] as const).map((t) => {
      const l = loaded.find((w) => w.target === t && w.clients === clients)!;
      const i = idle.find((w) => w.target === t && w.clients === clients)!;
      const tput = i.requests / i.seconds / (l.requests / l.seconds);
      return `${t}: ×${fmt(tput)}, p50 ×${fmt(quantile(l.latencies, 0.5) / quantile(i.latencies, 0.5))}, p99 ×${fmt(quantile(l.latencies, 0.99) / quantile(i.latencies, 0.99))}`;
    });
    console.log(`  ${String(clients).padStart(3)} clients  ${parts.join(" | ")}`);
  }
}

async function main(): Promise<void> {
  await assertEngine();
  const dir = mkdtempSync(join(tmpdir(), "chainswe-bench-load-"));
  const dbFile = join(dir, "site.db");
  const url = `file:${dbFile}`;
  let fileServer: StaticFile | undefined;
  let ids: string[] = [];
  try {
    buildSite(args.dist!, args.rebuild!, log);
    log(`preparing ${dbFile} as the demo is (migrate, images, seed)…`);
    const cli = (argv: string[]) => run(`chainswe ${argv.join(" ")}`, process.execPath, [CHAINSWE, ...argv], { DATABASE_URL: url });
    cli(["db", "migrate"]);
    cli(["demo", "images"]);
    cli(["demo", "seed"]);
    ids = submissionIds(dbFile);
    const foreign = await foreignSandboxes(ids);
    if (foreign) log(`note: ${foreign} sandbox(es) of another run on this engine: figures will be noisy`);

    let site = await startSite(url, SITE_WORKERS);
    const api = `${site.base}/api/v1/leaderboard`;
    const startedAt = Date.now();
    log(`site on ${site.base}, ${SITE_WORKERS} embedded worker slot(s); waiting for the first submission to reach the leaderboard…`);
    await waitFor("a first leaderboard row", async () => (await getJson(api)).count > 0, 600_000, site.proc, 1000);
    log(`first row after ${fmt((Date.now() - startedAt) / 1000)} s`);
    fileServer = await startStaticFile();

    const first = evalState(dbFile);
    const rowsBefore = (await getJson(api)).count;
    const loadStarted = Date.now();
    const loaded = await measure("evaluating", site.base, fileServer, dbFile);
    const loadS = (Date.now() - loadStarted) / 1000;
    const last = evalState(dbFile);
    const rowsAfter = (await getJson(api)).count;
    const foreignAfter = await foreignSandboxes(ids);

    let idle: Window[] = [];
    let stranded = 0;
    let leftOver = 0;
    if (!args["skip-idle"]) {
      // the same site and data with its workers off: SIGTERM hands the running chains back
      await stop(site.proc);
      stranded = evalState(dbFile).running;
      leftOver = await removeSandboxesOf(ids); // none should be left; none may run tests during the idle windows
      site = await startSite(url, 0);
      idle = await measure("idle", site.base, fileServer, dbFile);
    }

    console.log(
      `\nbench/load ${new Date().toISOString().slice(0, 10)}: next start (${args.dist}), SQLite, CHAINSWE_SITE_WORKERS=${SITE_WORKERS} evaluating the demo seed ` +
        `(${first.total} chains) in Docker during the load; ${DURATION_S} s per window, loopback, no compression, autocannon in the bench's process\n`,
    );
    printTable(loaded);
    printRatios(loaded);
    console.log(
      `\nevaluation during the ${fmt(loadS, 0)} s of load: ${last.bugs - first.bugs} bugs graded (${fmt(((last.bugs - first.bugs) * 60) / loadS)} per minute), ` +
        `${last.done - first.done} chains completed (${first.done}→${last.done} of ${first.total}); leaderboard rows ${rowsBefore}→${rowsAfter}`,
    );
    const dry = loaded.filter((w) => w.before.running === 0 && w.after.running === 0).length;
    if (dry) console.log(`note: ${dry} window(s) ran with no chain being evaluated (the queue ran dry before the load ended)`);
    if (idle.length) {
      console.log(`\nthe same load on the same site and data with no evaluation running (CHAINSWE_SITE_WORKERS=0, restarted), ${rowsAfter} leaderboard rows\n`);
      printTable(idle);
      printRatios(idle);
      printEvaluationCost(loaded, idle);
    }
    if (stranded || leftOver) {
      console.log(`note: after SIGTERM to the evaluating site, ${stranded} chain(s) were still leased (not handed back) and ${leftOver} sandbox(es) of its were left (removed by the bench)`);
    }
    if (foreign || foreignAfter) console.log(`note: another run's sandboxes shared this engine (${foreign} before, ${foreignAfter} after the evaluating windows): noisy figures`);
  } finally {
    fileServer?.server.close();
    await stopAll();
    const left = await removeSandboxesOf(ids).catch(() => 0);
    if (left) log(`removed ${left} sandbox(es) of this run's submissions`);
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
