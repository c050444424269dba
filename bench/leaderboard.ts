/**
 * bench/leaderboard: how fast the leaderboard answers. On the
 * synthetic database of bench/seed-leaderboard.ts (1,000 public submissions ×
 * 304 bugs; made first if missing), it builds the site (or reuses a build),
 * starts `next start` with no evaluation workers, and measures in the same run,
 * same machine, same client, requests interleaved so they share the machine's
 * noise:
 *
 *   page    GET /                      the leaderboard's server render (first 100 rows)
 *   api     GET /api/v1/leaderboard    every row as JSON
 *   static  the same JSON bytes as a file, served by a minimal node http server
 *
 * and, for information, GET /?all=1 (every row rendered); the page and the API
 * under a bug-date window (every row rescored over the chains it keeps, SPEC §7),
 * and the first request of twelve windows never asked before (the rescoring
 * itself; later requests are answered from memory). Prints median and p95 per
 * target, sizes, and the ratios to the static file. Targets: page and api
 * ≤ 150 ms median, with or without a window; api/static ≤ 3. Requests ask for no compression, so every
 * target is measured doing the same work (Next would gzip; a file server would too).
 *
 * Usage: npm run bench:leaderboard -- [--db /tmp/chainswe-bench-leaderboard/site.db]
 *          [--requests 60] [--port 3300] [--dist .next-bench] [--reuse]
 */
