/**
 * The leaderboard's view as URL parameters: one zod
 * schema shared by the page, its controls and GET /api/v1/leaderboard, and the
 * canonical URL of a view (defaults left out). Parsing is lib/view-query.ts's.
 */
import { z } from "zod";
import { modeSchema } from "@/core/schemas/prediction";
import { splitSchema } from "@/core/schemas/columns";
import { asOfSchema } from "@/lib/leaderboard/as-of";
import { columnsParamSchema } from "@/lib/leaderboard/columns";
import { bugWindowParams, flag, formatParam, scoringParam, single, text, versionParam } from "@/lib/view-query";

export const SORT_KEYS = ["model", "config", "mode", "per_bug", "chain", "vs_oracle", "cost", "peak_context", "date"] as const;
export type SortKey = (typeof SORT_KEYS)[number];
export type SortDir = "asc" | "desc";
export type Sort = { key: SortKey; dir: SortDir };

export const leaderboardViewSchema = z.object({
  /** a dataset version; absent = the newest */
  version: versionParam,
  scoring: scoringParam,
  mode: single(modeSchema.optional()),
  /** a context configuration, exactly as the system names it */
  config: single(text.optional()),
  model: single(text.optional()),
  /** absent = any; true = only open; false = only closed */
  open_weights: single(flag.optional()),
  open_scaffold: single(flag.optional()),
  /** the evaluation's finishing day, UTC, inclusive */
  from: single(z.iso.date().optional()),
  to: single(z.iso.date().optional()),
  ...bugWindowParams,
  /** SPEC §7: `without` scores every bug whose model patch edits tests as unresolved */
  test_edits: single(z.enum(["with", "without"]).default("with")),
  /** SPEC §6: the board as it stood at the end of this day (UTC); absent = today's */
  as_of: single(asOfSchema.optional()),
  /** SPEC §8: the full version's rows, or its Mini split's */
  split: single(splitSchema.default("full")),
  sort: single(
    z
      .templateLiteral([z.enum(SORT_KEYS), ".", z.enum(["asc", "desc"])], { error: `expected <column>.asc or <column>.desc, column one of ${SORT_KEYS.join(", ")}` })
      .default("per_bug.desc"),
  ),
  group: single(z.enum(["none", "config"]).default("none")),
  /** the paper's Table 2 rows, in their own table */
  paper: single(flag.default(false)),
  /** every row, not only the first PAGE_ROWS (the page only) */
  all: single(flag.default(false)),
  /** the columns shown beside the always-shown ones (the page only; lib/leaderboard/columns.ts); absent = the default set */
  cols: single(columnsParamSchema.optional()),
});
export type LeaderboardView = z.infer<typeof leaderboardViewSchema>;

export const leaderboardApiQuerySchema = leaderboardViewSchema.extend({ format: formatParam });
export type LeaderboardApiQuery = z.infer<typeof leaderboardApiQuerySchema>;

const DEFAULTS = leaderboardApiQuerySchema.parse({});

/** URL parameters for a view, defaults left out, in the schema's order (so equal views have equal URLs). */
export function leaderboardSearch(query: Partial<LeaderboardApiQuery>): URLSearchParams {
  const out = new URLSearchParams();
  for (const key of Object.keys(leaderboardApiQuerySchema.shape) as (keyof LeaderboardApiQuery)[]) {
    const v = query[key];
    if (v === undefined || v === DEFAULTS[key]) continue;
    out.set(key, typeof v === "boolean" ? (v ? "1" : "0") : String(v));
  }
  return out;
}

/** The page (or the API at `path`) showing `query` changed by `patch`. */
export function leaderboardHref(query: Partial<LeaderboardApiQuery>, patch: Partial<LeaderboardApiQuery> = {}, path = "/"): string {
  const s = leaderboardSearch({ ...query, ...patch }).toString();
  return s ? `${path}?${s}` : path;
}

export function parseSort(sort: LeaderboardView["sort"]): Sort {
  const [key, dir] = sort.split(".") as [SortKey, SortDir];
  return { key, dir };
}

export const sortParam = (s: Sort): LeaderboardView["sort"] => `${s.key}.${s.dir}`;
