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
import { MINI_METHOD, miniProblem, miniRows, miniSplit } from "@/core/dataset/mini";
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
  mini: z.coerce.number({ error: "must be a number of chains" }).int("must be a whole number of chains").positive("must be at least 1").optional(),
  runs: z.array(readableDir).optional(),
});
type SelectOptions = z.infer<typeof selectOptionsSchema>;

async function selectCommand(candidatesArg: string, raw: Record<string, unknown>): Promise<void> {
  const opts = parseOptions("select", selectOptionsSchema, { ...raw, candidates: candidatesArg }, ["candidates"]);
  if (opts.mini !== undefined) return selectMini(opts, opts.mini);
  if (opts.runs) throw new UsageError("select", [{ field: "--runs", message: "only with --mini (the rows a Mini split keeps the order of)" }]);
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

/**
 * `select <version> --mini N --runs DIR…`: the version's Mini split (SPEC §8), the
 * subset the portal computes over its published rows, here over the runs given
 * (evaluation directories or extracted bundles; runs of one system and mode form one row).
 */
async function selectMini(opts: SelectOptions, size: number): Promise<void> {
  const usage = (field: string, message: string) => new UsageError("select", [{ field, message }]);
  if (opts.oracle) throw usage("--oracle", "not with --mini: a Mini split is drawn from a version, not from candidates");
  if (!opts.runs?.length) throw usage("--runs", "required with --mini: the evaluation directories (or extracted bundles) of the rows to keep the order of");
  const dataset = await loadDataset(opts.candidates);
  const lengths = new Map(dataset.chains.map((c) => [c.continuous_id, c.bug_fixes.length]));
  const runs = [];
  for (const dir of opts.runs) {
    const bugs = await readResults(dir);
    if (bugs.length === 0) throw usage("--runs", `${dir}: no results.jsonl with graded bugs`);
    const stranger = bugs.find((b) => !lengths.has(b.continuous_id));
    if (stranger) throw usage("--runs", `${dir}: chain ${stranger.continuous_id} is not in ${opts.candidates}`);
    const resolved = new Set(bugs.filter((b) => b.resolved).map((b) => `${b.continuous_id}\0${b.order}`));
    const solved = [...lengths].filter(([id, n]) => Array.from({ length: n }, (_, i) => resolved.has(`${id}\0${i + 1}`)).every(Boolean)).map(([id]) => id);
    runs.push({ row: `${bugs[0]!.system}/${bugs[0]!.mode}`, solved });
  }
  const chains = dataset.chains.map((c) => c.continuous_id);
  const rows = miniRows(runs);
  const problem = miniProblem(chains, rows, size);
  if (problem) throw usage("--mini", problem);
  const mini = miniSplit(chains, rows, size);
  const keep = new Set(mini.chains);
  await writeJsonl(opts.out, dataset.chains.filter((c) => keep.has(c.continuous_id)));
  process.stderr.write(`Mini split: ${mini.size} of ${chains.length} chain(s) into ${opts.out}, over ${mini.rows} row(s)\n`);
  process.stdout.write(`tau_b\t${mini.tau === null ? "undefined" : mini.tau.toFixed(4)}\nmethod\t${MINI_METHOD}\n${mini.steps.map((s, i) => `${i + 1}\t${s.chain}\t${s.tau === null ? "undefined" : s.tau.toFixed(4)}`).join("\n")}\n`);
}

export function registerSelect(program: Command): void {
  program
    .command("select <candidates>")
    .description("a dataset version from verified candidates: drop length-2 chains, optional Oracle difficulty filter, no shared instances (paper §3.3)")
    .requiredOption("--out <file>", "the dataset version (JSONL)")
    .option("--oracle <dir>", "an Oracle evaluation directory (chainswe evaluate --out): keep chains with at least ⌊k/2⌋+1 of k bugs resolved")
    .option("--mini <n>", "instead: the version's Mini split of n chains, keeping the order of the rows in --runs (SPEC §8)")
    .option("--runs <dir...>", "with --mini: evaluation directories or extracted bundles, one per run; runs of one system and mode form one row")
    .action(selectCommand);
}
