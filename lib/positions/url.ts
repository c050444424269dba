/**
 * The per-position page's view as URL parameters, and its schema extended
 * with `table` and `format` for its export route. Parsing is lib/view-query.ts's.
 */
import { z } from "zod";
import { positionSetSchema } from "@/core/scoring";
import { bugWindowParams, formatParam, scoringParam, single, text, versionParam } from "@/lib/view-query";

export const positionsQuerySchema = z.object({
  version: versionParam,
  scoring: scoringParam,
  /** the paper's length-3 chains (default) or all chains */
  positions: single(positionSetSchema.default("length3")),
  ...bugWindowParams,
  /** restricts the by-model table to one configuration */
  config: single(text.optional()),
  /** restricts the by-configuration table to one model */
  model: single(text.optional()),
  /** `paper=1` also shows the paper's Tables 3 and 4 as printed (off by default; never mixed with evaluated rows) */
  paper: single(z.enum(["0", "1"]).optional()).transform((v) => v === "1"),
});
export type PositionsQuery = z.infer<typeof positionsQuerySchema>;

export const positionsExportQuerySchema = positionsQuerySchema.extend({
  table: single(z.enum(["by_config", "by_model", "reported_by_config", "reported_by_model"]).default("by_config")),
  format: formatParam,
});
