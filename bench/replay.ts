/**
 * bench/replay: harness overhead of the replay, measured on the demo dataset
 * with gold predictions (every bug applies and runs its tests).
 *
 *   overhead per bug = (replay wall time − time inside the test commands) / bugs
 *   ratio            = replay wall time / time of the same test commands run
 *                      directly with `docker exec` in a prepared container
 *
 * Both are measured in the same run on the same machine. Prints figures; asserts nothing.
 * Usage: npx tsx bench/replay.ts [--mode seq|oracle] [--concurrency N] [--repeat R]
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { parseArgs } from "node:util";
import { DEMO_DATASET, ensureDemoImages } from "@/evaluator/cli/demo";
import { loadDataset, type Dataset } from "@/evaluator/dataset";
import { evaluate } from "@/evaluator/replay";
import { goldPredictions } from "@/evaluator/replay/gold";
import { goldDiffPath, goldFixPath, goldStatesScript, q, taggedLines, testScript } from "@/evaluator/replay/scripts";
import { Sandbox, assertEngine, defaultLimits } from "@/evaluator/sandbox";
import { modeSchema } from "@/lib/schemas/prediction";

const run = promisify(execFile);
const { values: args } = parseArgs({ options: { mode: { type: "string", default: "seq" }, concurrency: { type: "string", default: "1" }, repeat: { type: "string", default: "1" } } });

async function replayOnce(dataset: Dataset, concurrency: number) {
  const out = await mkdtemp(join(tmpdir(), "chainswe-bench-"));
  const started = performance.now();
  const summary = await evaluate({
    dataset,
    predictions: goldPredictions(dataset),
    mode: modeSchema.parse(args.mode),
    outDir: out,
    system: "gold",
    concurrency,
    chainIds: null,
    limits: defaultLimits(),
  });
  const wall = (performance.now() - started) / 1000;
  await rm(out, { recursive: true, force: true });
  if (summary.bugs_resolved !== summary.bugs_graded) throw new Error("gold replay left bugs unresolved; fix the dataset first");
  return { wall, tests: summary.test_seconds, bugs: summary.bugs_graded };
}

/** Each bug's test command on its gold state G(k), timed around `docker exec` alone. */
async function directOnce(dataset: Dataset) {
  let cli = 0;
  for (const chain of dataset.chains) {
    const sandbox = await Sandbox.start(chain.docker_image, defaultLimits(), { "chainswe.bench": "1" });
    try {
      const files: Record<string, string> = {};
      for (const b of chain.bug_fixes) Object.assign(files, { [goldDiffPath(b.order)]: b.test_patch, [goldFixPath(b.order)]: b.patch });
      const token = "BENCH";
      const built = await sandbox.exec(goldStatesScript(token, chain.base_commit, chain.bug_fixes.length), { files });
      const states = taggedLines(built.output, token);
      for (const bug of chain.bug_fixes) {
        const state = states.find((t) => t.key === `G${bug.order}`)!.rest;
        await sandbox.exec(`git checkout -q -f --detach ${q(state)} && git clean -fdq`);
        const started = performance.now();
        await run("docker", ["exec", "-w", "/testbed", sandbox.id, "bash", "-c", testScript(bug.test_cmds)]).catch(() => undefined);
        cli += (performance.now() - started) / 1000;
      }
    } finally {
      await sandbox.remove();
    }
  }
  return cli;
}

const fmt = (n: number, d = 2) => n.toFixed(d);

await assertEngine();
const dataset = await loadDataset(DEMO_DATASET);
await ensureDemoImages(dataset);
const repeat = Number(args.repeat);
const concurrency = Number(args.concurrency);
console.log(`bench/replay: ${dataset.chains.length} chains, ${dataset.chains.reduce((s, c) => s + c.bug_fixes.length, 0)} bugs, mode ${args.mode}, concurrency ${concurrency}, ${repeat} repeat(s)`);
for (let i = 0; i < repeat; i++) {
  const direct = await directOnce(dataset);
  const replay = await replayOnce(dataset, concurrency);
  const overhead = (replay.wall - replay.tests) / replay.bugs;
  console.log(
    [
      `run ${i + 1}:`,
      `replay wall ${fmt(replay.wall)} s`,
      `inside test commands ${fmt(replay.tests)} s`,
      `harness overhead ${fmt(overhead, 3)} s/bug (target ≤ 0.5)`,
      `direct docker exec ${fmt(direct)} s`,
      `ratio replay/direct ${fmt(replay.wall / direct)} (target ≤ 1.2)`,
    ].join(" | "),
  );
}
