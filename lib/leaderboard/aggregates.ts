/**
 * Aggregates, computed when an evaluation completes rather than on each request
 *: a completed submission's scores under both scorings and
 * both position sets, and the chain-error analysis of each Seq / Seq+Mem
 * submission against its system's Oracle submission. Both come from the
 * evaluator's pure functions over `runResultsForSubmission`, so the portal's
 * numbers are `chainswe report`'s numbers.
 *
 * The version's rank tiers (lib/leaderboard/tiers.ts) and its chains' figures
 * (lib/leaderboard/discrimination.ts) are refreshed with them.
 * Refreshed by the worker when a submission completes (jobs/queue/run-job.ts),
 * removed when a reviewer re-runs it, and rebuilt whole by
 * `chainswe aggregates refresh` (e.g. after an upgrade changes a formula).
 */
import { z } from "zod";
import { chainErrorBreakdown, chainErrorBreakdownSchema, chainErrors, chainErrorSchema } from "@/core/analysis";
import { POSITION_SETS, SCORINGS, chainRecords, scoreRun, type RunResults } from "@/core/scoring";
import { db } from "@/db/client";
import { columnJson } from "@/core/schemas/columns";
import { storedChainsSchema, storedScoresSchema, type StoredScores } from "@/lib/leaderboard/stored-scores";

// the stored columns' schemas, where their writer is (the board's readers import lib/leaderboard/stored-scores.ts)
export { storedChainsSchema, storedScoresSchema, parseStoredChains, parseStoredScores, type StoredScores } from "@/lib/leaderboard/stored-scores";
import { runResultsForSubmission } from "@/lib/submissions/run-results";
import { storeGoldSimilarity } from "@/lib/submissions/gold-similarity";
import { keepScoreRevision, retireScores } from "@/jobs/queue";

export const storedChainErrorsSchema = z.array(chainErrorSchema);

/** The grader version(s) a run's bugs were graded with, as one text ("0.3.0", or "0.2.1, 0.3.0"); null when none says. */
export function gradersOf(run: RunResults): string | null {
  const versions = [...new Set(run.bugs.flatMap((b) => (b.grader_version ? [b.grader_version] : [])))].sort();
  return versions.length ? versions.join(", ") : null;
}

/**
 * Scores of one completed submission, stored; false when it is not (or no
 * longer) completed. Scores they replace are kept as a revision (jobs/queue/scores.ts).
 */
async function refreshScores(submissionId: string): Promise<boolean> {
  const sub = await db.submission.findUnique({ where: { id: submissionId }, select: { status: true } });
  if (sub?.status !== "completed") {
    await db.$transaction((tx) => retireScores(tx, submissionId, new Date()));
    return false;
  }
  // results stored before similarities to gold were recorded get them now (SPEC §7 "Close to gold")
  await storeGoldSimilarity(submissionId, "missing");
  const run = await runResultsForSubmission(submissionId);
  if (!run) return false;
  const scored = Object.fromEntries(
    SCORINGS.map((scoring) => [scoring, Object.fromEntries(POSITION_SETS.map((positions) => [positions, scoreRun(run, { scoring, positions })]))]),
  ) as StoredScores;
  const scores = columnJson(storedScoresSchema, scored);
  const chains = columnJson(storedChainsSchema, chainRecords(run));
  const graderVersion = gradersOf(run);
  await db.$transaction(async (tx) => {
    const current = await tx.submissionScore.findUnique({ where: { submissionId }, select: { scores: true, chains: true, graderVersion: true } });
    // the same scores again (a refresh that changed nothing): no revision, the same computedAt
    if (current && current.scores === scores && current.chains === chains && current.graderVersion === graderVersion) return;
    const now = new Date();
    await keepScoreRevision(tx, submissionId, now);
    await tx.submissionScore.upsert({ where: { submissionId }, create: { submissionId, scores, chains, graderVersion, computedAt: now }, update: { scores, chains, graderVersion, computedAt: now } });
  });
  return true;
}

type Pairable = { id: string; systemId: string; datasetVersionId: string; mode: string; split: string };

