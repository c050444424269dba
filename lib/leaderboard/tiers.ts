/**
 * Rank tiers of a dataset version's leaderboard (SPEC §4 "Rank tiers"),
 * computed by the aggregate refresh and when a submission's publication
 * changes, stored in VersionRanking and read with the board, never computed on
 * a request. Ranked together: the rows of one mode under one scoring, over
 * every chain of the version (no bug-date window, test edits as graded). A row
 * of repeated runs is tested on the mean over its runs.
 *
 * The stored tiers name the rows they ranked: while the board's rows of a mode
 * are not those (a row published or withdrawn since), that mode shows none.
 */
import { z } from "zod";
import { SCORINGS, rankTiers, scoreChainRecords, type ChainRecord, type RowTier, type Scoring } from "@/core/scoring";
import { parseColumn } from "@/core/schemas/columns";
import { modeSchema, type Mode } from "@/core/schemas/prediction";
import { db } from "@/db/client";

const storedTierSchema = z.object({
  /** the row: its first run's submission, and every run's */
  submission_id: z.string(),
  submission_ids: z.array(z.string()).min(1),
  mode: modeSchema,
  rank: z.number().int().positive(),
  tier: z.number().int().positive(),
  p_vs_above: z.number().nullable(),
  p_vs_above_holm: z.number().nullable(),
  /** its tier's leader's submission and the test that placed it (SPEC §4); absent from rankings stored before leaders were */
  tier_leader: z.string().nullable().default(null),
  p_vs_tier_leader: z.number().nullable().default(null),
  p_vs_tier_leader_adjusted: z.number().nullable().default(null),
  rank_stability: z.number(),
});
export const storedRankingSchema = z.object({ strict: z.array(storedTierSchema), lenient: z.array(storedTierSchema) });
export type StoredRanking = z.infer<typeof storedRankingSchema>;
export type StoredTier = z.infer<typeof storedTierSchema>;

/** A board row's tier as the page, API and CSV carry it. */
export type RowTierFacts = Pick<RowTier, "tier" | "p_vs_above" | "p_vs_above_holm" | "p_vs_tier_leader" | "p_vs_tier_leader_adjusted" | "rank_stability"> & { tier_leader: string | null };

/** One row to rank: its runs' submissions, run 1 first. */
export type RankedRow = { mode: Mode; submissionIds: string[] };

/** Per chain (in the version's order), a row's resolved bugs and solved chains, means over its runs. */
function rowOutcomes(runs: ChainRecord[][], scoring: Scoring, mode: Mode): { resolved: Float64Array; solved: Float64Array } {
  const first = runs[0]!;
  const resolved = new Float64Array(first.length);
  const solved = new Float64Array(first.length);
  for (const records of runs) {
    if (records.length !== first.length) throw new RangeError("a row's runs cover different chains: rank rows of one dataset version");
    scoreChainRecords(records, scoring, mode).forEach((o, c) => {
      const n = o.resolved.filter(Boolean).length;
      resolved[c]! += n / runs.length;
      solved[c]! += (n === o.length ? 1 : 0) / runs.length;
    });
  }
  return { resolved, solved };
}

/** The tiers of these rows (each mode ranked on its own), from their runs' chain records. Pure. */
export function rankRows(rows: readonly RankedRow[], records: ReadonlyMap<string, ChainRecord[]>): StoredRanking {
  const byScoring = (scoring: Scoring) =>
    [...new Set(rows.map((r) => r.mode))].flatMap((mode) => {
      const ranked = rows.filter((r) => r.mode === mode && r.submissionIds.every((id) => records.has(id)));
      const byId = new Map(ranked.map((r) => [r.submissionIds[0]!, r]));
      return rankTiers(ranked.map((r) => ({ id: r.submissionIds[0]!, ...rowOutcomes(r.submissionIds.map((id) => records.get(id)!), scoring, mode) }))).map((t) => ({
        submission_id: t.id,
        submission_ids: byId.get(t.id)!.submissionIds,
        mode,
        rank: t.rank,
        ...tierFacts(t),
      }));
    });
  return Object.fromEntries(SCORINGS.map((s) => [s, byScoring(s)])) as StoredRanking;
}

/** What a row shows of its tier, picked from a ranked or stored row. */
const tierFacts = (t: RowTierFacts): RowTierFacts => ({
  tier: t.tier,
  p_vs_above: t.p_vs_above,
  p_vs_above_holm: t.p_vs_above_holm,
  tier_leader: t.tier_leader,
  p_vs_tier_leader: t.p_vs_tier_leader,
  p_vs_tier_leader_adjusted: t.p_vs_tier_leader_adjusted,
  rank_stability: t.rank_stability,
});

/**
 * Each row's tier, by its submission, when the stored ranking ranked exactly
 * the board's rows of its mode (the same runs); otherwise the mode has none.
 */
export function tiersForRows(rows: readonly (RankedRow & { submissionId: string })[], ranking: StoredRanking | null, scoring: Scoring): Map<string, RowTierFacts> {
  const out = new Map<string, RowTierFacts>();
  if (!ranking) return out;
  const key = (ids: readonly string[]) => ids.join(",");
  for (const mode of new Set(rows.map((r) => r.mode))) {
    const stored = ranking[scoring].filter((t) => t.mode === mode);
    const shown = rows.filter((r) => r.mode === mode);
    const storedKeys = new Set(stored.map((t) => key(t.submission_ids)));
    if (stored.length !== shown.length || !shown.every((r) => storedKeys.has(key(r.submissionIds)))) continue;
    for (const t of stored) {
      out.set(t.submission_id, tierFacts(t));
    }
  }
  return out;
}

/** The stored ranking of a version, or null before the first refresh. */
export async function storedRanking(version: string): Promise<StoredRanking | null> {
  const row = await db.versionRanking.findFirst({ where: { datasetVersion: { version } }, select: { tiers: true } });
  return row ? parseColumn(storedRankingSchema, row.tiers, "VersionRanking.tiers") : null;
}
