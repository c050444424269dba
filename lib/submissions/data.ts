/**
 * Submissions and their predictions (SPEC §2, §6).
 *
 * Invariants: everything is validated before anything is stored (loadPredictions
 * names line and field), and a submission, its predictions and one queued
 * EvaluationJob per chain are written in one transaction, so a rejected upload
 * stores nothing and an accepted one is never left without its jobs.
 *
 * No `import "server-only"`, as in datasets.ts: the CLI and the worker load it.
 */
import { basename } from "node:path";
import { loadPredictions, type Predictions } from "@/evaluator/dataset";
import type { PredictionLimits } from "@/evaluator/dataset/predictions";
import { cancelEvaluation, enqueueChains, type CancelOutcome } from "@/jobs/queue/lifecycle";
import { textBytes } from "@/jobs/queue/results";
import type { Tx } from "@/db/tx";
import { db, isUniqueViolation } from "@/db/client";
import { Prisma } from "@/db/generated/prisma/client";
import { FieldError } from "@/core/errors";
import { RUN_OF_FIELD } from "@/lib/submissions/request";
import { utf8Bytes } from "@/lib/submissions/storage";
import { ruleBreachesSchema, runManifestSchema, versionRulesSchema, type RuleBreach, type RunManifest, type TestEditPolicy } from "@/core/schemas/manifest";
import { columnJson, parseColumn, submissionMetadataSchema, splitSchema, type Split, type SubmissionMetadata } from "@/core/schemas/columns";
import type { Chain } from "@/core/schemas/dataset";
import { META_FIELDS, predictionLineSchema, predictionMetaSchema, type Mode, type PredictionLine, type PredictionMeta } from "@/core/schemas/prediction";
import { getChain, getVersionMini } from "@/lib/dataset/data";
import { shortcutHitsSchema, shortcutSummarySchema } from "@/core/trajectory/shortcuts";
import { trajectoryOutcomeSchema } from "@/core/schemas/trajectory";
import { isStaged, STORED_PATCH, storedPatch } from "@/lib/submissions/staged-texts";
import { timelinePagesSchema, type CheckedTrajectories, type TrajectoryCheck, type TrajectoryRow } from "@/lib/submissions/trajectories";
import { ensureSystem } from "@/lib/teams/systems";

export { getSubmissionProgress, type ChainJobProgress, type SubmissionProgress } from "@/lib/submissions/progress";

/** Refused as a whole (unknown dataset version or chain, predictions for another dataset). Nothing was stored. */
export class SubmissionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SubmissionError";
  }
}

/** The team `createSubmission` files a submission under when given no system. */
export const LOCAL_TEAM = "local";

export type NewSubmission = {
  /**
   * When absent, the system `systemName` of team `teamName` (created if need be, once the
   * predictions passed validation); they default to the predictions' model_name_or_path
   * (else the file name) and LOCAL_TEAM.
   */
  systemId?: string;
  systemName?: string;
  teamName?: string;
  datasetVersion: string;
  mode: Mode;
  /** a predictions JSONL file, validated here, or predictions loadPredictions already gave */
  predictions: string | Predictions;
  /** how a predictions file is read and checked: the portal's uploads off the request thread (loadPredictionsOffThread) */
  load?: typeof loadPredictions;
  /** size limits for a predictions file read here (the portal's upload limits); default none */
  limits?: PredictionLimits;
  /** grade only these chains (default: every chain of the version) */
  chainIds?: string[] | null;
  /** SPEC §8: "mini" grades the version's Mini split's chains (no chainIds), its rows on their own board */
  split?: Split;
  metadata?: SubmissionMetadata;
  submittedById?: string | null;
  /**
   * Repeated runs (SPEC §7): a submission of an entry (any of its runs) this one
   * is the next run of; it must be of the same system, dataset version and mode,
   * over the same chains.
   */
  runOf?: string | null;
  /** the run manifest (how the predictions were produced), and the version's rules it broke that only flag */
  manifest?: RunManifest | null;
  ruleBreaches?: RuleBreach[];
  /** per-bug trajectories (SPEC §7) and how they are checked against the chains; `public`: the team shows them once the submission is published */
  trajectories?: { check: TrajectoryCheck; public: boolean } | null;
  /**
   * Runs first inside the storing transaction and may throw to refuse (the daily
   * quota, the storage limit): a check there cannot be raced by another upload of
   * the same team. `bytes`: what this upload would store.
   */
  admit?: (tx: Tx, bytes: number) => Promise<void>;
};

/** `run`: its number in its entry (1 unless it was sent as the next run of one) */
export type CreatedSubmission = { id: string; run: number; systemId: string; chains: number; predictions: number; warnings: string[] };

