/**
 * A bug's failure page (SPEC §6 "per chain and bug, Oracle vs
 * Seq outcome, fingerprint, cause with evidence, agent patch vs gold patch,
 * failing tests, logs"), for whoever may read the submission
 * (readableSubmission: NotFoundError otherwise).
 *
 * What else it shows follows the same rules:
 * - the same system's other mode is shown only if the viewer may read that
 *   submission too (and a chain error, which tells the Oracle outcome, only then);
 * - the agent's patch is the team's prediction: the team and reviewers only,
 *   even on a public submission (as predictions.jsonl).
 */
import { causeSchema, type Cause } from "@/core/analysis";
import { touchedFiles } from "@/core/diff";
import { canReadSubmission, type Viewer } from "@/lib/authz";
import { db } from "@/db/client";
import { NotFoundError } from "@/core/errors";
import { diffFiles, markSharedAdditions, type DiffFileView } from "@/lib/submissions/diff-view";
import { CLOSE_TO_GOLD } from "@/core/schemas/manifest";
import { getVersionRules } from "@/lib/dataset/data";
import { fileSetRows, type FileSetRow } from "@/lib/submissions/failure-view";
import { logExcerpt, type LogExcerpt } from "@/lib/submissions/log-excerpt";
import { failurePageUrl, logDownloadUrl, logPageUrl } from "@/lib/submissions/urls";
import {
  fileListSchema,
  parseColumn,
  submissionStatusSchema,
  testIdsSchema,
  testSplitSchema,
  visibilitySchema,
  type SubmissionStatus,
  type Visibility,
} from "@/core/schemas/columns";
import { modeSchema, predictionMetaSchema, type Mode, type PredictionMeta } from "@/core/schemas/prediction";
import { fingerprintSchema, type Fingerprint } from "@/core/schemas/results";
import { storedChainErrorsSchema } from "@/lib/leaderboard/aggregates";
import { readableSubmission } from "@/lib/submissions/access";
import { bugTrajectory, carriedPatches, type CarriedPatch, type TrajectoryView } from "@/lib/submissions/trajectory-view";
import { STORED_PATCH, storedPatch } from "@/lib/submissions/staged-texts";

export type FailingTest = { id: string; list: "FAIL_TO_PASS" | "PASS_TO_PASS"; excerpt: LogExcerpt | null };

export type BugOutcomeView = {
  resolved: boolean;
  patchApplied: boolean;
  applyMethod: string | null;
  fingerprint: Fingerprint | null;
  tampered: boolean;
  timedOut: boolean;
  exitCode: number | null;
  durationS: number;
  modelFiles: string[];
  goldFiles: string[];
  discardedFiles: string[];
  failing: FailingTest[];
  /** tests of the two lists that passed */
  passing: { failToPass: number; passToPass: number };
};

/** One submission's side of the page: its outcome on this bug (null: not graded). */
export type FailureSide = {
  submissionId: string;
  mode: Mode;
  visibility: Visibility;
  status: SubmissionStatus;
  outcome: BugOutcomeView | null;
  /** the full log, when graded: as a page with line anchors, and as a file */
  log: { pageUrl: string; downloadUrl: string } | null;
  /** this bug's failure page for that submission */
  pageUrl: string;
};

export type ChainErrorView = {
  /** the Seq / Seq+Mem submission the chain error belongs to */
  seqSubmissionId: string;
  cause: Cause;
  fingerprint: Fingerprint | null;
  evidence: { priorOrder: number; file: string; kind: "overshoot" | "undershoot"; strong: boolean; pageUrl: string }[];
};

