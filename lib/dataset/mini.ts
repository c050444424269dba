/**
 * A version's Mini split in the portal (SPEC §8): computed by the core's
 * procedure (core/dataset/mini.ts) over the rows published on the version's
 * full board, strict scoring, each row's runs' stored chain records; stored
 * on the version. Fixed once a submission uses it: its rows are scored over
 * those chains.
 */
import { MINI_METHOD, chainSolved, miniProblem, miniRows, miniSplit } from "@/core/dataset/mini";
import { columnJson } from "@/core/schemas/columns";
import { db } from "@/db/client";
import { getLeaderboardValues } from "@/lib/leaderboard/data";
import { storedChainRecords } from "@/lib/leaderboard/window";
import { DatasetImportError, getVersionRules, storedMiniSchema, type StoredMini } from "@/lib/dataset/data";

/**
 * Computes and stores the version's Mini split of `size` chains over its
 * published full rows. Refused (DatasetImportError, nothing changed) for an
 * unknown version, an impossible size, or a Mini that submissions already use.
 */
export async function computeVersionMini(version: string, size: number): Promise<StoredMini> {
  const v = await db.datasetVersion.findUnique({ where: { version }, select: { id: true, chains: { select: { continuousId: true }, orderBy: { id: "asc" } } } });
  if (!v) throw new DatasetImportError(`no dataset version ${version}`);
  const used = await db.submission.count({ where: { datasetVersionId: v.id, split: "mini" } });
  if (used > 0) throw new DatasetImportError(`dataset ${version}'s Mini split is fixed: ${used} submission(s) use it`);
  const board = await getLeaderboardValues({ version, scoring: "strict" });
  const runs = board.rows.flatMap((r) => (r.runs ? r.runs.submissionIds : [r.submissionId]).map((id) => ({ row: r.submissionId, id })));
  const computedAt = new Map((await db.submissionScore.findMany({ where: { submissionId: { in: runs.map((r) => r.id) } }, select: { submissionId: true, computedAt: true } })).map((s) => [s.submissionId, s.computedAt]));
  const records = await storedChainRecords(runs.flatMap((r) => (computedAt.has(r.id) ? [{ id: r.id, computedAt: computedAt.get(r.id)! }] : [])));
  const rows = miniRows(runs.map((r) => ({ row: r.row, solved: (records.get(r.id) ?? []).filter((c) => chainSolved(c.bugs)).map((c) => c.continuous_id) })));
  // held-out chains (SPEC §8) are scored apart, never in the Mini
  const heldOut = new Set((await getVersionRules(version))?.held_out ?? []);
  const chains = v.chains.map((c) => c.continuousId).filter((c) => !heldOut.has(c));
  const problem = miniProblem(chains, rows, size);
  if (problem) throw new DatasetImportError(`dataset ${version}: ${problem}`);
  const mini = miniSplit(chains, rows, size);
  const stored: StoredMini = { ...mini, method: MINI_METHOD, computed_at: new Date().toISOString() };
  await db.datasetVersion.update({ where: { id: v.id }, data: { mini: columnJson(storedMiniSchema, stored) } });
  return stored;
}

/**
 * A version whose rules name a Mini size (`mini_size`) keeps its Mini in step
 * with its published rows: recomputed when one of its submissions' scores are
 * stored or its publication changes, until a Mini submission fixes it. Quietly
 * does nothing when the rule is absent or a Mini cannot be drawn yet (fewer
 * than two rows); answers whether it stored one.
 */
export async function followVersionMini(submissionId: string): Promise<boolean> {
  const sub = await db.submission.findUnique({ where: { id: submissionId }, select: { split: true, datasetVersion: { select: { version: true } } } });
  if (!sub || sub.split !== "full") return false;
  const version = sub.datasetVersion.version;
  const size = (await getVersionRules(version))?.mini_size;
  if (size === undefined) return false;
  try {
    await computeVersionMini(version, size);
    return true;
  } catch (e) {
    if (e instanceof DatasetImportError) return false;
    throw e;
  }
}
