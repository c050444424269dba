import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Command } from "commander";
import { loadDataset } from "@/evaluator/dataset";
import { goldReplay } from "@/evaluator/replay/gold-run";
import { assertEngine, installSignalCleanup, wasInterrupted } from "@/evaluator/sandbox";
import { z } from "zod";
import { chainIdsOption, intOption, parseOptions, readableFile } from "./options";
import { progressReporter } from "./progress";

export const validateOptionsSchema = z.object({
  dataset: readableFile,
  out: z.string().min(1).optional(),
  concurrency: intOption(1),
  chains: chainIdsOption,
});

export function registerValidate(program: Command): void {
  program
    .command("validate <dataset>")
    .description("gold replay: every bug of a valid chain must resolve with its gold patch")
    .option("--out <dir>", "where to keep the gold run (default: a temporary directory)")
    .option("--concurrency <n>", "chains replayed at once", "2")
    .option("--chains <ids>", "comma-separated chain ids (default: all)")
    .action(async (path: string, raw: Record<string, unknown>) => {
      const opts = parseOptions("validate", validateOptionsSchema, { ...raw, dataset: path }, ["dataset"]);
      const dataset = await loadDataset(opts.dataset);
      for (const w of dataset.warnings) process.stderr.write(`warning: ${w}\n`);
      await assertEngine();
      installSignalCleanup();
      const out = opts.out ?? (await mkdtemp(join(tmpdir(), "chainswe-validate-")));
      const chainIds = opts.chains;
      const progress = progressReporter("validate");
      const verdicts = await goldReplay({ dataset, outDir: out, concurrency: opts.concurrency, chainIds, onEvent: progress.onEvent }).finally(() =>
        progress.stop(),
      );
      const failing = verdicts.filter((v) => !v.ok);
      for (const v of failing) process.stdout.write(`FAIL ${v.continuous_id}\n${v.problems.map((p) => `  ${p}`).join("\n")}\n`);
      process.stdout.write(`${verdicts.length - failing.length}/${verdicts.length} chain(s) valid (gold run in ${out})\n`);
      if (failing.length && !wasInterrupted()) process.exitCode = 1;
    });
}