import { execFileSync, spawn } from "node:child_process";
import { createReadStream, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import { SITE_READY } from "@/lib/site/ready";

const { values: args } = parseArgs({
  options: {
    db: { type: "string", default: join(tmpdir(), "chainswe-bench-leaderboard", "site.db") },
    requests: { type: "string", default: "60" },
    port: { type: "string", default: "3300" },
    dist: { type: "string", default: ".next-bench" },
    reuse: { type: "boolean", default: false },
  },
});
const ROOT = new URL("../", import.meta.url).pathname;
const NEXT = join(ROOT, "node_modules", "next", "dist", "bin", "next");
const REQUESTS = Math.max(50, Number(args.requests));
const PORT = Number(args.port);
const DIST = args.dist!;

function run(cmd: string, argv: string[], env: Record<string, string> = {}): void {
  execFileSync(cmd, argv, { cwd: ROOT, env: { ...process.env, ...env }, stdio: "inherit" });
}

/** `next build` adds its build directory's types to tsconfig.json; the tree is left as it was found. */
function build(): void {
  if (args.reuse && existsSync(join(ROOT, DIST, "BUILD_ID"))) return;
  const tsconfig = join(ROOT, "tsconfig.json");
  const before = readFileSync(tsconfig, "utf8");
  try {
    run(process.execPath, [NEXT, "build"], { CHAINSWE_NEXT_DIST: DIST, NEXT_TELEMETRY_DISABLED: "1" });
  } finally {
    const after = readFileSync(tsconfig, "utf8");
    if (after !== before) writeFileSync(tsconfig, after.replace(new RegExp(`,?\\s*"${DIST.replace(/[.]/g, "\\.")}/[^"]*"`, "g"), ""));
  }
}

async function waitFor(url: string, child: { exitCode: number | null }, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the site exited (${child.exitCode}):\n${output()}`);
    try {
      if (output().includes(SITE_READY) && (await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`no answer from ${url} within 60 s:\n${output()}`);
    await sleep(250);
  }
}

/** One request, timed from sending to the last byte of the body. */
async function timed(url: string): Promise<{ ms: number; bytes: number }> {
  const t = performance.now();
  const res = await fetch(url, { headers: { "accept-encoding": "identity" } });
  const body = await res.arrayBuffer();
  const ms = performance.now() - t;
  if (!res.ok) throw new Error(`${url}: ${res.status}`);
  return { ms, bytes: body.byteLength };
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] as number;

async function main(): Promise<void> {
  if (!existsSync(args.db!)) run(process.execPath, [join(ROOT, "node_modules", "tsx", "dist", "cli.mjs"), join(ROOT, "bench", "seed-leaderboard.ts"), args.db!]);
  build();
  const base = `http://127.0.0.1:${PORT}`;
  let text = "";
  const site = spawn(process.execPath, [join(ROOT, "bin", "site.mjs"), "-p", String(PORT), "-H", "127.0.0.1"], {
    cwd: ROOT,
    env: {
      ...process.env,
      CHAINSWE_NEXT_DIST: DIST,
      NEXT_TELEMETRY_DISABLED: "1",
      DATABASE_URL: `file:${args.db}`,
      NEXTAUTH_SECRET: "bench-secret-bench-secret-bench-secret",
      NEXTAUTH_URL: base,
      CHAINSWE_SITE_WORKERS: "0",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  site.stdout.on("data", (c: Buffer) => (text += c.toString()));
  site.stderr.on("data", (c: Buffer) => (text += c.toString()));
  const dir = mkdtempSync(join(tmpdir(), "chainswe-bench-static-"));
  const file = join(dir, "leaderboard.json");
  const fileServer = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json", "content-length": statSync(file).size });
    createReadStream(file).pipe(res);
  });
  try {
    await waitFor(`${base}/api/v1/leaderboard`, site, () => text);
    writeFileSync(file, Buffer.from(await (await fetch(`${base}/api/v1/leaderboard`, { headers: { "accept-encoding": "identity" } })).arrayBuffer()));
    await new Promise<void>((ok) => fileServer.listen(PORT + 1, "127.0.0.1", ok));
    const targets = {
      page: `${base}/`,
      api: `${base}/api/v1/leaderboard`,
      static: `http://127.0.0.1:${PORT + 1}/leaderboard.json`,
      "page, all rows": `${base}/?all=1`,
      "page, window": `${base}/?bug_from=2022-01-01`,
      "api, window": `${base}/api/v1/leaderboard?bug_from=2022-01-01`,
    } as const;
    const times: Record<string, number[]> = {};
    const sizes: Record<string, number> = {};
    for (let i = 0; i < 10; i++) for (const url of Object.values(targets)) await timed(url); // warm-up
    for (let i = 0; i < REQUESTS; i++) {
      for (const [name, url] of Object.entries(targets)) {
        const r = await timed(url);
        (times[name] ??= []).push(r.ms);
        sizes[name] = r.bytes;
      }
    }
    const stats = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, { median: quantile([...v].sort((a, b) => a - b), 0.5), p95: quantile([...v].sort((a, b) => a - b), 0.95) }]));
    console.log(`\nleaderboard on ${args.db}: ${REQUESTS} requests per target, interleaved, sequential\n`);
    console.log(`${"target".padEnd(16)}${"median".padStart(10)}${"p95".padStart(10)}${"size".padStart(12)}`);
    for (const [name, s] of Object.entries(stats)) {
      console.log(`${name.padEnd(16)}${`${s.median.toFixed(1)} ms`.padStart(10)}${`${s.p95.toFixed(1)} ms`.padStart(10)}${`${(sizes[name]! / 1024).toFixed(0)} KB`.padStart(12)}`);
    }
    // windows no request has asked for yet: each first request rescores every row
    const fresh = Array.from({ length: 12 }, (_, i) => {
      const from = new Date(Date.UTC(2020, 1 + i * 4, 1)).toISOString().slice(0, 10);
      return i % 3 === 2 ? `bug_from=${from}&bug_until=${new Date(Date.UTC(2022, 6 + i, 1)).toISOString().slice(0, 10)}` : `bug_from=${from}`;
    });
    const cold: Record<string, number[]> = { "page, new window": [], "api, new window": [] };
    for (const [i, w] of fresh.entries()) {
      // the page and the API share the windowed board: half the windows are asked first by each
      const [first, second] = i % 2 === 0 ? (["page, new window", `${base}/?${w}`] as const) : (["api, new window", `${base}/api/v1/leaderboard?${w}`] as const);
      cold[first]!.push((await timed(second)).ms);
    }
    console.log(`\nfirst request of a window (every row rescored), ${fresh.length} windows:`);
    for (const [name, v] of Object.entries(cold)) {
      const sorted = [...v].sort((a, b) => a - b);
      console.log(`${name.padEnd(18)} median ${quantile(sorted, 0.5).toFixed(1)} ms, max ${sorted.at(-1)!.toFixed(1)} ms over ${v.length}`);
    }
    const st = stats.static!.median;
    const ok = (b: boolean) => (b ? "met" : "NOT met");
    console.log(`\npage median ${stats.page!.median.toFixed(1)} ms (target ≤ 150: ${ok(stats.page!.median <= 150)}), page/static ${(stats.page!.median / st).toFixed(1)}`);
    console.log(`api median ${stats.api!.median.toFixed(1)} ms (target ≤ 150: ${ok(stats.api!.median <= 150)}), api/static ${(stats.api!.median / st).toFixed(1)} (target ≤ 3: ${ok(stats.api!.median / st <= 3)})`);
    const pw = stats["page, window"]!.median;
    const aw = stats["api, window"]!.median;
    console.log(`under a window: page median ${pw.toFixed(1)} ms (target ≤ 150: ${ok(pw <= 150)}), api median ${aw.toFixed(1)} ms (target ≤ 150: ${ok(aw <= 150)}), api/static ${(aw / st).toFixed(1)}`);
  } finally {
    fileServer.close();
    site.kill("SIGTERM");
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
