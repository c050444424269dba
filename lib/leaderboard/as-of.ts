/**
 * Archived boards (SPEC §6), the rules: `as_of` names a day, and the board
 * stands as it was at that day's end (UTC). A submission was on it when its
 * last publication decision before then was an approval, with the scores that
 * were current then. Pure: lib/leaderboard/history.ts reads the facts, and the
 * page's controls parse the parameter with the same schema.
 */
import { z } from "zod";

const DAY_MS = 24 * 60 * 60 * 1000;

/** `as_of`: a day, YYYY-MM-DD, no later than today (UTC). */
export const asOfSchema = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "as_of must be a date, YYYY-MM-DD")
  .refine((d) => {
    const t = Date.parse(`${d}T00:00:00Z`);
    return Number.isFinite(t) && new Date(t).toISOString().slice(0, 10) === d;
  }, "as_of is not a calendar date")
  .refine((d) => Date.parse(`${d}T00:00:00Z`) <= Date.now(), "as_of is in the future: a board can only be shown as it stood on a past day or today");

/** The end of an as_of day: the next midnight, UTC (exclusive). */
export const endOfDay = (asOf: string): Date => new Date(Date.parse(`${asOf}T00:00:00Z`) + DAY_MS);

/** A publication decision as the audit log keeps it. */
export type PublicationEvent = { action: "publication_approved" | "publication_withdrawn"; at: Date };

/**
 * Whether a submission was public just before `end`: its last approval or
 * withdrawal before then was an approval. A submission public today with no
 * decision in the log (made public before the log kept them, or by a seed)
 * counts as approved when it was reviewed.
 */
export function publicAt(events: readonly PublicationEvent[], end: Date, now: { public: boolean; reviewedAt: Date | null }): boolean {
  const decided = events.length > 0 ? events : now.public && now.reviewedAt ? [{ action: "publication_approved" as const, at: now.reviewedAt }] : [];
  let last: PublicationEvent | undefined;
  for (const e of decided) if (e.at < end && (!last || e.at >= last.at)) last = e;
  return last?.action === "publication_approved";
}

/** A submission's stored scores over time: the current row (if any) and the revisions it replaced. */
export type ScoreTimeline = {
  current: { computedAt: Date; graderVersion: string | null } | null;
  revisions: { computedAt: Date; replacedAt: Date; graderVersion: string | null }[];
};

/** The scores that were current just before `end`, or null when there were none (not yet scored, or re-run and not yet rescored). */
export function scoresAt(t: ScoreTimeline, end: Date): { computedAt: Date; graderVersion: string | null } | null {
  if (t.current && t.current.computedAt < end) return t.current;
  let best: ScoreTimeline["revisions"][number] | null = null;
  for (const r of t.revisions) if (r.computedAt < end && r.replacedAt >= end && (!best || r.computedAt > best.computedAt)) best = r;
  return best && { computedAt: best.computedAt, graderVersion: best.graderVersion };
}
