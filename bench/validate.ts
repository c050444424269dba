/**
 * bench/validate: what checking an upload costs. Generates (in a temp dir) a
 * synthetic dataset and a predictions file of 10,000 lines, ~50 MB (patches of
 * ~5 KB, valid unified diffs), then measures in the same run:
 *
 *   baseline    streaming the file line by line with JSON.parse and nothing else
 *   validation  loadPredictions with the portal's limits (schema, diff shape,
 *               dataset lookups, duplicates, patch and file size, sha256)
 *
 * and prints wall time (median of --repeat runs), the ratio, the peak RSS
 * above the starting point (sampled) and the heap still held afterwards (the
 * predictions themselves, which the submission stores). The dataset stays in
 * memory: no database. Target: validation ≤ 2 s, memory bounded by the file.
 *
 * Usage: npm run bench:validate [-- --lines 10000 --patch-kb 5 --repeat 3]
 */
import { createReadStream, createWriteStream } from "node:fs";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { once } from "node:events";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { loadPredictions, predictionLimitsFromEnv } from "@/evaluator/dataset/predictions";
import { envSchema } from "@/env";
import { chainSchema, type Chain } from "@/core/schemas/dataset";

const { values: args } = parseArgs({
  options: { lines: { type: "string", default: "10000" }, "patch-kb": { type: "string", default: "5" }, repeat: { type: "string", default: "3" } },
});
const LINES = Number(args.lines);
const PATCH_BYTES = Number(args["patch-kb"]) * 1024;
const REPEAT = Number(args.repeat);
const BUGS_PER_CHAIN = 3;

const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const mb = (n: number) => `${(n / (1024 * 1024)).toFixed(1)} MB`;

/** A unified diff of about `bytes` touching one file, with a correct hunk header. */
function syntheticPatch(file: string, seed: number, bytes: number): string {
  const context: string[] = [];
  const removed: string[] = [];
  const added: string[] = [];
  let size = 4 * file.length + 90; // the headers
  for (let i = 0; size < bytes; i++) {
    const text = `    value_${seed}_${i} = compute(${i}, "${"x".repeat(20 + (i % 17))}")`;
    if (i % 3 === 0) {
      context.push(` ${text}`);
      size += text.length + 2;
    } else {
      removed.push(`-${text}`);
      added.push(`+${text.replace("compute", "compute_fixed")}`);
      size += 2 * text.length + 10;
    }
  }
  const old = context.length + removed.length;
  const neu = context.length + added.length;
  return [
    `diff --git a/${file} b/${file}`,
    `index 1111111..2222222 100644`,
    `--- a/${file}`,
    `+++ b/${file}`,
    `@@ -1,${old} +1,${neu} @@`,
    ...context,
    ...removed,
    ...added,
    "",
  ].join("\n");
}

function syntheticChains(bugs: number): Chain[] {
  const chains: Chain[] = [];
  for (let c = 0; c * BUGS_PER_CHAIN < bugs; c++) {
    const id = `bench__repo${c % 50}__chain-${c}`;
    const n = Math.min(BUGS_PER_CHAIN, bugs - c * BUGS_PER_CHAIN);
    const bug_fixes = Array.from({ length: n }, (_, k) => ({
      order: k + 1,
      swebench_instance_id: `bench__repo${c % 50}-${c * BUGS_PER_CHAIN + k}`,
      commit_hash: "0".repeat(40),
      problem_statement: "synthetic",
      date: "2025-01-01",
      source: "bench",
      patch: syntheticPatch(`pkg/mod_${k}.py`, k, 300),
      test_patch: syntheticPatch(`tests/test_mod_${k}.py`, k, 300),
      FAIL_TO_PASS: [`tests/test_mod_${k}.py::test_fix`],
      PASS_TO_PASS: [],
      test_cmds: ["pytest -rA"],
    }));
    chains.push(
      chainSchema.parse({
        continuous_id: id,
        repo: `bench/repo${c % 50}`,
        base_commit: "0".repeat(40),
        source: "bench",
        date_range: "2025-01-01 to 2025-01-02",
        docker_image: "chainswe/bench",
        swebench_instance_ids: bug_fixes.map((b) => b.swebench_instance_id),
        bug_fixes,
      }),
    );
  }
  return chains;
}

