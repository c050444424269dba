/**
 * What the leaderboard derives from each submission's stored scores (its
 * scores, its chain records), kept in memory by submission and computedAt: a
 * recomputation (or a re-run, which retires the row) is seen on the next
 * request. A computedAt that is no longer current names one of the
 * submission's revisions (ScoreRevision): what an archived board (`as_of`) reads.
 */
import { db } from "@/db/client";

export type ScoreCache<T> = Map<string, T>;

/** A submission's scores as of one computation: the current row, or a revision. */
export type ScoreRef = { id: string; computedAt: Date };

const keyOf = (s: ScoreRef) => `${s.id}@${s.computedAt.getTime()}`;
// SQLite limits the number of bound parameters per statement
const CHUNK = 500;

/**
 * `derive`(submission, the column's text, whether it is the current row) for
 * each submission's scores as of its computedAt, from memory or read once; a
 * null from `derive` (or scores no longer stored) leaves it out.
 */
export async function keptPerScore<T>(
  cache: ScoreCache<T>,
  limit: number,
  subs: readonly ScoreRef[],
  column: "scores" | "chains",
  derive: (submissionId: string, text: string | null, current: boolean) => Promise<T | null> | T | null,
): Promise<Map<string, T>> {
  const out = new Map<string, T>();
  const missing: ScoreRef[] = [];
  for (const s of subs) {
    const hit = cache.get(keyOf(s));
    if (hit !== undefined) out.set(s.id, hit);
    else missing.push(s);
  }
  if (cache.size + missing.length > limit) cache.clear();
  const keep = async (s: ScoreRef, text: string | null, current: boolean) => {
    const value = await derive(s.id, text, current);
    if (value === null) return;
    cache.set(keyOf(s), value);
    out.set(s.id, value);
  };
  const select = { submissionId: true, computedAt: true, scores: column === "scores", chains: column === "chains" } as const;
  const textOf = (r: { scores?: string; chains?: string | null }) => r[column] ?? null;
  const archived: ScoreRef[] = [];
  for (let i = 0; i < missing.length; i += CHUNK) {
    const chunk = missing.slice(i, i + CHUNK);
    const rows = new Map((await db.submissionScore.findMany({ where: { submissionId: { in: chunk.map((s) => s.id) } }, select })).map((r) => [r.submissionId, r]));
    for (const s of chunk) {
      const row = rows.get(s.id);
      if (row && row.computedAt.getTime() === s.computedAt.getTime()) await keep(s, textOf(row), true);
      else archived.push(s);
    }
  }
  for (let i = 0; i < archived.length; i += CHUNK) {
    const chunk = archived.slice(i, i + CHUNK);
    const rows = await db.scoreRevision.findMany({ where: { OR: chunk.map((s) => ({ submissionId: s.id, computedAt: s.computedAt })) }, select });
    const byKey = new Map(rows.map((r) => [keyOf({ id: r.submissionId, computedAt: r.computedAt }), r]));
    for (const s of chunk) {
      const row = byKey.get(keyOf(s));
      if (row) await keep(s, textOf(row), false);
    }
  }
  return out;
}
