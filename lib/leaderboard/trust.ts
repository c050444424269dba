/**
 * What a row's trust badges stand on (SPEC §7): reviewed, verified by the
 * version's rules, rule breaches, test edits, shortcut flags and close to
 * gold, over an entry's runs. The leaderboard computes them for its rows
 * (lib/leaderboard/data.ts) and the review queue for each waiting submission
 * (lib/submissions/review.ts), so both show the same badges from the same facts
 * (lib/leaderboard/view.ts `rowBadges`).
 */
import type { ChainRecord } from "@/core/scoring";
import { db } from "@/db/client";
import { parseColumn } from "@/core/schemas/columns";
import { CLOSE_TO_GOLD, isVerified, ruleBreachesSchema, type VersionRules } from "@/core/schemas/manifest";
import { shortcutSummarySchema, type ShortcutKind } from "@/core/trajectory/shortcuts";
import type { LeaderboardRow } from "@/lib/leaderboard/data";

/** One run's stored columns the badges read. */
export type TrustRun = { id: string; run: number; reviewedAt: Date | null; ruleBreaches: string; testEditPolicy: string; shortcuts: string };

export type RowTrust = Pick<LeaderboardRow, "reviewed" | "breaches" | "verified" | "testEdits" | "shortcuts" | "shortcutBugs" | "closeToGold">;

/** The Prisma select of a TrustRun's columns. */
export const trustRunSelect = { id: true, run: true, reviewedAt: true, ruleBreaches: true, testEditPolicy: true, shortcuts: true } as const;

/** Per run, the bugs whose trajectory the shortcut scan flagged: read only for the runs whose summary names a flag. */
async function shortcutFlaggedBugs(runIds: string[]): Promise<Map<string, { continuousId: string; order: number }[]>> {
  const out = new Map<string, { continuousId: string; order: number }[]>();
  if (runIds.length === 0) return out;
  const rows = await db.trajectory.findMany({ where: { submissionId: { in: runIds }, shortcutHits: { gt: 0 } }, select: { submissionId: true, continuousId: true, order: true } });
  for (const r of rows) out.set(r.submissionId, [...(out.get(r.submissionId) ?? []), { continuousId: r.continuousId, order: r.order }]);
  return out;
}

/**
 * Each entry's trust facts, in order. `records`: every run's chain records;
 * `scored`: whether a chain counts (the bug-date window's), every chain when none.
 */
export async function entriesTrust(
  entries: readonly (readonly TrustRun[])[],
  rules: VersionRules,
  records: ReadonlyMap<string, ChainRecord[]>,
  scored: (continuousId: string) => boolean = () => true,
): Promise<RowTrust[]> {
  const testEditBugs = (id: string) => (records.get(id) ?? []).reduce((n, c) => n + (scored(c.continuous_id) ? (c.test_edits?.length ?? 0) : 0), 0);
  const flaggedBugs = await shortcutFlaggedBugs(entries.flatMap((runs) => runs.filter((r) => r.shortcuts !== "{}").map((r) => r.id)));
  const shortcutBugs = (runIds: string[]) => new Set(runIds.flatMap((id) => (flaggedBugs.get(id) ?? []).filter((b) => scored(b.continuousId)).map((b) => `${b.continuousId}\0${b.order}`))).size;
  const threshold = rules.close_to_gold ?? CLOSE_TO_GOLD;
  const closeToGold = (ids: string[]) => {
    const similarities = ids.flatMap((id) => (records.get(id) ?? []).flatMap((c) => (scored(c.continuous_id) ? (c.gold_similarity ?? []) : []))).filter((x) => x !== null);
    return { bugs: similarities.filter((x) => x >= threshold).length, of: similarities.length, threshold };
  };
  return entries.map((runs) => {
    const ids = runs.map((r) => r.id);
    const reviewed = runs.every((r) => r.reviewedAt !== null);
    const breaches = runs.flatMap((r) => parseColumn(ruleBreachesSchema, r.ruleBreaches, "Submission.ruleBreaches").map((b) => ({ ...b, run: r.run })));
    return {
      reviewed,
      breaches,
      verified: isVerified(rules, { runs: runs.length, reviewed, breaches: breaches.length }),
      testEdits: { bugs: ids.reduce((n, id) => n + testEditBugs(id), 0), flagged: runs.some((r) => r.testEditPolicy === "flag") },
      shortcuts: runs.flatMap((r) =>
        Object.entries(parseColumn(shortcutSummarySchema, r.shortcuts, "Submission.shortcuts")).map(([kind, bugs]) => ({ run: r.run, kind: kind as ShortcutKind, bugs: bugs! })),
      ),
      shortcutBugs: shortcutBugs(ids),
      closeToGold: closeToGold(ids),
    };
  });
}