async function versionChains(version: string): Promise<{ datasetVersionId: string; chains: Chain[]; testEdits: TestEditPolicy }> {
  const row = await db.datasetVersion.findUnique({
    where: { version },
    select: { id: true, rules: true, chains: { select: { continuousId: true }, orderBy: { id: "asc" } } },
  });
  if (!row) throw new SubmissionError(`unknown dataset version ${version}`);
  const chains = await Promise.all(row.chains.map((c) => getChain(version, c.continuousId)));
  const testEdits = parseColumn(versionRulesSchema, row.rules, "DatasetVersion.rules").test_edits ?? "keep";
  return { datasetVersionId: row.id, chains: chains.filter((c): c is Chain => c !== null), testEdits };
}

/** Predictions parsed elsewhere must still fit this version: every chain known, every bug where the dataset has it. */
function checkParsedPredictions(predictions: Predictions, chains: Chain[], version: string): void {
  const byId = new Map(chains.map((c) => [c.continuous_id, c]));
  for (const [chainId, bugs] of predictions.byChain) {
    const chain = byId.get(chainId);
    if (!chain) throw new SubmissionError(`predictions name chain ${chainId}, which dataset version ${version} does not have`);
    for (const [order, p] of bugs) {
      if (chain.bug_fixes[order - 1]?.swebench_instance_id !== p.swebench_instance_id) {
        throw new SubmissionError(`predictions put ${p.swebench_instance_id} at position ${order} of ${chainId}; dataset version ${version} does not`);
      }
    }
  }
}

/** A Mini split submission's chains: the version's Mini, whole. */
async function miniChains(version: string, ids: string[] | null | undefined): Promise<string[]> {
  if (ids) throw new FieldError("chains", "a Mini split submission is graded on the Mini's chains: leave chains out");
  const mini = await getVersionMini(version);
  if (!mini) throw new FieldError("split", `dataset version ${version} has no Mini split`);
  return mini.chains;
}

function selectChains(chains: Chain[], ids: string[] | null | undefined, version: string): string[] {
  const all = chains.map((c) => c.continuous_id);
  if (!ids) return all;
  const unknown = ids.filter((id) => !all.includes(id));
  if (unknown.length) throw new SubmissionError(`dataset version ${version} has no chain(s) ${unknown.join(", ")}`);
  return [...new Set(ids)];
}

/**
 * What a bug's trajectory tells of its effort (SPEC §7 "Efficiency"): the
 * agent's reported metrics, the outcome's wall time, and the steps its log
 * declares (or its tool calls). A prediction line's own figures come first.
 */
function trajectoryMeta(t: TrajectoryRow | undefined): PredictionMeta {
  if (!t) return {};
  // the agent's own count of its turns, when it reported one, before the log's
  return { ...(t.steps > 0 ? { turns: t.steps } : {}), ...(t.outcome ? { wall_seconds: t.outcome.wall_seconds } : {}), ...(t.outcome?.metrics ?? {}) };
}

function predictionRows(predictions: Predictions, chainIds: string[], trajectories: TrajectoryRow[]) {
  const trajectoryOf = new Map(trajectories.map((t) => [`${t.continuousId}\u0000${t.order}`, t]));
  return chainIds.flatMap((chainId) =>
    [...(predictions.byChain.get(chainId) ?? new Map<number, PredictionLine>())].map(([order, p]) => {
      const fromTrajectory = trajectoryMeta(trajectoryOf.get(`${chainId}\u0000${order}`));
      return {
        continuousId: chainId,
        swebenchInstanceId: p.swebench_instance_id,
        order,
        modelPatch: p.model_patch,
        /** where the upload-checking thread wrote a large model_patch (then modelPatch is "") */
        staged: predictions.stagedPatches?.[`${chainId}\u0000${order}`] ?? null,
        meta: columnJson(predictionMetaSchema, Object.fromEntries(META_FIELDS.flatMap((f) => (p[f] ?? fromTrajectory[f]) === undefined ? [] : [[f, p[f] ?? fromTrajectory[f]]]))),
      };
    }),
  );
}

/**
 * Validates the predictions against the dataset version (InputError naming line
 * and field; SubmissionError for the rest), then stores the submission, its
 * predictions and a queued job per chain in one transaction.
 */
