/**
 * Chains that still discriminate (SPEC §4): each chain's and bug's figures
 * over the rows of a version's board, computed by the ranking refresh beside
 * the rank tiers (lib/leaderboard/ranking-refresh.ts) and stored in
 * VersionRanking.discrimination, never on a request. The rows are the tiers':
 * each mode under each scoring on its own, in the ranking's order (its top ten
 * are the board's), over every chain of the version, held-out ones included
 * (readers leave those out for whoever may not see them).
 */
import { z } from "zod";
import { SCORINGS, discrimination, scoreChainRecords, type ChainRecord, type Discrimination, type DiscriminationRow, type Scoring } from "@/core/scoring";
import { parseColumn } from "@/core/schemas/columns";
import { MODES, modeSchema, type Mode } from "@/core/schemas/prediction";
import { db } from "@/db/client";
import type { StoredRanking } from "@/lib/leaderboard/tiers";

const itemSchema = z.object({
  solve_rate: z.number(),
  point_biserial: z.number().nullable(),
  difficulty: z.number(),
  solved_by_all: z.boolean(),
  solved_by_none: z.boolean(),
  separates_top: z.boolean(),
});
const fitSchema = z.object({ rows: z.number().int(), items: z.number().int(), iterations: z.number().int(), converged: z.boolean(), max_gradient: z.number(), log_posterior: z.number() });
const modeDiscriminationSchema = z.object({
  mode: modeSchema,
  rows: z.number().int(),
  top_n: z.number().int(),
  chains: z.array(itemSchema.extend({ continuous_id: z.string() })),
  bugs: z.array(itemSchema.extend({ continuous_id: z.string(), order: z.number().int().positive() })),
  fit: z.object({ bugs: fitSchema, chains: fitSchema }),
});
export const storedDiscriminationSchema = z.object({ strict: z.array(modeDiscriminationSchema), lenient: z.array(modeDiscriminationSchema) });
export type StoredDiscrimination = z.infer<typeof storedDiscriminationSchema>;
export type ModeDiscrimination = z.infer<typeof modeDiscriminationSchema>;

/** A row's per-chain bug outcomes and chain success under a scoring: means over its runs. */
function discriminationRow(id: string, runs: ChainRecord[][], scoring: Scoring, mode: Mode): DiscriminationRow {
  const first = runs[0]!;
  const bugs = first.map((r) => new Float64Array(r.bugs.length));
  const solved = new Float64Array(first.length);
  for (const records of runs) {
    scoreChainRecords(records, scoring, mode).forEach((o, c) => {
      o.resolved.forEach((r, b) => {
        if (r) bugs[c]![b]! += 1 / runs.length;
      });
      if (o.resolved.every(Boolean)) solved[c]! += 1 / runs.length;
    });
  }
  return { id, bugs, solved };
}

/** The figures of each ranked mode under each scoring, from its rows' chain records. Pure. */
export function discriminationOfRanking(ranking: StoredRanking, records: ReadonlyMap<string, ChainRecord[]>): StoredDiscrimination {
  const byScoring = (scoring: Scoring) =>
    MODES.flatMap((mode) => {
      // the ranking's order: its first rows are the board's top
      const ranked = ranking[scoring].filter((t) => t.mode === mode);
      if (ranked.length === 0) return [];
      const shape = records.get(ranked[0]!.submission_ids[0]!)!;
      const chains = shape.map((c) => ({ continuous_id: c.continuous_id, length: c.bugs.length }));
      const rows = ranked.map((t) => discriminationRow(t.submission_id, t.submission_ids.map((id) => records.get(id)!), scoring, mode));
      const d: Discrimination = discrimination(chains, rows);
      return [{ mode, ...d }];
    });
  return Object.fromEntries(SCORINGS.map((s) => [s, byScoring(s)])) as StoredDiscrimination;
}

/** The stored figures of a version and when they were computed; null before a refresh computed them. */
export async function storedDiscrimination(version: string): Promise<{ figures: StoredDiscrimination; computedAt: Date } | null> {
  const row = await db.versionRanking.findFirst({ where: { datasetVersion: { version } }, select: { discrimination: true, computedAt: true } });
  if (!row?.discrimination) return null;
  return { figures: parseColumn(storedDiscriminationSchema, row.discrimination, "VersionRanking.discrimination"), computedAt: row.computedAt };
}
