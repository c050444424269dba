/**
 * bench/eval-throughput: how fast the queue evaluates. On a
 * fresh SQLite database with the demo dataset, real worker processes evaluate
 * one system's demo Oracle and Seq submissions (default demo-overshoot, what
 * users submit: 10 chains, 32 bugs, every patch applies and is not gold, its
 * tests run), once per configuration:
 *
 *   embedded      N × `chainswe worker --concurrency 1` on the database queue
 *   distributed   `chainswe dispatcher` + N × `chainswe worker --redis` on a
 *                 Redis of the bench's own (a loopback port, nothing kept)
 *
 * The workers are started first and are idle and polling when the two
 * submissions are created. For each configuration it prints:
 *
 *   throughput      chains and bugs per minute, from the first createSubmission
 *                   to the last chain's completion (Submission.finishedAt)
 *   overhead        harness time per bug: each bug's wall time in its worker's
 *                   log (from the chain's claim or the previous bug to the bug's
 *                   verdict) minus the test command's own duration_s stored for
 *                   it — apply, reset, restore and parse, and for a chain's first
 *                   bug the container's start; mean, p50, p95; and the same mean
 *                   from the whole evaluation, (wall × workers − Σ duration_s) / bugs
 *   first result    from createSubmission to the first bug's verdict on the
 *                   submission page (EvaluationJob.progress) and to the first
 *                   BugResult row (stored when a chain completes)
 *
 * then, with one worker of each kind idle and polling (default poll: 1 s), the
 * time to first result of a one-chain submission, --repeat times. Chains and
 * containers are the bench's own; the workers are stopped and the temp dir
 * removed at the end. Stops by itself; asserts nothing.
 *
 * Usage: npm run bench:eval [-- --workers 1,2 --modes embedded,distributed
 *          --system demo-overshoot --repeat 5 --verbose]
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { DEMO_DATASET, DEMO_PREDICTIONS, ensureDemoImages } from "@/cli/demo";
import { loadDataset } from "@/evaluator/dataset";
import { assertEngine } from "@/evaluator/sandbox";
import { CpuAccount, processSeconds, type CpuSplit } from "./cpu";
import { ascending, CHAINSWE, fmt, foreignSandboxes, freePort, mean, quantile, removeSandboxesOf, run, start, stop, stopAll, waitFor, type Proc } from "./support";

const { values: args } = parseArgs({
  options: {
    workers: { type: "string", default: "1,2" },
    modes: { type: "string", default: "embedded,distributed" },
    system: { type: "string", default: "demo-overshoot" },
    repeat: { type: "string", default: "5" },
    verbose: { type: "boolean", default: false },
  },
});
const WORKERS = args.workers!.split(",").map((s) => Math.max(1, Math.floor(Number(s))));
const MODES = args.modes!.split(",").filter((m): m is Kind => m === "embedded" || m === "distributed");
const REPEAT = Math.max(0, Math.floor(Number(args.repeat)));
const SYSTEM = args.system!;
const VERSION = "demo";
/** no configuration may take longer than this (a stuck run must not hang the bench) */
const RUN_TIMEOUT_MS = 20 * 60_000;
const log = (line: string) => process.stderr.write(`${line}\n`);

type Kind = "embedded" | "distributed";

// ------------------------------------------------------------ the database (DATABASE_URL set before it is opened)

const dir = mkdtempSync(join(tmpdir(), "chainswe-bench-eval-"));
const url = `file:${join(dir, "bench.db")}`;
process.env.DATABASE_URL = url;
const { db } = await import("@/db/client");
const { createSubmission } = await import("@/lib/submissions/data");
const { importDataset } = await import("@/lib/dataset/data");
const ownSubmissions: string[] = [];

async function submit(mode: "oracle" | "seq", chainIds: string[] | null = null): Promise<string> {
  const { id } = await createSubmission({
    systemName: SYSTEM,
    teamName: "bench",
    datasetVersion: VERSION,
    mode,
    predictions: join(DEMO_PREDICTIONS, `${SYSTEM}.${mode}.jsonl`),
    chainIds,
  });
  ownSubmissions.push(id);
  return id;
}

const FINAL = ["completed", "failed", "cancelled"];

type Watch = { firstProgress: number | null; firstResult: number | null };

