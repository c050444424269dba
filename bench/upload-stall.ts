/**
 * bench/upload-stall: another client's latency while a hostile 100 MB upload
 * is being checked. This process plays the site: one
 * thread answers a client's GETs (keep-alive, one request in flight) and
 * checks the upload the way the portal's intake does (loadPredictionsOffThread).
 * Measured for each hostile shape, with the same client before (idle) and
 * during the check:
 *
 *   lines   100 MB of "{}" lines (every line a problem)
 *   array   one 100 MB JSON array [{},{},…]
 *
 * and for each hostile trajectories archive (tar.gz, --traj-mb unpacked, in
 * 4 MB logs, one per demo bug), checked as the intake does (uploadedTrajectories):
 *
 *   calls          logs of minimal tool-call blocks (about 100,000 per log)
 *   long-commands  one call per log whose command is 4 MB of "git git …"
 *
 * and, with --on-thread, the same check on the answering thread for comparison.
 * Prints requests, p50/p99/max latency and how long the check took. Target:
 * p99 under 200 ms during the check. Asserts nothing.
 *
 * With --site, the real site instead (bench/upload-stall-site.ts): its
 * production build on a fresh database, with the whole path a user's upload
 * and a visitor's page take (storing, rendering). Target there: max under
 * 200 ms for every shape.
 *
 * Usage: npm run bench:upload-stall [-- --mb 100 --traj-mb 48 --idle-s 3 --on-thread]
 *        npm run bench:upload-stall -- --site [--dist .next-bench --rebuild --visit-s 6 --verbose --profile DIR]
 */
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { loadPredictions } from "@/evaluator/dataset/predictions";
import { loadPredictionsOffThread } from "@/lib/submissions/predictions-off-thread";
import { writeFile } from "node:fs/promises";
import { gzipSync } from "node:zlib";
import * as tarStream from "tar-stream";
import { loadDataset } from "@/evaluator/dataset";
import { pathSegment } from "@/core/trajectory/layout";
import { checkTrajectories, MAX_TRAJECTORY_LOG_BYTES, readTrajectoryArchive, uploadedTrajectories, type TrajectoryCheck } from "@/lib/submissions/trajectories";
import type { Chain } from "@/core/schemas/dataset";
import { otherClient, report as reportLine } from "./stall-client";
import { siteShapes } from "./upload-stall-site";
import { fmt } from "./support";

const { values: args } = parseArgs({
  options: {
    mb: { type: "string", default: "100" },
    "traj-mb": { type: "string", default: "48" },
    "idle-s": { type: "string", default: "3" },
    "on-thread": { type: "boolean", default: false },
    site: { type: "boolean", default: false },
    dist: { type: "string", default: ".next-bench" },
    rebuild: { type: "boolean", default: false },
    "visit-s": { type: "string", default: "6" },
    verbose: { type: "boolean", default: false },
    // the site's V8 CPU profiles (one per thread) written into DIR, to find what holds the answering thread
    profile: { type: "string" },
  },
});
const BYTES = Number(args.mb) * 1024 * 1024;
const LIMITS = { maxFileBytes: BYTES, maxPatchBytes: 2048 * 1024 };

async function hostile(dir: string, shape: "lines" | "array"): Promise<string> {
  const path = join(dir, `${shape}.json`);
  const out = createWriteStream(path);
  const unit = shape === "lines" ? "{}\n" : "{},";
  const chunk = unit.repeat(1 << 20);
  if (shape === "array") out.write("[");
  for (let n = 1; n + chunk.length < BYTES; n += chunk.length) if (!out.write(chunk)) await once(out, "drain");
  out.end(shape === "array" ? "{}]" : "{}\n");
  await once(out, "finish");
  return path;
}

type TrajectoryShape = "calls" | "long-commands";

