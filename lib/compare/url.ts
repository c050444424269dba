/**
 * The comparison page's view as URL parameters, and its schema extended with
 * `table` and `format` for its export route. Parsing is lib/view-query.ts's.
 */
import { z } from "zod";
import { formatParam, scoringParam, single, text, versionParam } from "@/lib/view-query";

export const compareQuerySchema = z.object({
  version: versionParam,
  /** submission ids */
  a: single(text.optional()),
  b: single(text.optional()),
  scoring: scoringParam,
});
export type CompareQuery = z.infer<typeof compareQuerySchema>;

export const compareExportQuerySchema = compareQuerySchema.extend({
  table: single(z.enum(["difference", "chains", "systems"]).default("systems")),
  format: formatParam,
});