async function writePredictions(path: string, chains: Chain[]): Promise<void> {
  const out = createWriteStream(path);
  let n = 0;
  for (const chain of chains) {
    for (const bug of chain.bug_fixes) {
      const line = JSON.stringify({
        continuous_id: chain.continuous_id,
        swebench_instance_id: bug.swebench_instance_id,
        model_patch: syntheticPatch(`pkg/mod_${n % 7}.py`, n, PATCH_BYTES),
        model_name_or_path: "bench-agent",
        cost_usd: 0.1,
        input_tokens: 1000,
        output_tokens: 100,
      });
      if (!out.write(`${line}\n`)) await once(out, "drain");
      n++;
    }
  }
  out.end();
  await once(out, "finish");
}

/** Runs `work`, sampling RSS every 5 ms: wall seconds and the peak RSS above the start. */
async function measure<T>(work: () => Promise<T>): Promise<{ seconds: number; peakRss: number; result: T }> {
  gc();
  const start = process.memoryUsage().rss;
  let peak = start;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
  const t0 = performance.now();
  const result = await work();
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().rss);
  return { seconds, peakRss: peak - start, result };
}

async function streamParse(path: string): Promise<number> {
  let n = 0;
  const lines = createInterface({ input: createReadStream(path, { encoding: "utf8" }), crlfDelay: Infinity });
  for await (const text of lines) if (text) n += JSON.parse(text) ? 1 : 0;
  return n;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main() {
  const dir = await mkdtemp(join(tmpdir(), "chainswe-bench-validate-"));
  try {
    const chains = syntheticChains(LINES);
    const path = join(dir, "predictions.jsonl");
    await writePredictions(path, chains);
    const size = (await stat(path)).size;
    const limits = predictionLimitsFromEnv(envSchema.parse({}));
    console.log(`${LINES} lines, ${chains.length} chains, file ${mb(size)}; limits ${mb(limits.maxFileBytes)} per file, ${limits.maxPatchBytes / 1024} KB per patch; gc ${(globalThis as { gc?: unknown }).gc ? "on" : "off (run with --expose-gc for steadier memory figures)"}`);

    const base: { seconds: number; peakRss: number }[] = [];
    const valid: { seconds: number; peakRss: number }[] = [];
    let retained = 0;
    for (let r = 0; r < REPEAT; r++) {
      const b = await measure(() => streamParse(path));
      if (b.result !== LINES) throw new Error(`baseline read ${b.result} lines`);
      base.push({ seconds: b.seconds, peakRss: b.peakRss });
      gc();
      const heapBefore = process.memoryUsage().heapUsed;
      const v = await measure(() => loadPredictions(path, chains, limits));
      gc();
      // the predictions, still used just below; first run only, as a suspended async frame may
      // still hold the previous run's result when the next one starts
      if (r === 0) retained = process.memoryUsage().heapUsed - heapBefore;
      const bugs = [...v.result.byChain.values()].reduce((n, m) => n + m.size, 0);
      if (bugs !== LINES) throw new Error(`validation kept ${bugs} predictions`);
      valid.push({ seconds: v.seconds, peakRss: v.peakRss }); // not the result: each run's predictions are let go
    }
    const b = median(base.map((x) => x.seconds));
    const v = median(valid.map((x) => x.seconds));
    console.log(`baseline   (stream + JSON.parse): ${b.toFixed(2)} s   peak RSS +${mb(Math.max(...base.map((x) => x.peakRss)))}`);
    console.log(`validation (loadPredictions):     ${v.toFixed(2)} s   peak RSS +${mb(Math.max(...valid.map((x) => x.peakRss)))}   heap held by the result ${mb(retained)}`);
    console.log(`ratio validation / baseline: ${(v / b).toFixed(2)}×   throughput ${(size / (1024 * 1024) / v).toFixed(0)} MB/s   target ≤ 2 s: ${v <= 2 ? "met" : "MISSED"}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