/** A hostile trajectories archive: 4 MB logs (the per-log limit, less a little), one per bug, until --traj-mb. */
async function hostileTrajectories(dir: string, shape: TrajectoryShape, chains: Chain[]): Promise<string> {
  const logBytes = MAX_TRAJECTORY_LOG_BYTES - 1024;
  const call = "##[chainswe] $ git git\n##[chainswe] exit 0 1ms\n";
  const log = shape === "calls" ? call.repeat(Math.floor(logBytes / call.length)) : `##[chainswe] $ ${"git ".repeat(Math.floor((logBytes - 64) / 4))}\n##[chainswe] exit 0 1ms\n`;
  const bugs = chains.flatMap((c) => c.bug_fixes.map((b) => `${pathSegment(c.continuous_id)}/${b.order}.log`)).slice(0, Math.floor((Number(args["traj-mb"]) * 1024 * 1024) / logBytes));
  const pack = tarStream.pack();
  for (const name of bugs) pack.entry({ name }, log);
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const c of pack) chunks.push(c as Buffer);
  const path = join(dir, `${shape}.tgz`);
  await writeFile(path, gzipSync(Buffer.concat(chunks)));
  return path;
}

const client = async (port: number, until: Promise<unknown>) => (await otherClient(port, "/api/v1/dataset", until)).latencies;

function report(label: string, latencies: number[], checkMs?: number): void {
  reportLine(label, latencies, checkMs === undefined ? "" : `  check ${fmt(checkMs / 1000, 2)} s`);
}

async function main(): Promise<void> {
  if (args.site) return siteShapes({ dist: args.dist!, rebuild: args.rebuild!, visitS: Number(args["visit-s"]), verbose: args.verbose!, profile: args.profile });
  const dir = await mkdtemp(join(tmpdir(), "chainswe-bench-stall-"));
  const body = JSON.stringify({ versions: [{ version: "v1", chains: 80 }] });
  const server = createServer((_req, res) => res.setHeader("content-type", "application/json").end(body)).listen(0, "127.0.0.1");
  await once(server, "listening");
  const port = (server.address() as { port: number }).port;
  try {
    const idleFor = new Promise((r) => setTimeout(r, Number(args["idle-s"]) * 1000));
    report("idle", await client(port, idleFor));
    const loaders: [string, typeof loadPredictions][] = [["off-thread (the site)", loadPredictionsOffThread]];
    if (args["on-thread"]) loaders.push(["on-thread (comparison)", loadPredictions]);
    for (const shape of ["lines", "array"] as const) {
      const path = await hostile(dir, shape);
      for (const [name, load] of loaders) {
        const t0 = performance.now();
        const check = load(path, [], LIMITS).then(
          () => "accepted",
          (e: unknown) => (e as Error).name,
        );
        const latencies = await client(port, check);
        report(`${shape} ${name}`, latencies, performance.now() - t0);
        console.log(`${"".padEnd(26)} outcome: ${await check}`);
      }
      await rm(path, { force: true });
    }
    const chains = (await loadDataset(join(process.cwd(), "demo", "dataset.jsonl"))).chains;
    const maxBytes = (Number(args["traj-mb"]) + 4) * 1024 * 1024;
    const checks: [string, (file: { path: string; name: string }) => TrajectoryCheck][] = [["off-thread (the site)", (file) => uploadedTrajectories(file, maxBytes)]];
    if (args["on-thread"]) checks.push(["on-thread (comparison)", (file) => async (c, ids, v) => checkTrajectories(await readTrajectoryArchive(file.path, file.name, maxBytes), c, ids, v)]);
    for (const shape of ["calls", "long-commands"] as const) {
      const path = await hostileTrajectories(dir, shape, chains);
      for (const [name, make] of checks) {
        const t0 = performance.now();
        const check = make({ path, name: `${shape}.tgz` })(chains, chains.map((c) => c.continuous_id), "demo").then(
          (t) => `accepted: ${t.rows.length} logs, ${t.rows.reduce((n, r) => n + r.calls, 0)} calls`,
          (e: unknown) => (e as Error).name,
        );
        const latencies = await client(port, check);
        report(`${shape} ${name}`, latencies, performance.now() - t0);
        console.log(`${"".padEnd(26)} outcome: ${await check}`);
      }
      await rm(path, { force: true });
    }
  } finally {
    server.close();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
