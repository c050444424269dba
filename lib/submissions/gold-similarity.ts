/**
 * Stores each graded bug's similarity to gold (SPEC §7 "Close to gold",
 * core/diff/similarity.ts) from the submission's predictions and the dataset's
 * gold patches: on re-grade for every bug, and at the aggregate refresh for
 * results stored before the similarity existed. The evaluator records it with
 * each new result.
 */
import { goldSimilarity } from "@/core/diff/similarity";
import { db } from "@/db/client";

/** Sets BugResult.goldSimilarity for the submission's bugs (`missing`: only those without one); answers how many changed. */
export async function storeGoldSimilarity(submissionId: string, which: "missing" | "all"): Promise<number> {
  const rows = await db.bugResult.findMany({
    where: { submissionId, ...(which === "missing" ? { goldSimilarity: null } : {}) },
    select: { id: true, continuousId: true, order: true, goldSimilarity: true },
  });
  if (rows.length === 0) return 0;
  const sub = await db.submission.findUniqueOrThrow({ where: { id: submissionId }, select: { datasetVersionId: true } });
  const chains = [...new Set(rows.map((r) => r.continuousId))];
  const [golds, predictions] = await Promise.all([
    db.bug.findMany({ where: { chain: { datasetVersionId: sub.datasetVersionId, continuousId: { in: chains } } }, select: { order: true, patch: true, chain: { select: { continuousId: true } } } }),
    db.prediction.findMany({ where: { submissionId, continuousId: { in: chains } }, select: { continuousId: true, order: true, modelPatch: true, patchText: { select: { text: true } } } }),
  ]);
  const key = (chain: string, order: number) => `${chain}\0${order}`;
  const gold = new Map(golds.map((b) => [key(b.chain.continuousId, b.order), b.patch]));
  // a large patch is kept as a staged text (lib/submissions/staged-texts.ts)
  const model = new Map(predictions.map((p) => [key(p.continuousId, p.order), p.patchText?.text ?? p.modelPatch]));
  const updates = rows.flatMap((r) => {
    const g = gold.get(key(r.continuousId, r.order));
    const value = g === undefined ? null : goldSimilarity(model.get(key(r.continuousId, r.order)) ?? "", g);
    return value === r.goldSimilarity ? [] : [db.bugResult.update({ where: { id: r.id }, data: { goldSimilarity: value } })];
  });
  if (updates.length > 0) await db.$transaction(updates);
  return updates.length;
}