export async function createSubmission(input: NewSubmission): Promise<CreatedSubmission> {
  const { datasetVersionId, chains, testEdits } = await versionChains(input.datasetVersion);
  const predictions =
    typeof input.predictions === "string" ? await (input.load ?? loadPredictions)(input.predictions, chains, input.limits) : input.predictions;
  if (typeof input.predictions !== "string") checkParsedPredictions(predictions, chains, input.datasetVersion);
  // the texts the upload-checking thread staged go in the end, but for the logs a stored upload's trajectories name: a refused upload keeps none
  const staged = Object.values(predictions.stagedPatches ?? {});
  try {
    // the next run of an entry is on its split unless the upload names one
    const split = input.split ?? (input.runOf ? splitSchema.catch("full").parse((await db.submission.findUnique({ where: { id: input.runOf }, select: { split: true } }))?.split) : "full");
    const chainIds = split === "mini" ? await miniChains(input.datasetVersion, input.chainIds) : selectChains(chains, input.chainIds, input.datasetVersion);
    const metadata = columnJson(submissionMetadataSchema, input.metadata ?? {});
    const trajectories = input.trajectories ? await input.trajectories.check(chains, chainIds, input.datasetVersion) : null;
    staged.push(...(trajectories?.rows ?? []).flatMap((r) => (isStaged(r.log) ? [r.log.staged] : [])));
    const rows = predictionRows(predictions, chainIds, trajectories?.rows ?? []);
    const systemId =
      input.systemId ??
      (await ensureSystem({
        teamName: input.teamName ?? LOCAL_TEAM,
        name: input.systemName ?? predictions.system ?? basename(predictions.path).replace(/\.jsonl?$/, ""),
      }));
    // what the upload stores: the rows' texts here, and the large ones the checking thread staged, counted where they lie
    const uploadBytes = textBytes(rows) + textBytes(trajectories?.rows ?? []) + (await stagedBytes(staged));
    const { id, run } = await db.$transaction(
      async (tx) => {
        await input.admit?.(tx, uploadBytes);
        const entry = input.runOf ? await nextRun(tx, input.runOf, { systemId, datasetVersionId, mode: input.mode, chainIds }) : { runOfId: null, run: 1 };
        const submission = await tx.submission.create({
          data: {
            systemId,
            datasetVersionId,
            mode: input.mode,
            metadata,
            submittedById: input.submittedById ?? null,
            ...entry,
            manifest: input.manifest ? columnJson(runManifestSchema, input.manifest) : null,
            ruleBreaches: columnJson(ruleBreachesSchema, input.ruleBreaches ?? []),
            // the version's policy now: a later change of rules does not change how this one is replayed
            testEditPolicy: testEdits,
            split,
            trajectoriesPublic: input.trajectories?.public ?? false,
            uploadBytes,
          },
          select: { id: true, run: true },
        });
        await storePredictions(tx, submission.id, rows);
        if (trajectories) await storeTrajectories(tx, submission.id, trajectories);
        await enqueueChains(tx, submission.id, chainIds);
        return submission;
      },
      { maxWait: 30_000, timeout: 120_000 },
    ).catch((e: unknown) => {
      if (input.runOf && isUniqueViolation(e)) throw new FieldError(RUN_OF_FIELD, "another run of this entry was added at the same moment: send this one again");
      throw e;
    });
    return { id, run, systemId, chains: chainIds.length, predictions: rows.length, warnings: [...predictions.warnings, ...(trajectories?.warnings ?? [])] };
  } finally {
    if (staged.length) await db.stagedText.deleteMany({ where: { id: { in: staged }, trajectory: { is: null }, prediction: { is: null } } });
  }
}

/** The UTF-8 bytes of texts the upload-checking thread staged, summed by the database where they lie (none of them crosses this thread). */
async function stagedBytes(ids: string[]): Promise<number> {
  if (!ids.length) return 0;
  const [row] = await db.$queryRaw<{ n: bigint | number | null }[]>`SELECT SUM(${utf8Bytes(Prisma.sql`"text"`)}) AS n FROM "StagedText" WHERE "id" IN (${Prisma.join(ids)})`;
  return Number(row?.n ?? 0);
}

type PredictionRow = ReturnType<typeof predictionRows>[number];

/**
 * A submission's predictions, in the caller's transaction, in one statement: a
 * large patch stays where the upload-checking thread wrote it and its
 * prediction names it (lib/submissions/staged-texts.ts), so storing it copies
 * nothing and the commit writes small rows only.
 */
async function storePredictions(tx: Tx, submissionId: string, rows: PredictionRow[]): Promise<void> {
  // the foreign key refuses a staged patch that is gone
  await tx.prediction.createMany({ data: rows.map(({ staged, ...r }) => ({ ...r, submissionId, patchTextId: staged })) });
}

/**
 * A submission's checked trajectories and its shortcut flags, in the caller's
 * transaction. A staged log stays where the thread wrote it and the trajectory
 * names it (logTextId): copying megabytes of logs, then committing them twice
 * over, held the answering thread for hundreds of milliseconds per upload.
 */
