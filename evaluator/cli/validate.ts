import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Command } from "commander";
import { loadDataset } from "@/evaluator/dataset";
import { ERRORS_FILE, evaluate, readResults } from "@/evaluator/replay";
import { GOLD_SYSTEM, goldPredictions, validationVerdicts } from "@/evaluator/replay/gold";
import { assertEngine, defaultLimits, installSignalCleanup, wasInterrupted } from "@/evaluator/sandbox";
import { runErrorSchema, type RunError } from "@/lib/schemas/results";
import { progressReporter } from "./progress";

async function readErrors(dir: string): Promise<RunError[]> {
  const text = await readFile(join(dir, ERRORS_FILE), "utf8").catch(() => "");
  return text.split("\n").filter((l) => l.trim()).map((l) => runErrorSchema.parse(JSON.parse(l)));
}

export function registerValidate(program: Command): void {
  program
    .command("validate <dataset>")
    .description("gold replay: every bug of a valid chain must resolve with its gold patch")
    .option("--out <dir>", "where to keep the gold run (default: a temporary directory)")
    .option("--concurrency <n>", "chains replayed at once", "2")
    .option("--chains <ids>", "comma-separated chain ids (default: all)")
    .action(async (path: string, opts: { out?: string; concurrency: string; chains?: string }) => {
      const dataset = await loadDataset(path);
      for (const w of dataset.warnings) process.stderr.write(`warning: ${w}\n`);
      await assertEngine();
      installSignalCleanup();
      const out = opts.out ?? (await mkdtemp(join(tmpdir(), "chainswe-validate-")));
      const chainIds = opts.chains ? opts.chains.split(",").map((s) => s.trim()) : null;
      const progress = progressReporter("validate");
      await evaluate({
        dataset,
        predictions: goldPredictions(dataset),
        mode: "oracle",
        outDir: out,
        system: GOLD_SYSTEM,
        concurrency: Number(opts.concurrency),
        chainIds,
        limits: defaultLimits(),
        onEvent: progress.onEvent,
      }).finally(() => progress.stop());
      const ids = chainIds ?? dataset.chains.map((c) => c.continuous_id);
      const verdicts = validationVerdicts(ids, await readResults(out), await readErrors(out));
      const failing = verdicts.filter((v) => !v.ok);
      for (const v of failing) process.stdout.write(`FAIL ${v.continuous_id}\n${v.problems.map((p) => `  ${p}`).join("\n")}\n`);
      process.stdout.write(`${ids.length - failing.length}/${ids.length} chain(s) valid (gold run in ${out})\n`);
      if (failing.length && !wasInterrupted()) process.exitCode = 1;
    });
}