export type FailurePage = {
  submission: {
    id: string;
    visibility: Visibility;
    datasetVersion: string;
    system: { name: string; model: string; scaffold: string; contextConfig: string; team: { name: string; slug: string } };
  };
  bug: {
    continuousId: string;
    order: number;
    chainLength: number;
    repo: string;
    swebenchInstanceId: string;
    problemStatement: string;
    date: string;
    commitHash: string;
    failToPass: number;
    passToPass: number;
    goldFiles: string[];
    testFiles: string[];
  };
  /** this submission first, then the same system's other mode when the viewer may read it */
  sides: [FailureSide, ...FailureSide[]];
  chainError: ChainErrorView | null;
  /** gold files against each side's agent files */
  fileSets: FileSetRow[];
  goldDiff: DiffFileView[];
  /** SPEC §7: this bug's similarity to gold (null when gold adds no code or none was stored) and the version's close-to-gold threshold */
  goldSimilarity: { value: number | null; threshold: number };
  /** the agent's patch as a diff; hidden from visitors; null text = no prediction for this bug */
  agentPatch: { visible: false } | { visible: true; files: DiffFileView[]; empty: boolean };
  /** this submission's verdict on every bug of the chain, for navigation */
  chain: { order: number; swebenchInstanceId: string; resolved: boolean | null }[];
  /** what the agent spent on this bug, as its prediction line reported it (tokens, steps, time, cost); null without a line */
  effort: PredictionMeta | null;
  /** the agent's trajectory of this bug, as far as the viewer may read it */
  trajectory: TrajectoryView;
  /** Seq and Seq+Mem: the earlier bugs' patches and whether each is in this bug's start state; null in Oracle */
  carried: CarriedPatch[] | null;
};

type ResultRow = NonNullable<Awaited<ReturnType<typeof resultRow>>>;

function resultRow(submissionId: string, continuousId: string, order: number) {
  return db.bugResult.findUnique({ where: { submissionId_continuousId_order: { submissionId, continuousId, order } } });
}

function outcomeView(r: ResultRow): BugOutcomeView {
  const f2p = parseColumn(testSplitSchema, r.failToPass, "BugResult.failToPass");
  const p2p = parseColumn(testSplitSchema, r.passToPass, "BugResult.passToPass");
  const failing = (ids: string[], list: FailingTest["list"]): FailingTest[] => ids.map((id) => ({ id, list, excerpt: logExcerpt(r.log, id) }));
  const files = (text: string, column: string) => parseColumn(fileListSchema, text, column);
  return {
    resolved: r.resolved,
    patchApplied: r.patchApplied,
    applyMethod: r.applyMethod,
    fingerprint: r.fingerprint === null ? null : fingerprintSchema.parse(r.fingerprint),
    tampered: r.tampered,
    timedOut: r.timedOut,
    exitCode: r.exitCode,
    durationS: r.durationS,
    modelFiles: files(r.modelFiles, "BugResult.modelFiles"),
    goldFiles: files(r.goldFiles, "BugResult.goldFiles"),
    discardedFiles: files(r.discardedFiles, "BugResult.discardedFiles"),
    failing: [...failing(f2p.failure, "FAIL_TO_PASS"), ...failing(p2p.failure, "PASS_TO_PASS")],
    passing: { failToPass: f2p.success.length, passToPass: p2p.success.length },
  };
}

type SubmissionFacts = { id: string; mode: string; visibility: string; status: string };

async function side(s: SubmissionFacts, continuousId: string, order: number): Promise<FailureSide> {
  const r = await resultRow(s.id, continuousId, order);
  return {
    submissionId: s.id,
    mode: modeSchema.parse(s.mode),
    visibility: visibilitySchema.parse(s.visibility),
    status: submissionStatusSchema.parse(s.status),
    outcome: r ? outcomeView(r) : null,
    log: r ? { pageUrl: logPageUrl(s.id, continuousId, order), downloadUrl: logDownloadUrl(s.id, continuousId, order) } : null,
    pageUrl: failurePageUrl(s.id, continuousId, order),
  };
}

/**
 * The submission this one is compared with: for Seq / Seq+Mem the Oracle one its
 * chain errors were analysed against (else the newest completed Oracle one); for
 * Oracle the newest completed Seq one (else Seq+Mem). Only one the viewer may read.
 */
