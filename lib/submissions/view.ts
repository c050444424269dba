/**
 * One submission as a viewer may see it (SPEC §6): the submission page, its
 * JSON API, results.jsonl, test logs and predictions. Every entry point takes
 * the viewer and answers NotFoundError for what they may not read, so a page,
 * a route and a test all ask the same question (lib/authz.ts):
 * - the submission, its results and logs: canReadSubmission (public to all;
 *   otherwise the team and reviewers);
 * - its predictions (the team's patches): the team and reviewers only, even once public.
 * Scores reuse evaluator/scoring; results.jsonl lines reuse the evaluator's writer.
 */
import { applyScoring, headlineRates, resolveBootstrap, type ChainOutcome, type Estimate } from "@/evaluator/scoring";
import { resultLine } from "@/evaluator/replay/output";
import { canActForTeam, canReadSubmission, canReview, type Viewer } from "@/lib/authz";
import { db } from "@/lib/db";
import { NotFoundError } from "@/lib/errors";
import {
  parseColumn,
  submissionMetadataSchema,
  submissionStatusSchema,
  testSplitSchema,
  visibilitySchema,
  type SubmissionMetadata,
  type SubmissionStatus,
  type Visibility,
} from "@/lib/schemas/columns";
import { modeSchema, predictionMetaSchema, type Mode } from "@/lib/schemas/prediction";
import { availableActions, type SubmissionActions, type SubmissionRole } from "@/lib/submissions/visibility";
import { runResultsForSubmission } from "@/lib/submissions/run-results";
import { graderUses, type GraderUse } from "@/lib/submissions/grader-view";
import { parseLastRegrade, type SubmissionRegrade } from "@/lib/submissions/regrade";
import { getSubmissionProgress, type SubmissionProgress } from "@/lib/submissions/progress";

// ---------------------------------------------------------------- access

export type ReadableSubmission = { id: string; teamId: string; visibility: Visibility; status: SubmissionStatus; role: SubmissionRole };

export const roleFor = (viewer: Viewer | null, teamId: string): SubmissionRole => ({
  team: canActForTeam(viewer, teamId),
  reviewer: canReview(viewer),
});

/** The submission's access facts, or NotFoundError when it does not exist or the viewer may not read it. */
export async function readableSubmission(viewer: Viewer | null, id: string): Promise<ReadableSubmission> {
  const row = await db.submission.findUnique({ where: { id }, select: { id: true, visibility: true, status: true, system: { select: { teamId: true } } } });
  if (!row) throw new NotFoundError("submission");
  const visibility = visibilitySchema.parse(row.visibility);
  const teamId = row.system.teamId;
  if (!canReadSubmission(viewer, { teamId, visibility })) throw new NotFoundError("submission");
  return { id, teamId, visibility, status: submissionStatusSchema.parse(row.status), role: roleFor(viewer, teamId) };
}

// ---------------------------------------------------------------- scores

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

// ---------------------------------------------------------------- the submission page

type TestCounts = { success: number; failure: number; failing: string[] };

export type BugResultView = {
  resolved: boolean;
  patchApplied: boolean;
  applyMethod: string | null;
  fingerprint: string | null;
  tampered: boolean;
  failToPass: TestCounts;
  passToPass: TestCounts;
  exitCode: number | null;
  timedOut: boolean;
  durationS: number;
};

export type ChainResultsView = {
  continuousId: string;
  bugs: { order: number; swebenchInstanceId: string; result: BugResultView | null }[];
};

export type SubmissionView = {
  id: string;
  mode: Mode;
  status: SubmissionStatus;
  visibility: Visibility;
  datasetVersion: string;
  system: { id: string; name: string; model: string; scaffold: string; contextConfig: string; team: { id: string; name: string; slug: string } };
  review: { publishRequestedAt: Date | null; reviewedAt: Date | null; reviewReason: string | null };
  metadata: SubmissionMetadata;
  createdAt: Date;
  updatedAt: Date;
  finishedAt: Date | null;
  progress: SubmissionProgress;
  chains: ChainResultsView[];
  scores: SubmissionScores | null;
  /** which grader(s) produced the results (SPEC §7) */
  graders: GraderUse[];
  /** the latest re-grade from stored logs and what it changed; null if never re-graded */
  lastRegrade: SubmissionRegrade | null;
  /** what this viewer may do here (the page's buttons and links) */
  actions: SubmissionActions;
};

const testCounts = (text: string, column: string): TestCounts => {
  const split = parseColumn(testSplitSchema, text, column);
  return { success: split.success.length, failure: split.failure.length, failing: split.failure };
};

type ResultRow = Awaited<ReturnType<typeof resultRows>>[number];

/** Every BugResult of the submission without its log (logs are read one at a time). */
function resultRows(submissionId: string) {
  return db.bugResult.findMany({ where: { submissionId }, omit: { log: true }, orderBy: [{ continuousId: "asc" }, { order: "asc" }] });
}

function resultView(r: ResultRow): BugResultView {
  return {
    resolved: r.resolved,
    patchApplied: r.patchApplied,
    applyMethod: r.applyMethod,
    fingerprint: r.fingerprint,
    tampered: r.tampered,
    failToPass: testCounts(r.failToPass, "BugResult.failToPass"),
    passToPass: testCounts(r.passToPass, "BugResult.passToPass"),
    exitCode: r.exitCode,
    timedOut: r.timedOut,
    durationS: r.durationS,
  };
}

