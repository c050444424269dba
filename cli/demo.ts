/**
 * `chainswe demo`: the shipped demo benchmark — repository images built
 * locally (no registry needed); `run` evaluates every demo system in every mode
 * it ships and prints the report; `seed` puts it all in the portal's database;
 * `rollout` makes the predictions again through the rollout harness and
 * compares them with the shipped ones.
 */
import { mkdir, readFile, readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Command } from "commander";
import { buildReport } from "@/core/analysis/report";
import { formatReportTables } from "@/core/analysis/report-text";
import { env } from "@/env";
import { loadDataset, loadPredictions, type Dataset } from "@/evaluator/dataset";
import { predictionLimitsFromEnv } from "@/evaluator/dataset/predictions";
import { evaluate, loadRunResults } from "@/evaluator/replay";
import { q } from "@/evaluator/replay/scripts";
import { rollout } from "@/evaluator/rollout";
import { z } from "zod";
import { rolloutDifferences } from "@/demo/lib/rollout-check";
import { SYSTEMS } from "@/demo/lib/systems";
import { assertEngine, defaultLimits, ensureRepoImage, installSignalCleanup } from "@/evaluator/sandbox";
import { modeSchema } from "@/core/schemas/prediction";
import { buildDemoRepos } from "@/demo/repos";
import { intOption, modeOption, parseOptions } from "./options";
import { progressReporter } from "./progress";
import type { DemoPredictionFile } from "@/lib/demo-seed";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
export const DEMO_DATASET = join(ROOT, "demo", "dataset.jsonl");
export const DEMO_PREDICTIONS = join(ROOT, "demo", "predictions");
/** rollout trajectories of some demo systems, `<system>.<mode>/` as `chainswe rollout` writes them */
export const DEMO_TRAJECTORIES = join(ROOT, "demo", "trajectories");
/** the demo systems as rollout agents (demo/agent.mjs registers them with the reference agents' program) */
const DEMO_AGENTS = join(ROOT, "demo", "agent.mjs");

const list = <T extends z.ZodType<unknown, string>>(item: T) =>
  z
    .string()
    .transform((s) => s.split(",").map((x) => x.trim()).filter(Boolean))
    .pipe(z.array(item).min(1, "give at least one"));
const demoSystem = z.string().refine((s) => SYSTEMS.some((x) => x.name === s), { error: (i) => `not a demo system: ${String(i.input)}` });
const allSystems = () => SYSTEMS.map((s) => s.name);

export const demoRunOptionsSchema = z.object({
  out: z.string().min(1),
  concurrency: intOption(1),
  systems: list(demoSystem).optional(),
});

export const demoRolloutOptionsSchema = z.object({
  out: z.string().min(1),
  systems: list(demoSystem).optional().transform((s) => s ?? allSystems()),
  modes: list(modeOption),
  concurrency: intOption(1),
});

/** Builds each demo chain's image from the demo repositories, unless cached. */
export async function ensureDemoImages(dataset: Dataset, log: (s: string) => void = () => {}): Promise<void> {
  const repos = new Map((await buildDemoRepos()).map((r) => [r.name, r]));
  for (const chain of dataset.chains) {
    const name = chain.repo.split("/")[1]!;
    const repo = repos.get(name);
    if (!repo) throw new Error(`${chain.continuous_id}: no demo repository named ${name}`);
    const how = await ensureRepoImage({ base: env().CHAINSWE_BASE_IMAGE, repoDir: repo.dir, commit: chain.base_commit, tag: chain.docker_image });
    log(`${chain.docker_image}: ${how}`);
  }
}