/** Polls the database every 50 ms until every submission has ended: when a verdict first showed, when a first result row. */
async function watch(ids: string[], t0: number): Promise<Watch> {
  const w: Watch = { firstProgress: null, firstResult: null };
  await waitFor(
    "the submissions to end",
    async () => {
      if (w.firstProgress === null) {
        const shown = await db.evaluationJob.count({ where: { submissionId: { in: ids }, NOT: { progress: "[]" } } });
        if (shown) w.firstProgress = Date.now() - t0;
      }
      if (w.firstResult === null) {
        const first = await db.bugResult.findFirst({ where: { submissionId: { in: ids } }, select: { gradedAt: true } });
        if (first) w.firstResult = Date.now() - t0;
        // a progress entry is written before its chain's rows: a chain finished between two polls shows both now
        if (first && w.firstProgress === null) w.firstProgress = w.firstResult;
      }
      const open = await db.submission.count({ where: { id: { in: ids }, status: { notIn: FINAL } } });
      return open === 0;
    },
    RUN_TIMEOUT_MS,
    undefined,
    50,
  );
  return w;
}

// ------------------------------------------------------------ workers

type Fleet = { kind: Kind; workers: Proc[]; others: Proc[] };

const READY = /worker \S+.*slot\(s\)/;

async function startFleet(kind: Kind, n: number, redisUrl: string | null, tag: string): Promise<Fleet> {
  const others: Proc[] = [];
  if (kind === "distributed") {
    const dispatcher = start(`dispatcher-${tag}`, process.execPath, [CHAINSWE, "dispatcher", "--redis", redisUrl!], { DATABASE_URL: url }, args.verbose);
    others.push(dispatcher);
    await waitFor("the dispatcher to start", () => /dispatcher: chains to Redis/.test(dispatcher.log()), 30_000, dispatcher);
  }
  const workers = Array.from({ length: n }, (_, i) => {
    const id = `bench-${tag}-${i}`;
    const argv = kind === "embedded" ? ["worker", "--concurrency", "1", "--worker-id", id] : ["worker", "--redis", redisUrl!, "--concurrency", "1", "--worker-id", id];
    // distributed workers never need the database: give them none that opens
    const env = kind === "embedded" ? { DATABASE_URL: url } : { DATABASE_URL: "postgresql://nobody@127.0.0.1:1/never" };
    return start(id, process.execPath, [CHAINSWE, ...argv], env, args.verbose);
  });
  for (const w of workers) await waitFor(`${w.name} to start`, () => READY.test(w.log()), 30_000, w);
  // past the start line a worker reaps orphaned sandboxes, then polls: give it that moment
  await new Promise((r) => setTimeout(r, 2000));
  return { kind, workers, others };
}

async function stopFleet(f: Fleet): Promise<void> {
  await Promise.all(f.workers.map((w) => stop(w)));
  await Promise.all(f.others.map((p) => stop(p)));
}

// ------------------------------------------------------------ per-bug wall time from the workers' logs

type BugTime = { jobId: string; order: number; wallS: number; first: boolean };
type ChainTime = { jobId: string; tailS: number; attempt: number };

const LINE = /^(\S+Z) \S+ \((?:oracle|seq|seq_mem), job (\S+), attempt (\d+)\): (claimed|taken|bug (\d+) (?:resolved|unresolved)|done)/;

/** Each completed attempt's events in order: claimed/taken, bug 1…k, done. */
function bugTimes(logs: string[]): { bugs: BugTime[]; chains: ChainTime[] } {
  const bugs: BugTime[] = [];
  const chains: ChainTime[] = [];
  for (const text of logs) {
    const open = new Map<string, { last: number; pending: BugTime[] }>();
    for (const line of text.split("\n")) {
      const m = LINE.exec(line);
      if (!m) continue;
      const [, iso, jobId, attempt, what, order] = m;
      const at = Date.parse(iso!);
      const key = `${jobId}#${attempt}`;
      if (what === "claimed" || what === "taken") {
        open.set(key, { last: at, pending: [] });
        continue;
      }
      const run = open.get(key);
      if (!run) continue;
      if (order) {
        run.pending.push({ jobId: jobId!, order: Number(order), wallS: (at - run.last) / 1000, first: run.pending.length === 0 });
        run.last = at;
      } else {
        bugs.push(...run.pending);
        chains.push({ jobId: jobId!, tailS: (at - run.last) / 1000, attempt: Number(attempt) });
        open.delete(key);
      }
    }
  }
  return { bugs, chains };
}

const ENDED = /job (\S+), attempt \d+\): ((?:failed|will retry|released|lease lost|no longer ours|removed orphaned).*)$/;