export async function getSubmissionForViewer(viewer: Viewer | null, id: string): Promise<SubmissionView> {
  const access = await readableSubmission(viewer, id);
  const [row, progress, rows] = await Promise.all([
    db.submission.findUniqueOrThrow({
      where: { id },
      include: { datasetVersion: { select: { version: true } }, system: { include: { team: { select: { id: true, name: true, slug: true } } } } },
    }),
    getSubmissionProgress(id),
    resultRows(id),
  ]);
  if (!progress) throw new NotFoundError("submission");
  const byKey = new Map(rows.map((r) => [`${r.continuousId}\0${r.order}`, r]));
  const chains: ChainResultsView[] = progress.jobs.map((j) => ({
    continuousId: j.continuousId,
    bugs: j.bugStates.map((b) => {
      const r = byKey.get(`${j.continuousId}\0${b.order}`);
      return { order: b.order, swebenchInstanceId: b.swebenchInstanceId, result: r ? resultView(r) : null };
    }),
  }));
  const verdicts = chains.map((c) => ({
    continuousId: c.continuousId,
    length: c.bugs.length,
    resolved: new Map(c.bugs.flatMap((b) => (b.result ? [[b.order, b.result.resolved] as const] : []))),
  }));
  const { system } = row;
  return {
    id,
    mode: modeSchema.parse(row.mode),
    status: access.status,
    visibility: access.visibility,
    datasetVersion: row.datasetVersion.version,
    system: { id: system.id, name: system.name, model: system.model, scaffold: system.scaffold, contextConfig: system.contextConfig, team: system.team },
    review: { publishRequestedAt: row.publishRequestedAt, reviewedAt: row.reviewedAt, reviewReason: row.reviewReason },
    metadata: parseColumn(submissionMetadataSchema, row.metadata, "Submission.metadata"),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    finishedAt: row.finishedAt,
    progress,
    chains,
    scores: scoreChains(modeSchema.parse(row.mode), verdicts),
    graders: graderUses(rows),
    lastRegrade: parseLastRegrade(row.lastRegrade),
    actions: availableActions(access.role, access.visibility, access.status),
  };
}

// ---------------------------------------------------------------- the JSON API

/** GET /api/v1/submissions/[id] and what the progress panel polls: JSON-safe (dates as ISO strings). */
export function submissionJson(v: SubmissionView) {
  const iso = (d: Date | null) => d?.toISOString() ?? null;
  // why a chain failed may carry a stack trace: for the team and reviewers only
  const insider = v.actions.predictions;
  return {
    id: v.id,
    status: v.status,
    visibility: v.visibility,
    mode: v.mode,
    datasetVersion: v.datasetVersion,
    system: { name: v.system.name, model: v.system.model, scaffold: v.system.scaffold, contextConfig: v.system.contextConfig, team: v.system.team.name },
    createdAt: v.createdAt.toISOString(),
    finishedAt: iso(v.finishedAt),
    progress: {
      chains: v.progress.chains,
      bugs: v.progress.bugs,
      jobs: v.progress.jobs.map((j) => ({
        continuousId: j.continuousId,
        status: j.status,
        attempts: j.attempts,
        lastError: insider ? j.lastError : null,
        startedAt: iso(j.startedAt),
        finishedAt: iso(j.finishedAt),
        bugs: j.bugs,
        bugsGraded: j.bugsGraded,
        bugsResolved: j.bugsResolved,
        bugStates: j.bugStates,
      })),
    },
    scores: v.scores,
    graders: v.graders,
    lastRegrade: v.lastRegrade,
  };
}
export type SubmissionJson = ReturnType<typeof submissionJson>;

// ---------------------------------------------------------------- downloads

/** The submission's graded bugs as SPEC §3 results.jsonl lines (the evaluator's own serializer), chain by chain. */
export async function resultsJsonl(viewer: Viewer | null, id: string): Promise<string> {
  await readableSubmission(viewer, id);
  const run = await runResultsForSubmission(id);
  return (run?.bugs ?? []).map(resultLine).join("");
}

const fileSafe = (s: string) => s.replace(/[^A-Za-z0-9._-]/g, "_");

/** One graded bug's full test log, with the name to download it under. */
export async function bugLog(viewer: Viewer | null, id: string, continuousId: string, order: number): Promise<{ filename: string; text: string }> {
  await readableSubmission(viewer, id);
  const row = Number.isInteger(order)
    ? await db.bugResult.findUnique({ where: { submissionId_continuousId_order: { submissionId: id, continuousId, order } }, select: { log: true } })
    : null;
  if (!row) throw new NotFoundError(`log of bug ${order} of ${continuousId}`);
  return { filename: `${fileSafe(id)}-${fileSafe(continuousId)}-${order}.log`, text: row.log };
}

/** The team's predictions as a predictions JSONL file (SPEC §2): the team and reviewers only. */
export async function predictionsJsonl(viewer: Viewer | null, id: string): Promise<string> {
  const access = await readableSubmission(viewer, id);
  if (!access.role.team && !access.role.reviewer) throw new NotFoundError("predictions");
  const sub = await db.submission.findUniqueOrThrow({
    where: { id },
    select: {
      system: { select: { name: true } },
      jobs: { select: { continuousId: true }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] },
      predictions: { orderBy: [{ continuousId: "asc" }, { order: "asc" }] },
    },
  });
  const chainOrder = new Map(sub.jobs.map((j, i) => [j.continuousId, i]));
  const sorted = [...sub.predictions].sort((a, b) => (chainOrder.get(a.continuousId) ?? 0) - (chainOrder.get(b.continuousId) ?? 0) || a.order - b.order);
  return sorted
    .map((p) =>
      JSON.stringify({
        continuous_id: p.continuousId,
        swebench_instance_id: p.swebenchInstanceId,
        order: p.order,
        model_name_or_path: sub.system.name,
        model_patch: p.modelPatch,
        ...parseColumn(predictionMetaSchema, p.meta, "Prediction.meta"),
      }) + "\n",
    )
    .join("");
}
