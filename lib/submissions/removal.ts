/**
 * Deleting a submission and everything stored with it (predictions, results
 * and their logs, trajectories, jobs, scores, notifications: the rows that
 * cascade from it): the team's delete of its own private submission, and the
 * site's cleanup of a cancelled one once CHAINSWE_CANCELLED_KEEP_DAYS have
 * passed. Its audit rows stay, with one more saying who deleted it (no actor
 * for the cleanup); its upload keeps counting against the day's quota
 * (./quota.ts). So nothing a team can make is stored for good unless it keeps
 * it within its storage (./storage.ts).
 */
import type { Tx } from "@/db/tx";
import type { Viewer } from "@/lib/authz";
import { db } from "@/db/client";
import { ForbiddenError } from "@/core/errors";
import { utcWhen } from "@/core/format";
import { refreshAggregates } from "@/lib/leaderboard/aggregates";
import type { AuditAction } from "@/core/schemas/columns";
import { readableSubmission } from "@/lib/submissions/access";
import { entryRunsWhere } from "@/lib/submissions/data";
import { deletionRefusal } from "@/lib/submissions/visibility";

const DAY_MS = 24 * 3600_000;

/**
 * Deletes the submission in the caller's transaction, if it still matches `where`
 * (checked by the delete itself, so a change made meanwhile wins); false when it did not.
 * Answers the Seq submissions whose chain-error analysis used it as their Oracle side.
 */
async function deleteStored(tx: Tx, id: string, where: { visibility?: string; status: string | { notIn: string[] } }, audit: { actorId: string | null; reason: string | null }): Promise<{ deleted: boolean; analysed: string[] }> {
  const analysed = await tx.chainErrorAnalysis.findMany({ where: { oracleSubmissionId: id }, select: { seqSubmissionId: true } });
  const [logs, patches] = await Promise.all([
    tx.trajectory.findMany({ where: { submissionId: id, logTextId: { not: null } }, select: { logTextId: true } }),
    tx.prediction.findMany({ where: { submissionId: id, patchTextId: { not: null } }, select: { patchTextId: true } }),
  ]);
  const { count } = await tx.submission.deleteMany({ where: { id, ...where } });
  if (count === 0) return { deleted: false, analysed: [] };
  // the large patches and logs its rows named (lib/submissions/staged-texts.ts): free once the rows are gone
  await tx.stagedText.deleteMany({ where: { id: { in: [...logs.map((l) => l.logTextId!), ...patches.map((p) => p.patchTextId!)] } } });
  await tx.auditLog.create({ data: { actorId: audit.actorId, action: "submission_deleted" satisfies AuditAction, targetType: "submission", targetId: id, reason: audit.reason } });
  return { deleted: true, analysed: analysed.map((a) => a.seqSubmissionId) };
}

/** The Seq submissions that lost their Oracle side are analysed again against the newest one left. */
async function reanalyse(seqIds: string[]): Promise<void> {
  for (const id of seqIds) await refreshAggregates(id);
}

/**
 * The team deletes its own private submission (deletionRefusal says when), with its
 * audit row. Run 1 of an entry with later runs is kept: the later runs name it.
 * NotFoundError for a viewer who cannot read it; ForbiddenError otherwise.
 */
export async function deleteSubmissionFor(viewer: Viewer | null, id: string): Promise<void> {
  const s = await readableSubmission(viewer, id);
  const refusal = deletionRefusal(s.role, s.visibility, s.status);
  if (refusal) throw new ForbiddenError(refusal);
  const laterRuns = await db.submission.count({ where: { ...entryRunsWhere(id), NOT: { id } } });
  if (laterRuns > 0) throw new ForbiddenError(`it is run 1 of an entry with ${laterRuns} later run(s): delete those first`);
  const { deleted, analysed } = await db.$transaction((tx) =>
    deleteStored(tx, id, { visibility: "private", status: { notIn: ["queued", "running"] } }, { actorId: viewer?.id ?? null, reason: null }),
  );
  if (!deleted) throw new ForbiddenError("the submission changed meanwhile; reload the page and try again");
  await reanalyse(analysed);
}

/**
 * Deletes every submission cancelled more than `keepDays` ago, each with an audit row
 * naming when it was cancelled; answers how many. The site runs it hourly (lib/site/worker.ts),
 * `chainswe cleanup` on demand.
 */
export async function purgeCancelledSubmissions(keepDays: number, now: Date = new Date()): Promise<number> {
  const due = await db.submission.findMany({
    where: { status: "cancelled", finishedAt: { lt: new Date(now.getTime() - keepDays * DAY_MS) } },
    select: { id: true, finishedAt: true },
    orderBy: { finishedAt: "asc" },
  });
  let purged = 0;
  for (const s of due) {
    const reason = `cancelled ${utcWhen(s.finishedAt)}; its stored data is deleted after ${keepDays} day(s)`;
    const { deleted, analysed } = await db.$transaction((tx) => deleteStored(tx, s.id, { status: "cancelled" }, { actorId: null, reason }));
    if (deleted) purged++;
    await reanalyse(analysed);
  }
  return purged;
}