/** Distinct reasons (ids and times stripped) an attempt of one of `jobIds` ended without results. */
function retryReasons(logs: string[], jobIds: Set<string>): string[] {
  const reasons = new Set<string>();
  for (const line of logs.join("\n").split("\n")) {
    const m = ENDED.exec(line);
    if (m && jobIds.has(m[1]!)) reasons.add(m[2]!.replace(/\d{4}-\d\d-\d\dT\S+Z/g, "…").slice(0, 200));
    if (/removed orphaned sandbox/.test(line)) reasons.add(line.replace(/^\S+Z /, "").slice(0, 200));
  }
  return [...reasons].slice(0, 5);
}

// ------------------------------------------------------------ one configuration

type Figures = {
  kind: Kind;
  label: string;
  workers: number;
  chains: number;
  bugs: number;
  wallS: number;
  testS: number;
  overheadWhole: number;
  perBug: number[];
  firstBugMean: number;
  laterBugMean: number;
  tailMean: number;
  retried: number;
  /** why attempts ended without results, from the workers' and dispatcher's logs (distinct, first few) */
  retryReasons: string[];
  watch: Watch;
  cpu: CpuSplit;
};

async function throughput(fleet: Fleet): Promise<Figures> {
  const hostProcs = [...fleet.workers, ...fleet.others].map((p) => p.child.pid ?? 0);
  // the workers, the dispatcher, and this process (it creates the submissions and watches them)
  const ownCpu = () => (process.cpuUsage().user + process.cpuUsage().system) / 1e6;
  const host0 = hostProcs.reduce((s, pid) => s + processSeconds(pid), 0) + ownCpu();
  const account = new CpuAccount();
  const t0 = Date.now();
  const ids = [await submit("oracle"), await submit("seq")];
  const w = await watch(ids, t0);
  const cpu = account.close(hostProcs.reduce((s, pid) => s + processSeconds(pid), 0) + ownCpu() - host0);
  const subs = await db.submission.findMany({ where: { id: { in: ids } }, select: { status: true, finishedAt: true } });
  const failed = subs.filter((s) => s.status !== "completed").length;
  if (failed) {
    const why = await db.evaluationJob.findMany({ where: { submissionId: { in: ids }, status: "failed" }, select: { continuousId: true, attempts: true, lastError: true } });
    const lines = why.map((j) => `  ${j.continuousId} after ${j.attempts} attempt(s): ${(j.lastError ?? "").split("\n")[0]}`);
    throw new Error(`${failed} submission(s) did not complete (${subs.map((s) => s.status).join(", ")}):\n${lines.join("\n")}`);
  }
  const end = Math.max(...subs.map((s) => s.finishedAt!.getTime()));
  const wallS = (end - t0) / 1000;
  const jobs = await db.evaluationJob.findMany({ where: { submissionId: { in: ids } }, select: { id: true, submissionId: true, continuousId: true, attempts: true } });
  const results = await db.bugResult.findMany({ where: { submissionId: { in: ids } }, select: { submissionId: true, continuousId: true, order: true, durationS: true } });
  const testS = results.reduce((s, r) => s + r.durationS, 0);
  const duration = new Map(results.map((r) => [`${r.submissionId}/${r.continuousId}#${r.order}`, r.durationS]));
  const jobOf = new Map(jobs.map((j) => [j.id, j]));
  const timed = bugTimes(fleet.workers.map((p) => p.log()));
  const own = timed.bugs.filter((b) => jobOf.has(b.jobId));
  const overhead = (b: BugTime) => {
    const j = jobOf.get(b.jobId)!;
    return b.wallS - (duration.get(`${j.submissionId}/${j.continuousId}#${b.order}`) ?? 0);
  };
  const n = fleet.workers.length;
  return {
    kind: fleet.kind,
    label: `${fleet.kind}, ${n} worker${n > 1 ? "s" : ""}`,
    workers: n,
    chains: jobs.length,
    bugs: results.length,
    wallS,
    testS,
    overheadWhole: (wallS * n - testS) / results.length,
    perBug: ascending(own.map(overhead)),
    firstBugMean: mean(own.filter((b) => b.first).map(overhead)),
    laterBugMean: mean(own.filter((b) => !b.first).map(overhead)),
    tailMean: mean(timed.chains.filter((c) => jobOf.has(c.jobId)).map((c) => c.tailS)),
    retried: jobs.filter((j) => j.attempts > 1).length,
    retryReasons: retryReasons([...fleet.workers, ...fleet.others].map((p) => p.log()), new Set(jobOf.keys())),
    watch: w,
    cpu,
  };
}

