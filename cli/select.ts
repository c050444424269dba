/**
 * `chainswe select`: a dataset version from verified candidates (paper §3.3): no
 * length-2 chains, optionally only chains Oracle mostly solved, no instance twice;
 * prints the statistics the portal shows (Tables 7 and 9).
 */
import { writeFile } from "node:fs/promises";
import type { Command } from "commander";
import { loadDataset } from "@/evaluator/dataset";
import { besideOutput, selectChains, writeJsonl } from "@/evaluator/mining";
import { readResults } from "@/evaluator/replay";
import { datasetStats } from "@/core/dataset/stats";
import { z } from "zod";
import { parseOptions, readableDir, readableFile, UsageError } from "./options";
import type { DatasetStats } from "@/core/schemas/columns";

export function formatStats(s: DatasetStats): string {
  const lines = [
    `${s.chains} chains, ${s.bugs} bugs, ${s.repos} repositories, average length ${s.avg_length ?? "?"}`,
    `dates: ${s.date_span ? `${s.date_span.from} .. ${s.date_span.to}` : "none"}`,
    "",
    "source\tchains\tbugs",
    ...(s.by_source ?? []).map((r) => `${r.source}\t${r.chains}\t${r.bugs}`),
    "",
    "repository\tchains\tbugs",
    ...(s.by_repo ?? []).map((r) => `${r.repo}\t${r.chains}\t${r.bugs}`),
  ];
  return lines.join("\n") + "\n";
}

export const selectOptionsSchema = z.object({
  candidates: readableFile,
  out: z.string().min(1),
  oracle: readableDir.optional(),
});

async function selectCommand(candidatesArg: string, raw: Record<string, unknown>): Promise<void> {
  const opts = parseOptions("select", selectOptionsSchema, { ...raw, candidates: candidatesArg }, ["candidates"]);
  const dataset = await loadDataset(opts.candidates, { sharedInstances: true });
  const oracle = opts.oracle ? await readResults(opts.oracle) : undefined;
  // checked before anything is written: a bad --oracle leaves no output behind (exit 2)
  const badOracle = (message: string) => new UsageError("select", [{ field: "--oracle", message: `${opts.oracle}: ${message}` }]);
  if (oracle && oracle.length === 0) throw badOracle("no results.jsonl with graded bugs (an Oracle `chainswe evaluate --out` directory)");
  const other = oracle?.find((b) => b.mode !== "oracle");
  if (other) throw badOracle(`not an Oracle run (mode ${other.mode})`);
  const { selected, dropped } = selectChains(dataset.chains, { oracle });
  await writeJsonl(opts.out, selected);
  await writeJsonl(besideOutput(opts.out, "dropped"), dropped);
  // the version's statistics as data too: the same object `dataset import` stores for /dataset
  const stats = datasetStats(selected);
  const statsPath = opts.out.replace(/(\.jsonl?)?$/, ".stats.json");
  await writeFile(statsPath, `${JSON.stringify(stats, null, 2)}\n`);
  process.stderr.write(`selected ${selected.length} of ${dataset.chains.length} chain(s) into ${opts.out}; reasons for the rest in ${besideOutput(opts.out, "dropped")}; statistics in ${statsPath}\n`);
  process.stdout.write(formatStats(stats));
}

export function registerSelect(program: Command): void {
  program
    .command("select <candidates>")
    .description("a dataset version from verified candidates: drop length-2 chains, optional Oracle difficulty filter, no shared instances (paper §3.3)")
    .requiredOption("--out <file>", "the dataset version (JSONL)")
    .option("--oracle <dir>", "an Oracle evaluation directory (chainswe evaluate --out): keep chains with at least ⌊k/2⌋+1 of k bugs resolved")
    .action(selectCommand);
}