async function counterpart(viewer: Viewer | null, sub: { id: string; mode: Mode; systemId: string; datasetVersionId: string; teamId: string }): Promise<SubmissionFacts | null> {
  const readable = (s: { visibility: string }) => canReadSubmission(viewer, { teamId: sub.teamId, visibility: visibilitySchema.parse(s.visibility) });
  const select = { id: true, mode: true, visibility: true, status: true } as const;
  if (sub.mode !== "oracle") {
    const analysis = await db.chainErrorAnalysis.findUnique({ where: { seqSubmissionId: sub.id }, select: { oracleSubmission: { select } } });
    if (analysis && readable(analysis.oracleSubmission)) return analysis.oracleSubmission;
  }
  const modes: Mode[] = sub.mode === "oracle" ? ["seq", "seq_mem"] : ["oracle"];
  for (const mode of modes) {
    const candidates = await db.submission.findMany({
      where: { systemId: sub.systemId, datasetVersionId: sub.datasetVersionId, mode, status: "completed" },
      orderBy: [{ finishedAt: "desc" }, { id: "desc" }],
      select,
    });
    const found = candidates.find(readable);
    if (found) return found;
  }
  return null;
}

/** The chain error of this bug in the Seq side's analysis against the Oracle side, when both are on the page. */
async function chainErrorFor(sides: FailureSide[], continuousId: string, order: number): Promise<ChainErrorView | null> {
  const seq = sides.find((s) => s.mode !== "oracle");
  const oracle = sides.find((s) => s.mode === "oracle");
  if (!seq || !oracle) return null;
  const analysis = await db.chainErrorAnalysis.findUnique({ where: { seqSubmissionId: seq.submissionId }, select: { oracleSubmissionId: true, chainErrors: true } });
  if (!analysis || analysis.oracleSubmissionId !== oracle.submissionId) return null;
  const error = parseColumn(storedChainErrorsSchema, analysis.chainErrors, "ChainErrorAnalysis.chainErrors").find(
    (e) => e.continuous_id === continuousId && e.order === order,
  );
  if (!error) return null;
  return {
    seqSubmissionId: seq.submissionId,
    cause: causeSchema.parse(error.cause),
    fingerprint: error.fingerprint,
    evidence: error.evidence.map((e) => ({
      priorOrder: e.prior_order,
      file: e.file,
      kind: e.kind,
      strong: e.strong,
      pageUrl: failurePageUrl(seq.submissionId, continuousId, e.prior_order),
    })),
  };
}

/** The agent's patch as the failure page shows it to those who may read it. */
/** The gold patch and the agent's (when visible), with the added lines both have marked. */
function patches(gold: string, agent: FailurePage["agentPatch"]): Pick<FailurePage, "goldDiff" | "agentPatch"> {
  const goldDiff = diffFiles(gold);
  if (!agent.visible) return { goldDiff, agentPatch: agent };
  const [files, marked] = markSharedAdditions(agent.files, goldDiff);
  return { goldDiff: marked, agentPatch: { ...agent, files } };
}

function agentPatchView(patch: string): FailurePage["agentPatch"] {
  return { visible: true, files: diffFiles(patch), empty: patch.trim() === "" };
}

