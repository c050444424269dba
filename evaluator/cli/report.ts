import type { Command } from "commander";
import { buildReport, formatReportTables } from "@/evaluator/analysis/report";
import { loadRunResults } from "@/evaluator/replay";
import { positionSetSchema } from "@/evaluator/scoring/schemas";

export function registerReport(program: Command): void {
  program
    .command("report <dirs...>")
    .description("scores, per-position tables and chain-error analysis for evaluation directories")
    .option("--json", "print the machine-readable report (SPEC §5)")
    .option("--positions <set>", "per-position chains: length3 | all", "length3")
    .option("--seed <n>", "bootstrap seed", "0")
    .action(async (dirs: string[], opts: { json?: boolean; positions: string; seed: string }) => {
      const runs = await Promise.all(dirs.map(loadRunResults));
      const report = buildReport(runs, { positions: positionSetSchema.parse(opts.positions), seed: Number(opts.seed) });
      process.stdout.write(opts.json ? `${JSON.stringify(report, null, 2)}\n` : `${formatReportTables(report)}\n`);
    });
}
