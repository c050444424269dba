/**
 * One submission as a viewer may see it (SPEC §6): the submission page and its
 * JSON API (downloads: ./downloads.ts; who may read: ./access.ts; scores:
 * ./scores.ts). Every entry point takes
 * the viewer and answers NotFoundError for what they may not read, so a page,
 * a route and a test all ask the same question (lib/authz.ts):
 * - the submission, its results and logs: canReadSubmission (public to all;
 *   otherwise the team and reviewers);
 * - its predictions (the team's patches): the team and reviewers only, even once public.
 * Scores reuse core/scoring; results.jsonl lines reuse the evaluator's writer.
 * Held-out chains (SPEC §8) are left out of everything per chain for all but
 * reviewers: the chains, their progress, re-grade changes and shortcut flags;
 * the scores are then the public chains'.
 */
import { canReadSubmission, canReadTrajectories, type Viewer } from "@/lib/authz";
import { shortcutHitsSchema, shortcutKinds, type ShortcutKind } from "@/core/trajectory/shortcuts";
import { failurePageUrl } from "@/lib/submissions/urls";
import { db } from "@/db/client";
import { NotFoundError } from "@/core/errors";
import {
  parseColumn,
  submissionMetadataSchema,
  submissionStatusSchema,
  testSplitSchema,
  visibilitySchema,
  type SubmissionMetadata,
  type SubmissionStatus,
  type Visibility,
} from "@/core/schemas/columns";
import { modeSchema, type Mode } from "@/core/schemas/prediction";
import { ruleBreachesSchema, runManifestSchema, type RuleBreach, type RunManifest } from "@/core/schemas/manifest";
import { availableActions, type SubmissionActions } from "@/lib/submissions/visibility";
import { graderUses, type GraderUse } from "@/lib/submissions/grader-view";
import { parseLastRegrade, type SubmissionRegrade } from "@/lib/submissions/regrade";
import { getSubmissionProgress, type SubmissionProgress } from "@/lib/submissions/progress";
import { readableSubmission } from "@/lib/submissions/access";
import { entryRunsWhere } from "@/lib/submissions/data";
import { scoreChains, type SubmissionScores } from "@/lib/submissions/scores";

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
  /** the evaluations reviewers' re-runs replaced, oldest first (their results kept, not shown as the submission's) */
  earlierAttempts: EarlierAttemptView[];
  /** what this viewer may do here (the page's buttons and links) */
  actions: SubmissionActions;
  /**
   * Repeated runs (SPEC §7): this submission's number in its entry and the
   * entry's runs this viewer may read, in run order (just this one for a single run).
   */
  entry: { run: number; runs: { id: string; run: number; status: SubmissionStatus; visibility: Visibility }[] };
  /** how the predictions were produced, as the team declared it; null when no manifest was sent */
  manifest: RunManifest | null;
  /** the dataset version's rules the manifest broke, flagged on upload */
  ruleBreaches: RuleBreach[];
  /** SPEC §7: the uploaded trajectories and the bugs the shortcut scan flagged; null when none were sent */
  trajectories: SubmissionTrajectories | null;
};

export type EarlierAttemptView = { attempt: number; status: string; finishedAt: Date | null; replacedAt: Date; bugsGraded: number; bugsResolved: number };

export type SubmissionTrajectories = {
  bugs: number;
  /** the team's choice: public once the submission is */
  public: boolean;
  /** this viewer may read them (canReadTrajectories) */
  readable: boolean;
  /** this viewer may change the choice: the team */
  canChoose: boolean;
  flagged: { continuousId: string; order: number; kinds: ShortcutKind[]; url: string }[];
};