/** One-chain submissions to an idle fleet, one at a time: ms to the first verdict shown, to the first result row. */
async function firstResult(firstChain: string): Promise<{ progress: number[]; result: number[] }> {
  const progress: number[] = [];
  const result: number[] = [];
  for (let i = 0; i < REPEAT; i++) {
    // a moment of idleness between samples, so each lands at a random point of the poll interval
    await new Promise((r) => setTimeout(r, 500 + Math.random() * 1000));
    const t0 = Date.now();
    const id = await submit("seq", [firstChain]);
    const w = await watch([id], t0);
    if (w.firstProgress !== null) progress.push(w.firstProgress);
    if (w.firstResult !== null) result.push(w.firstResult);
  }
  return { progress: ascending(progress), result: ascending(result) };
}

// ------------------------------------------------------------ Redis of the bench's own

async function startRedis(): Promise<{ proc: Proc; url: string }> {
  const port = await freePort();
  const proc = start("redis", "redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir], {});
  const { Redis } = await import("ioredis");
  const probe = new Redis({ host: "127.0.0.1", port, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on("error", () => {});
  await waitFor("redis to answer", () => probe.connect().then(() => true, () => false), 10_000, proc, 200);
  probe.disconnect();
  return { proc, url: `redis://127.0.0.1:${port}` };
}

const hasRedis = (): boolean => {
  try {
    execFileSync("redis-server", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
};

// ------------------------------------------------------------ output

function printFigures(all: Figures[]): void {
  const cols = ["configuration", "chains", "bugs", "wall s", "chains/min", "bugs/min", "×1 worker", "retried"];
  const widths = [26, 8, 6, 9, 12, 10, 11, 9];
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("");
  console.log(line(cols));
  for (const f of all) {
    const one = all.find((g) => g.kind === f.kind && g.workers === 1);
    console.log(
      line([
        f.label,
        String(f.chains),
        String(f.bugs),
        fmt(f.wallS),
        fmt((f.chains * 60) / f.wallS),
        fmt((f.bugs * 60) / f.wallS),
        one ? `×${fmt(one.wallS / f.wallS, 2)}` : "–",
        String(f.retried),
      ]),
    );
  }
  console.log(`\nharness overhead per bug, s (bug wall time in the worker's log − its test command's duration_s)`);
  const oc = ["configuration", "mean", "p50", "p95", "bug 1 mean", "bug 2+ mean", "whole-run mean", "chain tail", "test s/bug"];
  const ow = [26, 7, 7, 7, 12, 13, 16, 12, 12];
  const oline = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(ow[i]!) : c.padStart(ow[i]!))).join("");
  console.log(oline(oc));
  for (const f of all) {
    console.log(
      oline([
        f.label,
        fmt(mean(f.perBug), 3),
        fmt(quantile(f.perBug, 0.5), 3),
        fmt(quantile(f.perBug, 0.95), 3),
        fmt(f.firstBugMean, 3),
        fmt(f.laterBugMean, 3),
        fmt(f.overheadWhole, 3),
        fmt(f.tailMean, 3),
        fmt(f.testS / f.bugs, 3),
      ]),
    );
  }
  console.log(
    `(bug 1 includes the chain's container start; whole-run mean = (wall × workers − Σ duration_s) / bugs, idle slots included; chain tail = last verdict → chain stored)`,
  );
  console.log(`\nwhere the CPU goes, s per bug (the machine's busy time from /proc/stat; containers from the engine's cgroup)`);
  const cc = ["configuration", "busy/capacity", "bug containers", "states containers", "node", "engine+kernel", "busy"];
  const cw = [26, 15, 16, 19, 9, 15, 8];
  const cline = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(cw[i]!) : c.padStart(cw[i]!))).join("");
  console.log(cline(cc));
  for (const f of all) {
    const c = f.cpu;
    const per = (x: number) => fmt(x / f.bugs, 3);
    const engine = c.busyS - c.containersS - c.hostS;
    console.log(cline([f.label, `${fmt((100 * c.busyS) / (c.cores * c.wallS), 0)}% of ${c.cores}`, per(c.byUse.bug ?? 0), per(c.byUse.states ?? 0), per(c.hostS), per(engine), per(c.busyS)]));
  }
  console.log(`(bug containers: tests, and entering each bug's state; states containers: git and patch only; node: the workers, the dispatcher and the bench itself; engine+kernel: the rest — dockerd, containerd, shims, runc, the kernel's own work)`);
  console.log(`\nfirst result after createSubmission (these runs, workers idle and polling), s`);
  for (const f of all) {
    console.log(`  ${f.label.padEnd(24)} first verdict shown ${fmt((f.watch.firstProgress ?? NaN) / 1000, 2)}   first BugResult row ${fmt((f.watch.firstResult ?? NaN) / 1000, 2)}`);
  }
  for (const f of all.filter((g) => g.retried)) {
    console.log(`note: ${f.label}: ${f.retried} chain(s) needed another attempt (figures include it); from the logs:`);
    for (const r of f.retryReasons) console.log(`    ${r}`);
  }
}

// ------------------------------------------------------------ main

async function main(): Promise<void> {
  await assertEngine();
  run("chainswe db migrate", process.execPath, [CHAINSWE, "db", "migrate"], { DATABASE_URL: url });
  await importDataset(DEMO_DATASET, VERSION);
  const dataset = await loadDataset(DEMO_DATASET);
  await ensureDemoImages(dataset);
  const firstChain = dataset.chains[0]!;
  const modes = MODES.filter((m) => m === "embedded" || hasRedis());
  if (modes.length < MODES.length) log("no redis-server on PATH (scripts/ensure-services.sh installs it): the distributed mode is skipped");
  const foreignBefore = await foreignSandboxes([]);
  if (foreignBefore) log(`note: ${foreignBefore} sandbox(es) of another run on this engine: figures will be noisy`);

  const figures: Figures[] = [];
  const ttfr: { label: string; progress: number[]; result: number[] }[] = [];
  const failures: string[] = [];
  let redis: { proc: Proc; url: string } | null = null;
  for (const kind of modes) {
    if (kind === "distributed") redis = await startRedis();
    for (const n of WORKERS) {
      log(`${kind}, ${n} worker(s): ${SYSTEM} Oracle + Seq…`);
      const fleet = await startFleet(kind, n, redis?.url ?? null, `${kind[0]}${n}`);
      try {
        const f = await throughput(fleet).catch((e: unknown) => {
          // one broken configuration (e.g. another run's worker reaping this engine's sandboxes) does not lose the others' figures
          failures.push(`${kind}, ${n} worker(s): ${e instanceof Error ? e.message : String(e)}`);
          return null;
        });
        if (f) figures.push(f);
        if (f && n === WORKERS[0] && REPEAT > 0) {
          log(`${kind}, ${n} worker(s) idle: first result of a one-chain submission (${firstChain.continuous_id}), ${REPEAT}×…`);
          ttfr.push({ label: `${kind}, ${n} worker${n > 1 ? "s" : ""}`, ...(await firstResult(firstChain.continuous_id)) });
        }
      } finally {
        await stopFleet(fleet);
      }
    }
  }
  const bugs = dataset.chains.reduce((s, c) => s + c.bug_fixes.length, 0);
  console.log(
    `\nbench/eval-throughput ${new Date().toISOString().slice(0, 10)}: demo dataset (${dataset.chains.length} chains, ${bugs} bugs), ${SYSTEM} Oracle + Seq ` +
      `per configuration, fresh SQLite database, workers at concurrency 1, default poll 1 s\n`,
  );
  printFigures(figures);
  for (const t of ttfr) {
    const s = (xs: number[]) => `median ${fmt(quantile(xs, 0.5) / 1000, 2)}, min ${fmt(xs[0]! / 1000, 2)}, max ${fmt(xs[xs.length - 1]! / 1000, 2)}`;
    console.log(
      `first result of a one-chain Seq submission (${firstChain.continuous_id}, ${firstChain.bug_fixes.length} bugs), ${t.label} idle, ${t.progress.length} runs, s: ` +
        `first verdict shown ${s(t.progress)} | first BugResult row (chain stored) ${s(t.result)}`,
    );
  }
  for (const f of failures) console.log(`NOT MEASURED: ${f}`);
  if (failures.length) process.exitCode = 1;
  const foreignAfter = await foreignSandboxes(ownSubmissions);
  if (foreignBefore || foreignAfter) console.log(`note: another run's sandboxes shared this engine (${foreignBefore} before, ${foreignAfter} after): noisy figures`);
}

main()
  .catch((e) => {
    console.error(e);
    process.exitCode = 1;
  })
  .finally(async () => {
    await stopAll();
    const left = await removeSandboxesOf(ownSubmissions).catch(() => 0);
    if (left) log(`removed ${left} sandbox(es) of this run's submissions`);
    await db.$disconnect();
    rmSync(dir, { recursive: true, force: true });
  });
