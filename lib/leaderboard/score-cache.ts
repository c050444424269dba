/**
 * What the leaderboard derives from each submission's stored scores row
 * (SubmissionScore: its scores, its chain records), kept in memory by
 * submission as of the row's computedAt: a recomputation (or a re-run, which
 * deletes the row) is seen on the next request.
 */
import { db } from "@/db/client";

export type ScoreCache<T> = Map<string, { computedAt: number; value: T }>;

/**
 * `derive`(submission, the column's text) for each submission with a scores
 * row, from memory or read once; a null from `derive` leaves it out.
 */
export async function keptPerScore<T>(
  cache: ScoreCache<T>,
  limit: number,
  subs: readonly { id: string; computedAt: Date }[],
  column: "scores" | "chains",
  derive: (submissionId: string, text: string | null) => Promise<T | null> | T | null,
): Promise<Map<string, T>> {
  const out = new Map<string, T>();
  const missing: string[] = [];
  for (const s of subs) {
    const hit = cache.get(s.id);
    if (hit && hit.computedAt === s.computedAt.getTime()) out.set(s.id, hit.value);
    else missing.push(s.id);
  }
  if (cache.size + missing.length > limit) cache.clear();
  // in chunks: SQLite limits the number of bound parameters per statement
  for (let i = 0; i < missing.length; i += 500) {
    const rows = await db.submissionScore.findMany({
      where: { submissionId: { in: missing.slice(i, i + 500) } },
      select: { submissionId: true, computedAt: true, scores: column === "scores", chains: column === "chains" },
    });
    for (const r of rows) {
      const value = await derive(r.submissionId, (r as { scores?: string; chains?: string | null })[column] ?? null);
      if (value === null) continue;
      cache.set(r.submissionId, { computedAt: r.computedAt.getTime(), value });
      out.set(r.submissionId, value);
    }
  }
  return out;
}
