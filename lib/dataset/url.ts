/**
 * The dataset pages' and exports' queries from the URL, made of the same
 * parameter kinds as every other view (lib/view-query.ts): a page drops a bad
 * value (its default stands), an export refuses it naming the parameter.
 */
import { z } from "zod";
import { positionSetSchema } from "@/core/scoring";
import { modeSchema } from "@/core/schemas/prediction";
import { formatParam, scoringParam, single } from "@/lib/view-query";

/** /dataset and GET /api/v1/dataset */
export const datasetIndexQuerySchema = z.object({
  format: formatParam,
  table: single(z.enum(["versions", "repositories"]).default("versions")),
});

/** /dataset/[version] and GET /api/v1/dataset/[version] */
export const datasetVersionQuerySchema = z.object({
  format: formatParam,
  table: single(z.enum(["chains", "positions"]).default("chains")),
  positions: single(positionSetSchema.default("length3")),
  /** only the chains of one repository (owner/name) */
  repo: single(z.string().trim().min(1).optional()),
});
export type DatasetVersionQuery = z.infer<typeof datasetVersionQuerySchema>;

/** /dataset/[version]: its tables' query, and its discrimination section's scoring and mode (absent: the mode with the most rows) */
export const datasetVersionPageQuerySchema = datasetVersionQuerySchema.extend({ scoring: scoringParam, mode: single(modeSchema.optional()) });

/** GET /api/v1/dataset/[version]/chains/[chain] */
export const datasetChainQuerySchema = z.object({ format: formatParam });

/** GET /api/v1/dataset/[version]/discrimination */
export const discriminationQuerySchema = z.object({
  format: formatParam,
  table: single(z.enum(["chains", "bugs"]).default("chains")),
  scoring: scoringParam,
  /** absent: the mode with the most rows */
  mode: single(modeSchema.optional()),
});

/** A version's page, with its query. */
export const datasetHref = (version: string, query: Record<string, string | undefined> = {}) => {
  const params = new URLSearchParams(Object.entries(query).filter((e): e is [string, string] => e[1] !== undefined));
  const qs = params.toString();
  return `/dataset/${encodeURIComponent(version)}${qs ? `?${qs}` : ""}`;
};

/** A chain's page in a version. */
export const chainHref = (version: string, chain: string) => `/dataset/${encodeURIComponent(version)}/chains/${encodeURIComponent(chain)}`;
