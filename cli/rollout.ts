/**
 * `chainswe rollout`: runs a team's agent through a dataset's chains under
 * exactly the protocol the evaluator grades (docs/ROLLOUT.md) and writes the
 * predictions JSONL plus a trajectory per bug. Exit codes: 0 every chain rolled
 * out; 1 some chain had a dataset or environment error; 2 bad options.
 */
import { existsSync } from "node:fs";
import type { Command } from "commander";
import { z } from "zod";
import { env } from "@/env";
import { loadDataset } from "@/evaluator/dataset";
import { predictionLimitsFromEnv } from "@/evaluator/dataset/predictions";
import { rollout } from "@/evaluator/rollout";
import { assertEngine, defaultLimits, installSignalCleanup, wasInterrupted } from "@/evaluator/sandbox";
import { chainIdsOption, intOption, modeOption, parseOptions, positiveOption, readableFile, UsageError } from "./options";

export const rolloutOptionsSchema = z.object({
  dataset: readableFile,
  mode: modeOption,
  agent: z.string().trim().min(1, "give the agent's shell command"),
  out: z
    .string()
    .min(1)
    .refine((p) => !existsSync(p), "already exists; give a new file (a rollout is not resumed)"),
  system: z.string().trim().min(1).optional(),
  timeLimit: positiveOption,
  trajectories: z.string().min(1).optional(),
  chains: chainIdsOption,
  concurrency: intOption(1),
});
export type RolloutCliOptions = z.infer<typeof rolloutOptionsSchema>;

/** Options parsed, or an InputError naming every bad option. */
export function parseRolloutOptions(raw: Record<string, unknown>): RolloutCliOptions {
  return parseOptions("rollout", rolloutOptionsSchema, raw);
}

const withoutJsonl = (p: string) => p.replace(/\.jsonl?$/, "");

export function registerRollout(program: Command): void {
  program
    .command("rollout")
    .description("run an agent through every chain as the evaluator grades it (Oracle from G(k-1), Seq from A(k-1)); write predictions")
    .requiredOption("--dataset <file>", "dataset (JSON array or JSONL)")
    .requiredOption("--mode <mode>", "oracle | seq | seq_mem")
    .requiredOption("--agent <command>", "the agent: a shell command run on this machine once per bug (docs/ROLLOUT.md)")
    .requiredOption("--out <file>", "predictions JSONL to write (must not exist)")
    .option("--system <name>", "model_name_or_path of the predictions (default: --out's file name)")
    .option("--time-limit <seconds>", "wall-clock limit of one agent turn", "1800")
    .option("--trajectories <dir>", "per-bug agent logs and outcomes (default: <out>.trajectories/)")
    .option("--chains <ids>", "comma-separated chain ids (default: all)")
    .option("--concurrency <n>", "chains rolled out at once", "1")
    .action(async (raw: Record<string, unknown>) => {
      const opts = parseRolloutOptions(raw);
      const dataset = await loadDataset(opts.dataset);
      for (const w of dataset.warnings) process.stderr.write(`warning: ${w}\n`);
      const known = new Map(dataset.chains.map((c) => [c.continuous_id, c]));
      const unknown = (opts.chains ?? []).filter((id) => !known.has(id));
      if (unknown.length) throw new UsageError("rollout", [{ field: "--chains", message: `unknown chain id(s): ${unknown.join(", ")}` }]);
      await assertEngine();
      installSignalCleanup();
      const system = opts.system ?? withoutJsonl(opts.out.split("/").pop()!);
      const trajectoriesDir = opts.trajectories ?? `${withoutJsonl(opts.out)}.trajectories`;
      const line = (s: string) => process.stderr.write(`${system} ${opts.mode}: ${s}\n`);
      const summary = await rollout({
        dataset,
        mode: opts.mode,
        agentCommand: opts.agent,
        system,
        out: opts.out,
        trajectoriesDir,
        timeLimitS: opts.timeLimit,
        chains: opts.chains ? opts.chains.map((id) => known.get(id)!) : dataset.chains,
        concurrency: opts.concurrency,
        limits: defaultLimits(),
        // a patch file the portal would refuse is refused here, not at submission
        maxPatchBytes: predictionLimitsFromEnv(env()).maxPatchBytes,
        onEvent: (e) => {
          if (e.kind === "bug") line(`${e.chain.continuous_id}#${e.rolled.bug.order} ${e.rolled.outcome.timedOut ? "timed out" : `exit ${e.rolled.outcome.exitCode}`}${e.rolled.warnings.map((w) => `; ${w}`).join("")}`);
          else if (e.kind === "chain_error") line(`${e.chain.continuous_id}: error: ${e.error.message.split("\n")[0]}`);
        },
      });
      process.stdout.write(
        `${system} ${opts.mode}: ${summary.bugs} bug(s) in ${summary.chains} chain(s) rolled out (${summary.emptyPatches} empty patch(es), ${summary.timedOut} timed out); ` +
          `${summary.chainsFailed} chain(s) with errors; predictions in ${opts.out}, trajectories in ${trajectoriesDir}\n`,
      );
      if (summary.chainsFailed > 0 && !wasInterrupted()) process.exitCode = 1;
    });
}
