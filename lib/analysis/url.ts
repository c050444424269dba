/**
 * The chain-error analysis page's view as URL parameters, and its schema
 * extended with `table` and `format` for its export route. Parsing is
 * lib/view-query.ts's.
 */
import { z } from "zod";
import { causeSchema, seqModeSchema } from "@/core/analysis";
import { FINGERPRINT_KEYS } from "@/lib/analysis/view";
import { bugWindowParams, formatParam, repeated, single, versionParam } from "@/lib/view-query";

export const analysisQuerySchema = z.object({
  version: versionParam,
  /** system ids; none = every system */
  system: repeated,
  mode: single(seqModeSchema.optional()),
  ...bugWindowParams,
  // these three narrow the list of chain errors only, not the breakdowns
  position: single(z.coerce.number().int().min(2).optional()),
  cause: single(causeSchema.optional()),
  fingerprint: single(z.enum(FINGERPRINT_KEYS).optional()),
});
export type AnalysisQuery = z.infer<typeof analysisQuerySchema>;

export const analysisExportQuerySchema = analysisQuerySchema.extend({
  table: single(z.enum(["positions", "systems", "errors"]).default("positions")),
  format: formatParam,
});
