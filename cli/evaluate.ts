import { basename } from "node:path";
import type { Command } from "commander";
import { loadDataset, loadPredictions } from "@/evaluator/dataset";
import { evaluate } from "@/evaluator/replay";
import { assertEngine, defaultLimits, installSignalCleanup, wasInterrupted } from "@/evaluator/sandbox";
import { z } from "zod";
import { testEditPolicySchema } from "@/core/schemas/manifest";
import { chainIdsOption, intOption, modeOption, parseOptions, positiveOption, readableFile } from "./options";
import { progressReporter } from "./progress";

export const evaluateOptionsSchema = z.object({
  dataset: readableFile,
  predictions: readableFile,
  mode: modeOption,
  out: z.string().min(1),
  concurrency: intOption(1),
  chains: chainIdsOption,
  system: z.string().trim().min(1).optional(),
  timeout: positiveOption.optional(),
  testEdits: testEditPolicySchema.default("keep"),
});

export function registerEvaluate(program: Command): void {
  program
    .command("evaluate")
    .description("replay a submission's predictions chain by chain and grade every bug")
    .requiredOption("--dataset <file>", "dataset (JSON array or JSONL)")
    .requiredOption("--predictions <file>", "predictions JSONL")
    .requiredOption("--mode <mode>", "oracle | seq | seq_mem")
    .requiredOption("--out <dir>", "evaluation directory (re-running resumes)")
    .option("--concurrency <n>", "chains replayed at once", "2")
    .option("--chains <ids>", "comma-separated chain ids (default: all)")
    .option("--system <name>", "system name (default: model_name_or_path of the predictions)")
    .option("--timeout <seconds>", "wall-clock limit per test command")
    .option("--test-edits <policy>", "keep | strip | flag: strip drops a model patch's test edits before it is applied (SPEC §7)", "keep")
    .action(async (raw: Record<string, unknown>) => {
      const opts = parseOptions("evaluate", evaluateOptionsSchema, raw);
      const mode = opts.mode;
      const dataset = await loadDataset(opts.dataset);
      const predictions = await loadPredictions(opts.predictions, dataset.chains);
      for (const w of [...dataset.warnings, ...predictions.warnings]) process.stderr.write(`warning: ${w}\n`);
      await assertEngine();
      installSignalCleanup();
      const system = opts.system ?? predictions.system ?? basename(opts.predictions).replace(/\.jsonl?$/, "");
      const progress = progressReporter(`${system} ${mode}`);
      const summary = await evaluate({
        dataset,
        predictions,
        mode,
        outDir: opts.out,
        system,
        concurrency: opts.concurrency,
        chainIds: opts.chains,
        limits: defaultLimits(opts.timeout ? { testTimeoutS: opts.timeout } : {}),
        testEdits: opts.testEdits,
        onEvent: progress.onEvent,
      }).finally(() => progress.stop());
      process.stdout.write(
        `${system} ${mode}: ${summary.bugs_resolved}/${summary.bugs_graded} bugs resolved in ${summary.chains_graded} chain(s); ` +
          `${summary.chains_failed} chain(s) with errors; results in ${opts.out}\n`,
      );
      if (summary.chains_failed > 0 && !wasInterrupted()) process.exitCode = 1;
    });
}
