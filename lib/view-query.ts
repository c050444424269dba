/**
 * A page's view held in its URL, both ways, for the leaderboard and the
 * analysis pages (per position, chain errors, comparison) and the API routes
 * that export them: the parameter kinds their zod schemas are made of, reading
 * search params into a schema's query, and writing a query back as a link.
 * Pure and client-safe (the leaderboard's controls parse on the client).
 *
 * Every parameter but a repeatable one takes its first value; "" (a form's
 * "any") is the same as a missing parameter.
 */
import { z } from "zod";
import { scoringSchema } from "@/core/scoring/schemas";
import { bugWindowSchema, type BugWindow } from "@/core/scoring/window";
import { FieldError } from "@/core/errors";

/** URL search params (an API route) or a page's searchParams. */
export type RawParams = URLSearchParams | Record<string, string | string[] | undefined>;
export type QueryProblem = { field: string; message: string };

const first = (v: unknown) => (Array.isArray(v) ? v[0] : v);

/** A one-value parameter. */
export const single = <S extends z.ZodType>(schema: S) => z.preprocess((v) => (first(v) === "" ? undefined : first(v)), schema);

/** A repeatable parameter (`?system=a&system=b`). */
export const repeated = z.preprocess(
  (v) => (v === undefined ? [] : (Array.isArray(v) ? v : [v]).filter((x) => x !== "")),
  z.array(z.string().trim().min(1)).max(100),
);

/** A name or id as typed: a dataset version, a configuration, a model, a submission. */
export const text = z.string().trim().min(1).max(200);

/** `1`/`0`, `true`/`false`, `on`/`off`… */
export const flag = z.stringbool();

/** A dataset version; absent = the newest. */
export const versionParam = single(text.optional());
/** Strict (a Seq bug counts only if every earlier bug of its chain was resolved) or lenient. */
export const scoringParam = single(scoringSchema.default("strict"));
/** The bug-date window (SPEC §7): chains whose bugs are all dated on or after `bug_from` and on or before `bug_until` (UTC days). */
export const bugWindowParams = {
  bug_from: single(bugWindowSchema.shape.from),
  bug_until: single(bugWindowSchema.shape.until),
};
export const bugWindowOf = (q: { bug_from?: string; bug_until?: string }): BugWindow => ({
  ...(q.bug_from ? { from: q.bug_from } : {}),
  ...(q.bug_until ? { until: q.bug_until } : {}),
});

/** An export's format. */
export const formatParam = single(z.enum(["json", "csv"]).default("json"));

/** The params as one record: a parameter given once is a string, one given more often the list of its values. */
function paramsRecord(params: RawParams): Record<string, string | string[]> {
  const raw: Record<string, string | string[]> = {};
  if (params instanceof URLSearchParams) {
    for (const k of new Set(params.keys())) {
      const all = params.getAll(k);
      raw[k] = all.length === 1 ? (all[0] as string) : all;
    }
  } else for (const [k, v] of Object.entries(params)) if (v !== undefined) raw[k] = v;
  return raw;
}

/**
 * The query, every bad value reported and left at its default (the leaderboard
 * says so and shows the rest).
 */
export function parseViewQuery<S extends z.ZodType>(schema: S, params: RawParams): { query: z.infer<S>; problems: QueryProblem[] } {
  const raw: Record<string, unknown> = paramsRecord(params);
  const problems: QueryProblem[] = [];
  for (;;) {
    const parsed = schema.safeParse(raw);
    if (parsed.success) return { query: parsed.data, problems };
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? "");
      problems.push({ field, message: issue.message });
      delete raw[field];
    }
  }
}

/** The query; a bad value is a FieldError naming it (an API route answers 400, an analysis page shows its default view). */
export function parseQuery<S extends z.ZodType>(schema: S, params: RawParams): z.infer<S> {
  const parsed = schema.safeParse(paramsRecord(params));
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new FieldError(String(issue.path[0] ?? ""), issue.message);
}

/** A path with query parameters; missing and empty values left out, arrays repeated (`?system=a&system=b`). */
export function hrefWith(path: string, params: Record<string, string | number | readonly string[] | null | undefined>, hash = ""): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === null || v === undefined || v === "") continue;
    if (Array.isArray(v)) for (const x of v as readonly string[]) q.append(k, x);
    else q.set(k, String(v));
  }
  const s = q.toString();
  return `${path}${s ? `?${s}` : ""}${hash ? `#${hash}` : ""}`;
}
