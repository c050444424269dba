/**
 * `chainswe demo`: the shipped demo benchmark — repository images built
 * locally (no registry needed); `run` evaluates every demo system in every mode
 * it ships and prints the report; `seed` puts it all in the portal's database.
 */
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Command } from "commander";
import { buildReport, formatReportTables } from "@/evaluator/analysis/report";
import { loadDataset, loadPredictions, type Dataset } from "@/evaluator/dataset";
import { evaluate, loadRunResults } from "@/evaluator/replay";
import { assertEngine, defaultLimits, ensureRepoImage, installSignalCleanup } from "@/evaluator/sandbox";
import { modeSchema } from "@/lib/schemas/prediction";
import { buildDemoRepos } from "@/demo/repos";
import { progressReporter } from "./progress";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const DEMO_DATASET = join(ROOT, "demo", "dataset.jsonl");
export const DEMO_PREDICTIONS = join(ROOT, "demo", "predictions");
const BASE_IMAGE = process.env.CHAINSWE_BASE_IMAGE ?? "chainswe/python:bookworm";

/** Builds each demo chain's image from the demo repositories, unless cached. */
export async function ensureDemoImages(dataset: Dataset, log: (s: string) => void = () => {}): Promise<void> {
  const repos = new Map((await buildDemoRepos()).map((r) => [r.name, r]));
  for (const chain of dataset.chains) {
    const name = chain.repo.split("/")[1]!;
    const repo = repos.get(name);
    if (!repo) throw new Error(`${chain.continuous_id}: no demo repository named ${name}`);
    const how = await ensureRepoImage({ base: BASE_IMAGE, repoDir: repo.dir, commit: chain.base_commit, tag: chain.docker_image });
    log(`${chain.docker_image}: ${how}`);
  }
}

/** demo/predictions/<system>.<mode>.jsonl files. */
export async function demoPredictionFiles(): Promise<{ system: string; mode: string; path: string }[]> {
  const names = (await readdir(DEMO_PREDICTIONS)).filter((n) => n.endsWith(".jsonl")).sort();
  return names.map((n) => {
    const [system, mode] = n.replace(/\.jsonl$/, "").split(/\.(?=[^.]+$)/);
    return { system: system!, mode: mode!, path: join(DEMO_PREDICTIONS, n) };
  });
}

export function registerDemo(program: Command): void {
  const demo = program.command("demo").description("the shipped demo benchmark");
  demo
    .command("images")
    .description("build the demo repositories' images (cached)")
    .action(async () => {
      await assertEngine();
      await ensureDemoImages(await loadDataset(DEMO_DATASET), (s) => process.stderr.write(`${s}\n`));
    });
  demo
    .command("seed")
    .description("the portal's demo data: dataset version \"demo\", the demo team's systems, their submissions queued and published")
    .action(async () => {
      const { seedDemo, DEMO_VERSION, DEMO_TEAM } = await import("@/lib/data/demo-seed");
      const seeded = await seedDemo(DEMO_DATASET, await demoPredictionFiles());
      if (seeded.imported) process.stderr.write(`imported ${DEMO_DATASET} as dataset version ${DEMO_VERSION}\n`);
      process.stderr.write(
        seeded.created.length
          ? `queued and published ${seeded.created.length} submission(s) of team "${DEMO_TEAM}"\n`
          : `the demo submissions are already there\n`,
      );
    });
  demo
    .command("run")
    .description("build what is missing, evaluate every demo system, print the report")
    .option("--out <dir>", "where the evaluation directories go", "runs/demo")
    .option("--concurrency <n>", "chains replayed at once", "2")
    .option("--systems <names>", "comma-separated systems (default: all)")
    .action(async (opts: { out: string; concurrency: string; systems?: string }) => {
      await assertEngine();
      installSignalCleanup();
      const dataset = await loadDataset(DEMO_DATASET);
      await ensureDemoImages(dataset, (s) => process.stderr.write(`${s}\n`));
      const wanted = opts.systems?.split(",");
      const files = (await demoPredictionFiles()).filter((f) => !wanted || wanted.includes(f.system));
      const dirs: string[] = [];
      for (const f of files) {
        const outDir = join(opts.out, `${f.system}.${f.mode}`);
        const progress = progressReporter(`${f.system} ${f.mode}`);
        await evaluate({
          dataset,
          predictions: await loadPredictions(f.path, dataset.chains),
          mode: modeSchema.parse(f.mode),
          outDir,
          system: f.system,
          concurrency: Number(opts.concurrency),
          chainIds: null,
          limits: defaultLimits(),
          onEvent: progress.onEvent,
        }).finally(() => progress.stop());
        dirs.push(outDir);
      }
      const report = buildReport(await Promise.all(dirs.map(loadRunResults)));
      process.stdout.write(`${formatReportTables(report)}\n`);
      process.stdout.write(`\nResults: ${opts.out}/<system>.<mode>/ (results.jsonl, errors.jsonl, logs/). JSON: chainswe report ${opts.out}/* --json\n`);
    });
}