async function storeTrajectories(tx: Tx, submissionId: string, t: CheckedTrajectories): Promise<void> {
  for (const r of t.rows) {
    const row = {
      continuousId: r.continuousId,
      order: r.order,
      outcome: r.outcome ? columnJson(trajectoryOutcomeSchema, r.outcome) : null,
      shortcuts: columnJson(shortcutHitsSchema, r.shortcuts),
      shortcutHits: r.shortcutHits,
      steps: r.steps,
      calls: r.calls,
      items: r.items,
      pages: columnJson(timelinePagesSchema, r.pages),
    };
    // the foreign key refuses a staged log that is gone
    const log = isStaged(r.log) ? { log: "", logTextId: r.log.staged } : { log: r.log };
    await tx.trajectory.create({ data: { ...row, ...log, submissionId }, select: { id: true } });
  }
  await tx.submission.update({ where: { id: submissionId }, data: { shortcuts: columnJson(shortcutSummarySchema, t.summary) } });
}

/**
 * Trajectories for a submission stored without them (the demo seed, on a
 * database seeded before the demo shipped any): checked as an upload's are;
 * false when it has some already.
 */
export async function addTrajectories(submissionId: string, check: TrajectoryCheck, shown: boolean): Promise<boolean> {
  const sub = await db.submission.findUniqueOrThrow({ where: { id: submissionId }, select: { datasetVersion: { select: { version: true } }, jobs: { select: { continuousId: true } }, _count: { select: { trajectories: true } } } });
  if (sub._count.trajectories > 0) return false;
  const { chains } = await versionChains(sub.datasetVersion.version);
  const checked = await check(chains, sub.jobs.map((j) => j.continuousId), sub.datasetVersion.version);
  await db.$transaction(async (tx) => {
    await storeTrajectories(tx, submissionId, checked);
    await tx.submission.update({ where: { id: submissionId }, data: { trajectoriesPublic: shown } });
  });
  return true;
}

/** Where-clause of an entry's runs (SPEC §7): run 1 (`first`) and the runs that name it. */
export const entryRunsWhere = (first: string) => ({ OR: [{ id: first }, { runOfId: first }] });

/** The number the next run of the entry whose run 1 is `first` gets: after its last run. */
export async function nextRunNumber(client: Tx | typeof db, first: string): Promise<number> {
  const last = await client.submission.aggregate({ where: entryRunsWhere(first), _max: { run: true } });
  return (last._max.run ?? 1) + 1;
}

/**
 * The entry a new run joins and its number: after the entry's last run. In the
 * storing transaction; two uploads racing for the same number meet the unique
 * index (runOfId, run), and the second is refused. A submission of another
 * system is answered as not found, whether it exists or not.
 */
async function nextRun(tx: Tx, runOf: string, run: { systemId: string; datasetVersionId: string; mode: Mode; chainIds: string[] }): Promise<{ runOfId: string; run: number }> {
  const of = await tx.submission.findUnique({ where: { id: runOf }, select: { id: true, runOfId: true, systemId: true, datasetVersionId: true, mode: true } });
  if (!of || of.systemId !== run.systemId) throw new FieldError(RUN_OF_FIELD, `no submission ${runOf} of this system`);
  const first = of.runOfId ?? of.id;
  if (of.datasetVersionId !== run.datasetVersionId || of.mode !== run.mode) {
    throw new FieldError(RUN_OF_FIELD, `submission ${runOf} is of another dataset version or mode: the runs of one entry share both`);
  }
  const chains = await tx.evaluationJob.findMany({ where: { submissionId: first }, select: { continuousId: true } });
  const theirs = new Set(chains.map((c) => c.continuousId));
  if (theirs.size !== run.chainIds.length || run.chainIds.some((id) => !theirs.has(id))) {
    throw new FieldError(RUN_OF_FIELD, `this upload's chains (${run.chainIds.length}) are not run 1's (${theirs.size}): the runs of one entry cover the same chains`);
  }
  return { runOfId: first, run: await nextRunNumber(tx, first) };
}

/** One chain's predictions of a submission, as replayChain takes them (order → line). */
export async function getChainPredictions(submissionId: string, continuousId: string): Promise<Map<number, PredictionLine>> {
  const rows = await db.prediction.findMany({
    where: { submissionId, continuousId },
    orderBy: { order: "asc" },
    select: { continuousId: true, swebenchInstanceId: true, order: true, meta: true, ...STORED_PATCH },
  });
  return new Map(
    rows.map((r) => [
      r.order,
      predictionLineSchema.parse({
        ...parseColumn(predictionMetaSchema, r.meta, "Prediction.meta"),
        continuous_id: r.continuousId,
        swebench_instance_id: r.swebenchInstanceId,
        order: r.order,
        model_patch: storedPatch(r),
      }),
    ]),
  );
}

/**
 * The team's cancel (jobs/queue/lifecycle.ts cancelEvaluation), for the
 * CLI and the tests. Authorization and the audit row: cancelSubmissionFor
 * (lib/submissions/review.ts).
 */
export async function cancelSubmission(id: string, now: Date = new Date()): Promise<CancelOutcome | null> {
  return db.$transaction((tx) => cancelEvaluation(tx, id, now));
}