/** The newest completed submission of the system on the version in that mode, on the same split (a Mini row pairs with a Mini row). */
async function newestCompleted(systemId: string, datasetVersionId: string, mode: string, split: string): Promise<string | null> {
  const row = await db.submission.findFirst({
    where: { systemId, datasetVersionId, mode, split, status: "completed" },
    orderBy: [{ finishedAt: "desc" }, { id: "desc" }],
    select: { id: true },
  });
  return row?.id ?? null;
}

/** Chain errors of one Seq / Seq+Mem submission against the Oracle one, stored. */
async function refreshAnalysis(seqSubmissionId: string, oracleSubmissionId: string): Promise<void> {
  const [seq, oracle] = await Promise.all([runResultsForSubmission(seqSubmissionId), runResultsForSubmission(oracleSubmissionId)]);
  if (!seq || !oracle) return;
  const errors = chainErrors(oracle, seq);
  const data = {
    oracleSubmissionId,
    chainErrors: columnJson(storedChainErrorsSchema, errors),
    breakdown: columnJson(chainErrorBreakdownSchema, chainErrorBreakdown(errors, seq)),
    computedAt: new Date(),
  };
  await db.chainErrorAnalysis.upsert({ where: { seqSubmissionId }, create: { seqSubmissionId, ...data }, update: data });
}

/** The analyses a submission takes part in: as the Seq side, or as the Oracle side of each Seq mode. */
async function refreshAnalyses(sub: Pairable): Promise<number> {
  const oracle = await newestCompleted(sub.systemId, sub.datasetVersionId, "oracle", sub.split);
  if (!oracle) return 0;
  const seqIds =
    sub.mode === "oracle"
      ? (await Promise.all(["seq", "seq_mem"].map((m) => newestCompleted(sub.systemId, sub.datasetVersionId, m, sub.split)))).filter((id): id is string => !!id)
      : [sub.id];
  for (const seqId of seqIds) await refreshAnalysis(seqId, oracle);
  return seqIds.length;
}

/**
 * Everything derived from one submission's results; call when its evaluation
 * completes. `ranking`: also the rank tiers of its version (SPEC §4), which
 * read every row of the board; refreshAllAggregates ranks each version once instead.
 */
export async function refreshAggregates(submissionId: string, opts: { ranking?: boolean } = {}): Promise<{ scored: boolean; analyses: number }> {
  const sub = await db.submission.findUnique({ where: { id: submissionId }, select: { id: true, systemId: true, datasetVersionId: true, mode: true, split: true } });
  if (!sub) return { scored: false, analyses: 0 };
  const scored = await refreshScores(submissionId);
  const analyses = scored ? await refreshAnalyses(sub) : 0;
  if (opts.ranking ?? true) await refreshRanking(sub.datasetVersionId);
  return { scored, analyses };
}

/** The version's rank tiers and its chains' figures (lib/leaderboard/ranking-refresh.ts; imported when needed). */
async function refreshRanking(datasetVersionId: string): Promise<void> {
  const { refreshVersionRanking } = await import("@/lib/leaderboard/ranking-refresh");
  await refreshVersionRanking(datasetVersionId);
}

/** Every completed submission's aggregates, rebuilt, then every version's rank tiers and chains' figures; the count of submissions refreshed. */
export async function refreshAllAggregates(log: (line: string) => void = () => {}): Promise<number> {
  const subs = await db.submission.findMany({ where: { status: "completed" }, select: { id: true }, orderBy: { createdAt: "asc" } });
  for (const [i, s] of subs.entries()) {
    const r = await refreshAggregates(s.id, { ranking: false });
    log(`${i + 1}/${subs.length} ${s.id}: scores${r.analyses ? `, ${r.analyses} chain-error analysis(es)` : ""}`);
  }
  for (const v of await db.datasetVersion.findMany({ select: { id: true, version: true }, orderBy: { createdAt: "asc" } })) {
    const started = performance.now();
    await refreshRanking(v.id);
    log(`version ${v.version}: rank tiers and discrimination in ${Math.round(performance.now() - started)} ms`);
  }
  return subs.length;
}
