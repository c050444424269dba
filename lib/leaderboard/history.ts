/**
 * Archived boards (SPEC §6): which submissions of a version were on its board
 * at the end of a day, each with the scores it had then (the current row, or
 * the revision kept when it was replaced: ScoreRevision), by the rules of
 * lib/leaderboard/as-of.ts over the audit log's publication decisions.
 */
import { db } from "@/db/client";
import { endOfDay, publicAt, scoresAt, type PublicationEvent } from "@/lib/leaderboard/as-of";
import type { ScoreRef } from "@/lib/leaderboard/score-cache";

export type ArchivedSubmission = ScoreRef & { graderVersion: string | null };

/** The version's submissions on its board at the end of `asOf`, each with the scores it had then. */
export async function archivedSubmissions(version: string, asOf: string): Promise<ArchivedSubmission[]> {
  const end = endOfDay(asOf);
  const subs = await db.submission.findMany({
    where: { datasetVersion: { version }, createdAt: { lt: end } },
    select: {
      id: true,
      visibility: true,
      reviewedAt: true,
      score: { select: { computedAt: true, graderVersion: true } },
      scoreRevisions: { where: { computedAt: { lt: end }, replacedAt: { gte: end } }, select: { computedAt: true, replacedAt: true, graderVersion: true } },
    },
  });
  const events = new Map<string, PublicationEvent[]>();
  const ids = subs.map((s) => s.id);
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await db.auditLog.findMany({
      where: { targetType: "submission", targetId: { in: ids.slice(i, i + 500) }, action: { in: ["publication_approved", "publication_withdrawn"] } },
      select: { targetId: true, action: true, createdAt: true },
    });
    for (const r of rows) events.set(r.targetId, [...(events.get(r.targetId) ?? []), { action: r.action as PublicationEvent["action"], at: r.createdAt }]);
  }
  return subs.flatMap((s) => {
    if (!publicAt(events.get(s.id) ?? [], end, { public: s.visibility === "public", reviewedAt: s.reviewedAt })) return [];
    const scores = scoresAt({ current: s.score, revisions: s.scoreRevisions }, end);
    return scores ? [{ id: s.id, ...scores }] : [];
  });
}
