/**
 * What bench/load.ts and bench/eval-throughput.ts share: child processes with
 * their output kept (and stopped for sure at the end), free loopback ports,
 * bounded waits, quantiles, the site's build into a dist dir of the bench's
 * own, and removal of the sandboxes of the bench's own submissions only.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { SITE_READY } from "@/lib/site/ready";

export const ROOT = new URL("../", import.meta.url).pathname;
export const CHAINSWE = join(ROOT, "bin", "chainswe.mjs");
export const NEXT = join(ROOT, "node_modules", "next", "dist", "bin", "next");
/** the site as demo.sh and deploy/ run it (server.ts) */
export const SITE = join(ROOT, "bin", "site.mjs");
/** A site started from SITE has warmed its pages and is ready (lib/site/warm-up.ts): a bench measures from then on. */
export const siteReady = (site: Proc): boolean => site.log().includes(SITE_READY);

export type Proc = { name: string; child: ChildProcess; log: () => string; exited: Promise<void> };

const live = new Set<Proc>();

/** A child process whose stdout and stderr are kept in memory (and echoed with --verbose). */
export function start(name: string, cmd: string, argv: string[], env: Record<string, string>, echo = false): Proc {
  const child = spawn(cmd, argv, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let text = "";
  const keep = (c: Buffer) => {
    text += c.toString();
    if (echo) process.stderr.write(c.toString().replace(/^(?=.)/gm, `[${name}] `));
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  const proc: Proc = { name, child, log: () => text, exited };
  live.add(proc);
  void exited.then(() => live.delete(proc));
  return proc;
}

/** SIGTERM (a worker hands its chain back), then SIGKILL after `graceMs`. */
export async function stop(p: Proc, graceMs = 20_000): Promise<void> {
  if (p.child.exitCode !== null || p.child.signalCode !== null) return;
  p.child.kill("SIGTERM");
  const killed = sleep(graceMs).then(() => p.child.kill("SIGKILL"));
  await Promise.race([p.exited, killed]);
  await p.exited;
}

/** Every child this process started and that still runs. */
export async function stopAll(): Promise<void> {
  await Promise.all([...live].map((p) => stop(p)));
}

/** A synchronous command run to completion, its output shown only when it fails. */
export function run(name: string, cmd: string, argv: string[], env: Record<string, string> = {}): string {
  try {
    return execFileSync(cmd, argv, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"], encoding: "utf8" });
  } catch (e) {
    const { stdout, stderr } = e as { stdout?: string; stderr?: string };
    throw new Error(`${name} failed:\n${stdout ?? ""}${stderr ?? ""}`);
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

/** Polls `check` until it answers true; throws after `timeoutMs`, or at once when `alive` says a needed child died. */
export async function waitFor(what: string, check: () => Promise<boolean> | boolean, timeoutMs: number, alive?: Proc, everyMs = 100): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (alive && (alive.child.exitCode !== null || alive.child.signalCode !== null)) {
      throw new Error(`${alive.name} exited while waiting for ${what}:\n${alive.log().slice(-4000)}`);
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await sleep(everyMs);
  }
}

/** The q-quantile of an ascending array (nearest rank). */
export const quantile = (sorted: readonly number[], q: number): number =>
  sorted.length ? (sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] as number) : NaN;

export const ascending = (xs: readonly number[]): number[] => [...xs].sort((a, b) => a - b);
export const mean = (xs: readonly number[]): number => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : NaN);

/**
 * The site built with `next build` into `dist` (a dir of the bench's own), reused
 * when a build is there unless `rebuild`. `next build` adds its dist dir's types
 * to tsconfig.json; those lines are taken out again.
 */
export function buildSite(dist: string, rebuild: boolean, log: (line: string) => void): void {
  const buildId = join(ROOT, dist, "BUILD_ID");
  if (!rebuild && existsSync(buildId)) {
    const age = (Date.now() - statSync(buildId).mtimeMs) / 60_000;
    log(`reusing the site's build in ${dist} (${age.toFixed(0)} min old; --rebuild to build the current tree)`);
    return;
  }
  log(`building the site into ${dist} (next build, a few minutes)…`);
  const tsconfig = join(ROOT, "tsconfig.json");
  const before = readFileSync(tsconfig, "utf8");
  try {
    run("next build", process.execPath, [NEXT, "build"], { CHAINSWE_NEXT_DIST: dist, NEXT_TELEMETRY_DISABLED: "1" });
  } finally {
    // only the lines next added go (someone may have edited the file meanwhile)
    const after = readFileSync(tsconfig, "utf8");
    if (after !== before) writeFileSync(tsconfig, after.replace(new RegExp(`,?\\s*"${dist.replace(/[.]/g, "\\.")}/[^"]*"`, "g"), ""));
  }
}

/**
 * Removes the queue's sandboxes of these submissions, and no other container
 * (other runs may share the engine). Answers how many were left.
 */
export async function removeSandboxesOf(submissionIds: readonly string[]): Promise<number> {
  const { docker } = await import("@/evaluator/sandbox");
  let removed = 0;
  for (const id of submissionIds) {
    const containers = await docker().listContainers({ all: true, filters: { label: ["chainswe.sandbox=1", `chainswe.submission=${id}`] } });
    for (const c of containers) {
      await docker().getContainer(c.Id).remove({ force: true, v: true }).catch(() => {});
      removed++;
    }
  }
  return removed;
}

/**
 * Queue sandboxes on this engine that are not the bench's: another run shares the
 * engine, so its figures are noisy (and each run's workers may reap the other's
 * containers, see docs/BENCHMARKS.md).
 */
export async function foreignSandboxes(ownSubmissionIds: readonly string[]): Promise<number> {
  const { docker } = await import("@/evaluator/sandbox");
  const own = new Set(ownSubmissionIds);
  const containers = await docker().listContainers({ all: true, filters: { label: ["chainswe.sandbox=1"] } });
  return containers.filter((c) => !own.has(c.Labels["chainswe.submission"] ?? "")).length;
}

export const fmt = (n: number, digits = 1): string => (Number.isFinite(n) ? n.toFixed(digits) : "–");