async function submissionTrajectories(viewer: Viewer | null, access: { teamId: string; visibility: Visibility; role: { team: boolean } }, id: string, shown: boolean, hidden: ReadonlySet<string>): Promise<SubmissionTrajectories | null> {
  const rows = (await db.trajectory.findMany({ where: { submissionId: id }, select: { continuousId: true, order: true, shortcuts: true }, orderBy: [{ continuousId: "asc" }, { order: "asc" }] })).filter((r) => !hidden.has(r.continuousId));
  if (rows.length === 0) return null;
  return {
    bugs: rows.length,
    public: shown,
    readable: canReadTrajectories(viewer, { teamId: access.teamId, visibility: access.visibility, trajectoriesPublic: shown }),
    canChoose: access.role.team,
    flagged: rows.flatMap((r) => {
      const kinds = shortcutKinds(parseColumn(shortcutHitsSchema, r.shortcuts, "Trajectory.shortcuts"));
      return kinds.length ? [{ continuousId: r.continuousId, order: r.order, kinds, url: `${failurePageUrl(id, r.continuousId, r.order)}#trajectory-heading` }] : [];
    }),
  };
}

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
  const [row, allProgress, allRows] = await Promise.all([
    db.submission.findUniqueOrThrow({
      where: { id },
      include: { datasetVersion: { select: { version: true } }, system: { include: { team: { select: { id: true, name: true, slug: true } } } } },
    }),
    getSubmissionProgress(id),
    resultRows(id),
  ]);
  if (!allProgress) throw new NotFoundError("submission");
  const { hidden } = access;
  const progress = { ...allProgress, jobs: allProgress.jobs.filter((j) => !hidden.has(j.continuousId)) };
  const rows = allRows.filter((r) => !hidden.has(r.continuousId));
  const regrade = parseLastRegrade(row.lastRegrade);
  const earlierAttempts = await db.earlierAttempt.findMany({
    where: { submissionId: id },
    orderBy: { attempt: "asc" },
    select: { attempt: true, status: true, finishedAt: true, replacedAt: true, bugsGraded: true, bugsResolved: true },
  });
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
    lastRegrade: regrade && { ...regrade, changed: regrade.changed.filter((c) => !hidden.has(c.continuous_id)), failures: regrade.failures.filter((f) => !hidden.has(f.continuous_id)) },
    earlierAttempts,
    actions: availableActions(access.role, access.visibility, access.status),
    entry: { run: row.run, runs: await entryRuns(viewer, row.runOfId ?? row.id, system.team.id) },
    manifest: row.manifest === null ? null : parseColumn(runManifestSchema, row.manifest, "Submission.manifest"),
    ruleBreaches: parseColumn(ruleBreachesSchema, row.ruleBreaches, "Submission.ruleBreaches"),
    trajectories: await submissionTrajectories(viewer, access, id, row.trajectoriesPublic, hidden),
  };
}

/** The runs of an entry (by run 1's id) the viewer may read, in run order. */
async function entryRuns(viewer: Viewer | null, first: string, teamId: string): Promise<SubmissionView["entry"]["runs"]> {
  const rows = await db.submission.findMany({ where: entryRunsWhere(first), orderBy: { run: "asc" }, select: { id: true, run: true, status: true, visibility: true } });
  return rows.flatMap((r) => {
    const visibility = visibilitySchema.parse(r.visibility);
    return canReadSubmission(viewer, { teamId, visibility }) ? [{ id: r.id, run: r.run, status: submissionStatusSchema.parse(r.status), visibility }] : [];
  });
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
    run: v.entry.run,
    runs: v.entry.runs.map((r) => ({ id: r.id, run: r.run, status: r.status, visibility: r.visibility })),
    manifest: v.manifest,
    rule_breaches: v.ruleBreaches,
    trajectories: v.trajectories && {
      bugs: v.trajectories.bugs,
      public: v.trajectories.public,
      shortcut_flags: v.trajectories.flagged.map((f) => ({ continuous_id: f.continuousId, order: f.order, kinds: f.kinds })),
    },
  };
}
export type SubmissionJson = ReturnType<typeof submissionJson>;
