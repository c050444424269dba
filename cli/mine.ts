/**
 * `chainswe mine`: candidate chains from SWE-bench-family instance files (paper §3.2):
 * joins by git history, the code-overlap filter, and with `--verify RUNDIR` the test
 * re-execution filter (gold replay in Docker, as `chainswe validate`).
 */
import { Option, type Command } from "commander";
import { loadDataset } from "@/evaluator/dataset";
import { besideOutput, loadInstances, mine, OVERLAP_LEVELS, splitByVerdict, writeJsonl } from "@/evaluator/mining";
import { goldReplay } from "@/evaluator/replay/gold-run";
import { assertEngine, installSignalCleanup } from "@/evaluator/sandbox";
import { z } from "zod";
import { enumOption, intOption, parseOptions, readableDir, unreadable } from "./options";
import { progressReporter, stepProgress } from "./progress";

/** An instance file, optionally prefixed SOURCE= (a path that exists as written is taken whole). */
const instanceFile = z
  .string()
  .min(1)
  .superRefine((s, ctx) => {
    const problem = unreadable(s, "file") && unreadable(s.slice(s.indexOf("=") + 1), "file");
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

export const mineOptionsSchema = z.object({
  instances: z.array(instanceFile).min(1),
  repos: readableDir,
  out: z.string().min(1),
  maxLength: intOption(2),
  overlap: enumOption(OVERLAP_LEVELS),
  verify: z.string().min(1).optional(),
  concurrency: intOption(1),
});

/** Gold replay of the candidates just written; the file is then rewritten with the kept ones only. */
async function verify(out: string, runDir: string, concurrency: number): Promise<void> {
  const dataset = await loadDataset(out, { sharedInstances: true });
  await assertEngine();
  installSignalCleanup();
  const progress = progressReporter("re-execute");
  const verdicts = await goldReplay({ dataset, outDir: runDir, concurrency, chainIds: null, onEvent: progress.onEvent }).finally(() => progress.stop());
  const { kept, rejected } = splitByVerdict(dataset.chains, verdicts);
  await writeJsonl(out, kept);
  await writeJsonl(besideOutput(out, "rejected"), rejected);
  for (const r of rejected) process.stderr.write(`rejected ${r.continuous_id}\n${r.reasons.map((p) => `  ${p}`).join("\n")}\n`);
  process.stderr.write(`re-execution: ${kept.length} kept, ${rejected.length} rejected (gold run in ${runDir})\n`);
}

async function mineCommand(raw: Record<string, unknown>): Promise<void> {
  const opts = parseOptions("mine", mineOptionsSchema, raw);
  const { maxLength, concurrency } = opts;
  const instances = await loadInstances(opts.instances);
  const progress = stepProgress("mine");
  const result = await mine({ instances, reposDir: opts.repos, maxLength, level: opts.overlap, onProgress: progress.tick }).finally(() => progress.stop());
  await writeJsonl(opts.out, result.candidates);
  await writeJsonl(besideOutput(opts.out, "dropped"), result.dropped);
  const joins = (r: string) => result.links.filter((l) => l.reason === r).length;
  process.stderr.write(
    `${instances.length} instance(s): ${joins("successor")} successor join(s), ${joins("apply_check")} apply-check join(s); ` +
      `${result.candidates.length} candidate chain(s) in ${opts.out}, ${result.dropped.length} drop(s) in ${besideOutput(opts.out, "dropped")}\n`,
  );
  if (opts.verify) await verify(opts.out, opts.verify, concurrency);
}

export function registerMine(program: Command): void {
  program
    .command("mine")
    .description("candidate chains from instance files: join by git history, filter by code overlap, optionally re-execute (paper §3.2)")
    .requiredOption("--instances <files...>", "instance files (JSON or JSONL); prefix SOURCE= to name the source, e.g. SWE-Gym=gym.jsonl")
    .requiredOption("--repos <dir>", "git clones named owner__repo")
    .requiredOption("--out <file>", "candidate chains (JSONL); drops go to <file>.dropped.jsonl")
    .option("--max-length <n>", "longest window emitted", "5")
    .addOption(new Option("--overlap <level>", "what two bugs' gold patches must share: any modified file (the paper's filter), or a class or function").choices(OVERLAP_LEVELS).default("file"))
    .option("--verify <rundir>", "re-execute every candidate's gold replay in Docker (run kept in <rundir>); keep only chains that pass, rejections with reasons in <file>.rejected.jsonl")
    .option("--concurrency <n>", "chains replayed at once with --verify", "2")
    .action(mineCommand);
}
