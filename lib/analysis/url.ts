/**
 * The analysis pages' views as URL parameters: per
 * position, chain errors and the comparison, each page's schema extended with
 * `table` and `format` for its export route. Parsing is lib/view-query.ts's.
 */
import { z } from "zod";
import { causeSchema, seqModeSchema } from "@/evaluator/analysis";
import { positionSetSchema } from "@/evaluator/scoring";
import { FINGERPRINT_KEYS } from "@/lib/analysis/view";
import { formatParam, repeated, scoringParam, single, text, versionParam } from "@/lib/view-query";

export const positionsQuerySchema = z.object({
  version: versionParam,
  scoring: scoringParam,
  /** the paper's length-3 chains (default) or all chains */
  positions: single(positionSetSchema.default("length3")),
  /** restricts the by-model table to one configuration */
  config: single(text.optional()),
  /** restricts the by-configuration table to one model */
  model: single(text.optional()),
  /** `paper=1` also shows the paper's Tables 3 and 4 as printed (off by default; never mixed with evaluated rows) */
  paper: single(z.enum(["0", "1"]).optional()).transform((v) => v === "1"),
});
export type PositionsQuery = z.infer<typeof positionsQuerySchema>;

export const analysisQuerySchema = z.object({
  version: versionParam,
  /** system ids; none = every system */
  system: repeated,
  mode: single(seqModeSchema.optional()),
  // these three narrow the list of chain errors only, not the breakdowns
  position: single(z.coerce.number().int().min(2).optional()),
  cause: single(causeSchema.optional()),
  fingerprint: single(z.enum(FINGERPRINT_KEYS).optional()),
});
export type AnalysisQuery = z.infer<typeof analysisQuerySchema>;

export const compareQuerySchema = z.object({
  version: versionParam,
  /** submission ids */
  a: single(text.optional()),
  b: single(text.optional()),
  scoring: scoringParam,
});
export type CompareQuery = z.infer<typeof compareQuerySchema>;

export const positionsExportQuerySchema = positionsQuerySchema.extend({
  table: single(z.enum(["by_config", "by_model", "reported_by_config", "reported_by_model"]).default("by_config")),
  format: formatParam,
});
export const analysisExportQuerySchema = analysisQuerySchema.extend({
  table: single(z.enum(["positions", "systems", "errors"]).default("positions")),
  format: formatParam,
});
export const compareExportQuerySchema = compareQuerySchema.extend({
  table: single(z.enum(["difference", "chains", "systems"]).default("systems")),
  format: formatParam,
});