export async function getFailurePage(viewer: Viewer | null, submissionId: string, continuousId: string, order: number, trajectoryPage = 1): Promise<FailurePage> {
  const access = await readableSubmission(viewer, submissionId);
  // a held-out chain's bugs do not exist for a viewer who may not see them (SPEC §8)
  if (access.hidden.has(continuousId)) throw new NotFoundError(`bug ${order} of ${continuousId}`);
  const sub = await db.submission.findUniqueOrThrow({
    where: { id: submissionId },
    select: {
      id: true,
      mode: true,
      visibility: true,
      status: true,
      systemId: true,
      datasetVersionId: true,
      datasetVersion: { select: { version: true } },
      system: { select: { name: true, model: true, scaffold: true, contextConfig: true, team: { select: { name: true, slug: true } } } },
    },
  });
  const chain = await db.chain.findUnique({
    where: { datasetVersionId_continuousId: { datasetVersionId: sub.datasetVersionId, continuousId } },
    select: { repo: true, bugs: { orderBy: { order: "asc" }, select: { order: true, swebenchInstanceId: true } } },
  });
  const bug = Number.isInteger(order)
    ? await db.bug.findFirst({ where: { order, chain: { continuousId, datasetVersionId: sub.datasetVersionId } } })
    : null;
  if (!chain || !bug) throw new NotFoundError(`bug ${order} of ${continuousId}`);

  const mode = modeSchema.parse(sub.mode);
  const other = await counterpart(viewer, { id: sub.id, mode, systemId: sub.systemId, datasetVersionId: sub.datasetVersionId, teamId: access.teamId });
  const sides = await Promise.all([side(sub, continuousId, order), ...(other ? [side(other, continuousId, order)] : [])]);
  const mayReadPatch = access.role.team || access.role.reviewer;
  const [chainError, prediction, verdicts, trajectory, carried, rules] = await Promise.all([
    chainErrorFor(sides, continuousId, order),
    // the figures are public like the row's costs; the patch is for the team and reviewers only
    db.prediction.findUnique({ where: { submissionId_continuousId_order: { submissionId, continuousId, order } }, select: { meta: true, modelPatch: mayReadPatch, patchText: mayReadPatch ? STORED_PATCH.patchText : false } }),
    db.bugResult.findMany({ where: { submissionId, continuousId }, select: { order: true, resolved: true, goldSimilarity: true } }),
    bugTrajectory(viewer, { id: sub.id, teamId: access.teamId, visibility: access.visibility }, continuousId, order, trajectoryPage),
    carriedPatches(submissionId, mode, continuousId, chain.bugs.filter((b) => b.order < order)),
    getVersionRules(sub.datasetVersion.version),
  ]);
  // the grader's record of the gold files when there is one; the same files as the gold patch names
  const goldFiles = sides[0].outcome?.goldFiles ?? touchedFiles(bug.patch);
  const resolvedAt = new Map(verdicts.map((v) => [v.order, v.resolved]));
  return {
    submission: { id: sub.id, visibility: access.visibility, datasetVersion: sub.datasetVersion.version, system: sub.system },
    bug: {
      continuousId,
      order,
      chainLength: chain.bugs.length,
      repo: chain.repo,
      swebenchInstanceId: bug.swebenchInstanceId,
      problemStatement: bug.problemStatement,
      date: bug.date,
      commitHash: bug.commitHash,
      failToPass: parseColumn(testIdsSchema, bug.failToPass, "Bug.failToPass").length,
      passToPass: parseColumn(testIdsSchema, bug.passToPass, "Bug.passToPass").length,
      goldFiles,
      testFiles: touchedFiles(bug.testPatch),
    },
    sides: sides as FailurePage["sides"],
    chainError,
    // a side that was never graded has touched nothing
    fileSets: fileSetRows(goldFiles, sides.map((s) => s.outcome?.modelFiles ?? [])),
    ...patches(bug.patch, mayReadPatch ? agentPatchView(prediction ? storedPatch({ modelPatch: prediction.modelPatch ?? "", patchText: prediction.patchText ?? null }) : "") : { visible: false }),
    goldSimilarity: { value: verdicts.find((v) => v.order === order)?.goldSimilarity ?? null, threshold: rules?.close_to_gold ?? CLOSE_TO_GOLD },
    chain: chain.bugs.map((b) => ({ order: b.order, swebenchInstanceId: b.swebenchInstanceId, resolved: resolvedAt.get(b.order) ?? null })),
    effort: prediction ? parseColumn(predictionMetaSchema, prediction.meta, "Prediction.meta") : null,
    trajectory,
    carried,
  };
}
