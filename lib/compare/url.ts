/**
 * The comparison page's view as URL parameters, and its schema extended with
 * `table` and `format` for its export route. Parsing is lib/view-query.ts's.
 */
import { z } from "zod";
import { effortKindSchema } from "@/core/scoring/budget";
import { formatParam, scoringParam, single, text, versionParam } from "@/lib/view-query";

export const compareQuerySchema = z.object({
  version: versionParam,
  /** submission ids */
  a: single(text.optional()),
  b: single(text.optional()),
  scoring: scoringParam,
  /** the per-bug effort the budget curves cap */
  effort: single(effortKindSchema.default("cost_usd")),
});
export type CompareQuery = z.infer<typeof compareQuerySchema>;

export const compareExportQuerySchema = compareQuerySchema.extend({
  table: single(z.enum(["difference", "chains", "systems", "budget"]).default("systems")),
  format: formatParam,
});
