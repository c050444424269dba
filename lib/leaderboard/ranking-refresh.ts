/**
 * Recomputes and stores a dataset version's rank tiers (lib/leaderboard/tiers.ts,
 * SPEC §4) and the figures of the chains that still discriminate over the same
 * rows (lib/leaderboard/discrimination.ts): from the aggregate refresh and when
 * a submission's publication changes.
 */
import type { ChainRecord } from "@/core/scoring";
import { columnJson } from "@/core/schemas/columns";
import { db } from "@/db/client";
import { getLeaderboardValues } from "@/lib/leaderboard/data";
import { parseStoredChains } from "@/lib/leaderboard/stored-scores";
import { discriminationOfRanking, storedDiscriminationSchema } from "@/lib/leaderboard/discrimination";
import { rankRows, storedRankingSchema, type StoredRanking } from "@/lib/leaderboard/tiers";
import { storedChainRecords } from "@/lib/leaderboard/window";

/**
 * Recompute and store the tiers of a version's board and its chains' figures:
 * its rows are those the leaderboard shows (getLeaderboardValues), their chain
 * records as stored.
 */
export async function refreshVersionRanking(datasetVersionId: string): Promise<StoredRanking | null> {
  const version = await db.datasetVersion.findUnique({ where: { id: datasetVersionId }, select: { version: true } });
  if (!version) return null;
  const board = await getLeaderboardValues({ version: version.version });
  const rows = board.rows.map((r) => ({ mode: r.mode, submissionIds: r.runs?.submissionIds ?? [r.submissionId] }));
  const ids = rows.flatMap((r) => r.submissionIds);
  // read here, not through the board's cache of chain records: a refresh reads every row once
  const records = new Map<string, ChainRecord[]>();
  const unrecorded: { id: string; computedAt: Date }[] = [];
  for (let i = 0; i < ids.length; i += 500) {
    const scores = await db.submissionScore.findMany({ where: { submissionId: { in: ids.slice(i, i + 500) } }, select: { submissionId: true, computedAt: true, chains: true } });
    for (const s of scores) {
      if (s.chains === null) unrecorded.push({ id: s.submissionId, computedAt: s.computedAt });
      else records.set(s.submissionId, parseStoredChains(s.chains));
    }
  }
  // scores stored before chain records were kept get them now
  for (const [id, list] of await storedChainRecords(unrecorded)) records.set(id, list);
  const ranking = rankRows(rows, records);
  const tiers = columnJson(storedRankingSchema, ranking);
  const discrimination = columnJson(storedDiscriminationSchema, discriminationOfRanking(ranking, records));
  await db.versionRanking.upsert({ where: { datasetVersionId }, create: { datasetVersionId, tiers, discrimination }, update: { tiers, discrimination, computedAt: new Date() } });
  return ranking;
}
