import type { Command } from "commander";
import { buildReport } from "@/core/analysis/report";
import { formatReportTables } from "@/core/analysis/report-text";
import { loadRunResults } from "@/evaluator/replay";
import { POSITION_SETS } from "@/core/scoring/outcomes";
import { z } from "zod";
import { enumOption, intOption, parseOptions, runDir, UsageError } from "./options";

export const reportOptionsSchema = z.object({
  dirs: z.array(runDir).min(1),
  json: z.boolean().optional(),
  positions: enumOption(POSITION_SETS),
  seed: intOption(0),
});

export function registerReport(program: Command): void {
  program
    .command("report <dirs...>")
    .description("scores, per-position tables and chain-error analysis for evaluation directories")
    .option("--json", "print the machine-readable report (SPEC §5)")
    .option("--positions <set>", "per-position chains: length3 | all", "length3")
    .option("--seed <n>", "bootstrap seed", "0")
    .action(async (dirs: string[], raw: Record<string, unknown>) => {
      const opts = parseOptions("report", reportOptionsSchema, { ...raw, dirs }, ["dirs"]);
      const runs = await Promise.all(opts.dirs.map(loadRunResults));
      let report;
      try {
        report = buildReport(runs, { positions: opts.positions, seed: opts.seed });
      } catch (e) {
        // the directories given do not make one report (two runs of one system and mode): the user's to fix
        if (e instanceof RangeError) throw new UsageError("report", [{ field: "<dirs>", message: e.message }]);
        throw e;
      }
      process.stdout.write(opts.json ? `${JSON.stringify(report, null, 2)}\n` : `${formatReportTables(report)}\n`);
    });
}
