/**
 * `chainswe cleanup [--keep-days N]`: deletes the stored data of submissions
 * cancelled more than N days ago (default CHAINSWE_CANCELLED_KEEP_DAYS), each
 * with an audit row (lib/submissions/removal.ts). The site does the same
 * hourly; this is for a cron job, or a site that is not running.
 */
import type { Command } from "commander";
import { z } from "zod";
import { env } from "@/env";
import { parseOptions } from "./options";

export const cleanupOptionsSchema = z.object({ keepDays: z.coerce.number().int().nonnegative().optional() });

export function registerCleanup(program: Command): void {
  program
    .command("cleanup")
    .description("delete the stored data of submissions cancelled long enough ago (the portal's database); their audit rows stay")
    .option("--keep-days <n>", "keep those cancelled in the last N days (default CHAINSWE_CANCELLED_KEEP_DAYS, 7)")
    .action(async (raw: Record<string, unknown>) => {
      const opts = parseOptions("cleanup", cleanupOptionsSchema, raw);
      const { purgeCancelledSubmissions } = await import("@/lib/submissions/removal");
      const n = await purgeCancelledSubmissions(opts.keepDays ?? env().CHAINSWE_CANCELLED_KEEP_DAYS);
      process.stderr.write(`deleted ${n} cancelled submission(s)\n`);
    });
}
