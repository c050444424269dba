/**
 * `chainswe aggregates refresh [--submission ID]`: recomputes the stored scores
 * and chain-error analyses (lib/leaderboard/aggregates.ts) of every completed
 * submission, or of one — after an upgrade changes a formula, or when the
 * worker could not store them.
 */
import type { Command } from "commander";
import { z } from "zod";
import { parseOptions, UsageError } from "./options";

export const refreshOptionsSchema = z.object({ submission: z.string().trim().min(1).optional() });

export function registerAggregates(program: Command): void {
  program
    .command("aggregates")
    .description("the scores and analyses stored when evaluations complete (the portal's database)")
    .command("refresh")
    .description("recompute them for every completed submission (or one)")
    .option("--submission <id>", "only this submission (and the analyses it takes part in)")
    .action(async (raw: Record<string, unknown>) => {
      const opts = parseOptions("aggregates refresh", refreshOptionsSchema, raw);
      const { refreshAggregates, refreshAllAggregates } = await import("@/lib/leaderboard/aggregates");
      if (opts.submission) {
        const r = await refreshAggregates(opts.submission);
        if (!r.scored) throw new UsageError("aggregates refresh", [{ field: "--submission", message: `${opts.submission} is unknown or not completed` }]);
        process.stderr.write(`scores stored; ${r.analyses} chain-error analysis(es)\n`);
        return;
      }
      const n = await refreshAllAggregates((line) => process.stderr.write(`${line}\n`));
      process.stderr.write(`refreshed ${n} completed submission(s)\n`);
    });
}
