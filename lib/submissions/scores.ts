/**
 * A submission's headline scores (per-bug and chain rates with their
 * intervals), computed with core/scoring from its graded chains.
 */
import { applyScoring, headlineRates, NO_EFFORT, resolveBootstrap, type ChainOutcome, type Estimate } from "@/core/scoring";
import { db } from "@/db/client";
import { modeSchema, type Mode } from "@/core/schemas/prediction";


export type HeadlineScores = { perBug: Estimate; chain: Estimate };

export type SubmissionScores = {
  /** the headline scoring: strict for Seq and Seq+Mem (the paper's Table 2), lenient for Oracle */
  scoring: "strict" | "lenient";
  /** the scores under that scoring */
  headline: HeadlineScores;
  strict: HeadlineScores;
  lenient: HeadlineScores;
  chains: number;
  bugs: number;
  graded: number;
  /** lenient: each bug on its own */
  resolved: number;
  chainsResolved: number;
};

/** One covered chain: its length and the resolved flag of each graded bug by order (missing = unresolved). */
export type ChainVerdicts = { continuousId: string; length: number; resolved: Map<number, boolean> };

/**
 * SPEC §4 per-bug % and chain % over the chains the submission covers, both
 * scorings, with the evaluator's bootstrap intervals; null when it covers none.
 */
export function scoreChains(mode: Mode, chains: ChainVerdicts[]): SubmissionScores | null {
  if (chains.length === 0) return null;
  const boot = resolveBootstrap();
  const outcomes = (strict: boolean): ChainOutcome[] =>
    chains.map((c) => ({
      continuous_id: c.continuousId,
      length: c.length,
      resolved: applyScoring(
        Array.from({ length: c.length }, (_, i) => c.resolved.get(i + 1) === true),
        strict && mode !== "oracle",
      ),
      graded: c.resolved.size,
      cost_usd: null,
      peak_context_tokens: null,
      effort: NO_EFFORT,
    }));
  const headline = (strict: boolean): HeadlineScores => {
    const { per_bug, chain } = headlineRates(outcomes(strict), boot);
    return { perBug: per_bug, chain };
  };
  const lenient = outcomes(false);
  const [strictScores, lenientScores] = [headline(true), headline(false)];
  return {
    scoring: mode === "oracle" ? "lenient" : "strict",
    headline: mode === "oracle" ? lenientScores : strictScores,
    strict: strictScores,
    lenient: lenientScores,
    chains: chains.length,
    bugs: chains.reduce((n, c) => n + c.length, 0),
    graded: chains.reduce((n, c) => n + c.resolved.size, 0),
    resolved: lenient.reduce((n, o) => n + o.resolved.filter(Boolean).length, 0),
    chainsResolved: lenient.filter((o) => o.resolved.every(Boolean)).length,
  };
}

/** Scores of several submissions at once (the review queue): a few queries, not a few per submission. */
export async function scoresForSubmissions(ids: string[]): Promise<Map<string, SubmissionScores | null>> {
  const subs = await db.submission.findMany({
    where: { id: { in: ids } },
    select: { id: true, mode: true, datasetVersionId: true, jobs: { select: { continuousId: true }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] } },
  });
  const [chains, results] = await Promise.all([
    db.chain.findMany({
      where: { datasetVersionId: { in: [...new Set(subs.map((s) => s.datasetVersionId))] } },
      select: { datasetVersionId: true, continuousId: true, _count: { select: { bugs: true } } },
    }),
    db.bugResult.findMany({ where: { submissionId: { in: ids } }, select: { submissionId: true, continuousId: true, order: true, resolved: true } }),
  ]);
  const length = new Map(chains.map((c) => [`${c.datasetVersionId}\0${c.continuousId}`, c._count.bugs]));
  const out = new Map<string, SubmissionScores | null>();
  for (const s of subs) {
    const mine = results.filter((r) => r.submissionId === s.id);
    const verdicts = s.jobs.map(({ continuousId }) => ({
      continuousId,
      length: length.get(`${s.datasetVersionId}\0${continuousId}`) ?? 0,
      resolved: new Map(mine.filter((r) => r.continuousId === continuousId).map((r) => [r.order, r.resolved])),
    }));
    out.set(s.id, scoreChains(modeSchema.parse(s.mode), verdicts));
  }
  return out;
}
