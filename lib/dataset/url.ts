/**
 * The dataset pages' and exports' queries from the URL: a page answers a
 * malformed one with the defaults, an export refuses it naming the parameter.
 */
import { z } from "zod";
import { FieldError } from "@/lib/errors";
import { positionSetSchema } from "@/evaluator/scoring";
import { exportFormatSchema } from "@/lib/dataset/export";

/** /dataset and GET /api/v1/dataset */
export const datasetIndexQuerySchema = z.object({
  format: exportFormatSchema,
  table: z.enum(["versions", "repositories"]).default("versions"),
});

/** /dataset/[version] and GET /api/v1/dataset/[version] */
export const datasetVersionQuerySchema = z.object({
  format: exportFormatSchema,
  table: z.enum(["chains", "positions"]).default("chains"),
  positions: positionSetSchema.default("length3"),
  /** only the chains of one repository (owner/name) */
  repo: z.string().trim().min(1).optional(),
});
export type DatasetVersionQuery = z.infer<typeof datasetVersionQuerySchema>;

/** A query from the URL; a malformed one is answered with the defaults (pages) — exports refuse it instead. */
export function pageQuery<S extends z.ZodType>(schema: S, params: Record<string, string | string[] | undefined>): z.output<S> {
  const parsed = schema.safeParse(searchParamsObject(params));
  return parsed.success ? parsed.data : schema.parse({});
}

/** GET /api/v1/dataset/[version]/chains/[chain] */
export const datasetChainQuerySchema = z.object({ format: exportFormatSchema });

/** An export's query; a malformed one is refused (400) naming the parameter. */
export function exportQuery<S extends z.ZodType>(schema: S, params: URLSearchParams): z.output<S> {
  const parsed = schema.safeParse(searchParamsObject(params));
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new FieldError(String(issue?.path[0] ?? "query"), issue?.message ?? "invalid query");
}

/** The URL's search params as a plain object for a query schema (first value of repeated keys). */
export function searchParamsObject(params: URLSearchParams | Record<string, string | string[] | undefined>): Record<string, string> {
  const entries = params instanceof URLSearchParams ? [...params.entries()] : Object.entries(params);
  const out: Record<string, string> = {};
  for (const [k, v] of entries) {
    const value = Array.isArray(v) ? v[0] : v;
    if (value !== undefined && !(k in out)) out[k] = value;
  }
  return out;
}