/** demo/predictions/<system>.<mode>.jsonl files. */
/** The shipped predictions, each with its system's shipped trajectories for the mode when there are some. */
export async function demoPredictionFiles(): Promise<DemoPredictionFile[]> {
  const names = (await readdir(DEMO_PREDICTIONS)).filter((n) => n.endsWith(".jsonl")).sort();
  const shipped = new Set(await readdir(DEMO_TRAJECTORIES).catch(() => [] as string[]));
  return names.map((n) => {
    const base = n.replace(/\.jsonl$/, "");
    const [system, mode] = base.split(/\.(?=[^.]+$)/);
    return { system: system!, mode: mode!, path: join(DEMO_PREDICTIONS, n), ...(shipped.has(base) ? { trajectories: join(DEMO_TRAJECTORIES, base) } : {}) };
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
    .description("the portal's demo data: dataset version \"demo\", a proposal validated in Docker and released as \"demo-2\", the demo team's systems, their submissions queued and published")
    .action(async () => {
      const { seedDemo, DEMO_VERSION, DEMO_TEAM } = await import("@/lib/demo-seed");
      const seeded = await seedDemo(DEMO_DATASET, await demoPredictionFiles(), (line) => process.stderr.write(`${line}\n`));
      if (seeded.imported) process.stderr.write(`imported ${DEMO_DATASET} as dataset version ${DEMO_VERSION}\n`);
      process.stderr.write(
        seeded.created.length
          ? `queued and published ${seeded.created.length} submission(s) of team "${DEMO_TEAM}"\n`
          : `the demo submissions are already there\n`,
      );
    });
  demo
    .command("rollout")
    .description("roll the demo systems out as agents (docs/ROLLOUT.md) and compare with the shipped predictions")
    .option("--out <dir>", "where the rolled-out predictions and trajectories go", "runs/demo-rollout")
    .option("--systems <names>", "comma-separated systems (default: all)")
    .option("--modes <modes>", "comma-separated modes", "oracle,seq")
    .option("--concurrency <n>", "chains rolled out at once", "2")
    .action(async (raw: Record<string, unknown>) => {
      const opts = parseOptions("demo rollout", demoRolloutOptionsSchema, raw);
      const { systems, modes } = opts;
      await assertEngine();
      installSignalCleanup();
      const dataset = await loadDataset(DEMO_DATASET);
      await ensureDemoImages(dataset, (s) => process.stderr.write(`${s}\n`));
      await mkdir(opts.out, { recursive: true });
      let differing = 0;
      for (const system of systems) {
        for (const mode of modes) {
          const out = join(opts.out, `${system}.${mode}.jsonl`);
          const trajectoriesDir = join(opts.out, `${system}.${mode}.trajectories`);
          await Promise.all([rm(out, { force: true }), rm(trajectoriesDir, { recursive: true, force: true })]);
          const summary = await rollout({
            dataset,
            mode,
            agentCommand: `node ${q(DEMO_AGENTS)} demo --dataset ${q(DEMO_DATASET)} --system ${q(system)}`,
            system,
            out,
            trajectoriesDir,
            timeLimitS: 300,
            chains: dataset.chains,
            concurrency: opts.concurrency,
            limits: defaultLimits(),
            maxPatchBytes: predictionLimitsFromEnv(env()).maxPatchBytes,
          });
          const shipped = join(DEMO_PREDICTIONS, `${system}.${mode === "seq_mem" ? "seq" : mode}.jsonl`);
          const problems = summary.chainsFailed ? [`${summary.chainsFailed} chain(s) failed`] : rolloutDifferences(await readFile(out, "utf8"), await readFile(shipped, "utf8"));
          if (problems.length) differing++;
          process.stdout.write(`${system} ${mode}: ${problems.length ? `DIFFERS from ${shipped}: ${problems.join("; ")}` : `identical to ${shipped} (but wall_seconds)`}\n`);
        }
      }
      if (differing) process.exitCode = 1;
    });
  demo
    .command("run")
    .description("build what is missing, evaluate every demo system, print the report")
    .option("--out <dir>", "where the evaluation directories go", "runs/demo")
    .option("--concurrency <n>", "chains replayed at once", "2")
    .option("--systems <names>", "comma-separated systems (default: all)")
    .action(async (raw: Record<string, unknown>) => {
      const opts = parseOptions("demo run", demoRunOptionsSchema, raw);
      await assertEngine();
      installSignalCleanup();
      const dataset = await loadDataset(DEMO_DATASET);
      await ensureDemoImages(dataset, (s) => process.stderr.write(`${s}\n`));
      const wanted = opts.systems;
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
          concurrency: opts.concurrency,
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
