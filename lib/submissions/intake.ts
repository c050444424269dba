/**
 * Submission intake: a multipart upload from the web form, the HTTP API or
 * `chainswe submit` (read by ./multipart.ts, its fields by ./request.ts),
 * checked against the team's and the user's quota (./quota.ts) and handed
 * to createSubmission.
 *
 * Invariants: the body is streamed (busboy) to a temp file whose bytes are
 * counted as they arrive, so an upload over the limit is refused (413) before
 * the rest is read; the temp file is always deleted; nothing is stored unless
 * every check passed (createSubmission writes in one transaction). A system
 * the viewer's teams do not own is answered as not found.
 *
 * No `import "server-only"`: the route handler passes the viewer in.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { predictionLimitsFromEnv } from "@/evaluator/dataset/predictions";
import { loadPredictionsOffThread } from "@/lib/submissions/predictions-off-thread";
import { tooLarge } from "@/evaluator/dataset/records";
import { env } from "@/env";
import { fileArchiveKind } from "@/lib/submissions/archive-kind";
import { canActForTeam } from "@/lib/authz";
import type { Tx } from "@/db/tx";
import { db } from "@/db/client";
import { FieldError, InputError, LimitError, NotFoundError, UnauthorizedError } from "@/core/errors";
import { datasetModesSchema, parseColumn } from "@/core/schemas/columns";
import { checkManifest, versionRulesSchema, type RuleBreach } from "@/core/schemas/manifest";
import { modeSchema, type Mode } from "@/core/schemas/prediction";
import { createSubmission, nextRunNumber, SubmissionError } from "@/lib/submissions/data";
import { storedMiniSchema } from "@/lib/dataset/data";
import { defaultVersion } from "@/lib/dataset/default-version";
import { readMultipart } from "@/lib/submissions/multipart";
import { uploadedTrajectories } from "@/lib/submissions/trajectories";
import { lockQuotaRows, quotaError, quotaUse, recordArrival, recordRefusedUpload, userQuotaUse } from "@/lib/submissions/quota";
import { assertStorageRoom } from "@/lib/submissions/storage";
import { parseFields, PREDICTIONS_FIELD, TRAJECTORIES_FIELD, type SubmissionRequest } from "@/lib/submissions/request";
import { systemsForTeams, type SystemChoice } from "@/lib/teams/systems";
import type { Viewer } from "@/lib/accounts/users";

// ---------------------------------------------------------------- limits

export type IntakeLimits = {
  /** the predictions file (CHAINSWE_MAX_UPLOAD_MB) */
  maxUploadBytes: number;
  /** one model_patch (CHAINSWE_MAX_PATCH_KB) */
  maxPatchBytes: number;
  /** submissions per team (and per user) per 24 hours, counted on arrival (CHAINSWE_DAILY_QUOTA) */
  dailyQuota: number;
  /** what the trajectories archive may unpack to (CHAINSWE_MAX_TRAJECTORIES_MB); the archive itself counts against maxUploadBytes */
  maxTrajectoriesBytes: number;
  /** what a team's submissions, and a user's uploads, may store (CHAINSWE_TEAM_STORAGE_MB) */
  storageBytes: number;
};

export function intakeLimitsFromEnv(): IntakeLimits {
  const e = env();
  const { maxFileBytes, maxPatchBytes } = predictionLimitsFromEnv(e);
  return { maxUploadBytes: maxFileBytes, maxPatchBytes, dailyQuota: e.CHAINSWE_DAILY_QUOTA, maxTrajectoriesBytes: e.CHAINSWE_MAX_TRAJECTORIES_MB * 1024 * 1024, storageBytes: e.CHAINSWE_TEAM_STORAGE_MB * 1024 * 1024 };
}

// ---------------------------------------------------------------- checks and intake

export type ReceivedSubmission = { id: string; run: number; chains: number; predictions: number; warnings: string[]; url: string };


/**
 * The system named by id or by "<team slug>/<system name>", if it belongs to one
 * of the viewer's teams; otherwise not found, whether it exists or not.
 */
async function ownSystem(viewer: Viewer, ref: string) {
  const select = { id: true, teamId: true, team: { select: { name: true } } } as const;
  const slash = ref.indexOf("/");
  const system =
    slash > 0
      ? await db.system.findFirst({ where: { team: { slug: ref.slice(0, slash) }, name: ref.slice(slash + 1) }, select })
      : await db.system.findUnique({ where: { id: ref }, select });
  if (!system || !canActForTeam(viewer, system.teamId)) throw new NotFoundError(`system ${ref}`);
  return system;
}

/** The version's checks; answers the rules the manifest broke that only flag (those that refuse throw, every one named). */
async function checkDatasetVersion(request: SubmissionRequest): Promise<RuleBreach[]> {
  const version = await db.datasetVersion.findUnique({ where: { version: request.dataset_version }, select: { id: true, modes: true, rules: true } });
  if (!version) throw new FieldError("dataset_version", `unknown dataset version ${request.dataset_version}`);
  const modes = parseColumn(datasetModesSchema, version.modes, "DatasetVersion.modes");
  if (!modes.includes(request.mode)) {
    throw new FieldError("mode", `dataset version ${request.dataset_version} takes submissions in ${modes.join(", ")}, not ${request.mode}`);
  }
  if (request.chains) {
    const known = await db.chain.findMany({ where: { datasetVersionId: version.id, continuousId: { in: request.chains } }, select: { continuousId: true } });
    const have = new Set(known.map((c) => c.continuousId));
    const unknown = request.chains.filter((id) => !have.has(id));
    if (unknown.length) throw new FieldError("chains", `dataset version ${request.dataset_version} has no chain(s) ${unknown.join(", ")}`);
  }
  const breaches = checkManifest(request.manifest ?? null, parseColumn(versionRulesSchema, version.rules, "DatasetVersion.rules"));
  const refused = breaches.filter((b) => b.action === "refuse");
  if (refused.length) {
    throw new FieldError("manifest", `breaks dataset version ${request.dataset_version}'s rules: ${refused.map((b) => `${b.field}: ${b.message}`).join("; ")}`);
  }
  return breaches;
}

/** Predictions are plain JSON Lines: an archive or compressed file is refused by name, never unpacked. */
async function refuseArchive(file: { path: string; name: string }): Promise<void> {
  const kind = await fileArchiveKind(file.path);
  if (kind) throw new FieldError(PREDICTIONS_FIELD, `${file.name} is a ${kind} file; archives and compressed files are not accepted: upload the JSON Lines file itself, one prediction per line`);
}

/** The upload's problems named by the file the user sent, not our temp path. */
function renamed(e: unknown, tempPath: string, name: string): unknown {
  if (e instanceof InputError) return new InputError(name, e.issues);
  if (e instanceof SubmissionError) return new FieldError(PREDICTIONS_FIELD, e.message.replaceAll(tempPath, name));
  return e;
}

/**
 * Receives one upload for the viewer: streams it to a temp file, checks the
 * fields, the system's team, the dataset version and mode, and the team's
 * daily quota, then validates and stores it (createSubmission). Throws
 * UnauthorizedError, FieldError, NotFoundError, LimitError (413, 429) or
 * InputError (every bad line); nothing is stored when it throws.
 */
export async function receiveSubmission(
  viewer: Viewer | null,
  req: Request,
  opts: { limits?: IntakeLimits; now?: Date } = {},
): Promise<ReceivedSubmission> {
  if (!viewer) throw new UnauthorizedError();
  const limits = opts.limits ?? intakeLimitsFromEnv();
  // a declared length far over the limit is refused before a byte is read (fields add a little)
  const declared = Number(req.headers.get("content-length") ?? NaN);
  if (declared > limits.maxUploadBytes + 2 * 1024 * 1024) throw tooLarge(limits.maxUploadBytes, PREDICTIONS_FIELD);
  const dir = await mkdtemp(join(tmpdir(), "chainswe-upload-"));
  try {
    const { fields, files } = await readMultipart(req, dir, limits.maxUploadBytes);
    const file = files[PREDICTIONS_FIELD];
    const trajectories = files[TRAJECTORIES_FIELD];
    const request = parseFields(fields);
    if (!file) throw new FieldError(PREDICTIONS_FIELD, "required: a predictions JSONL file");
    await refuseArchive(file);
    const system = await ownSystem(viewer, request.system);
    const flagged = await checkDatasetVersion(request);
    const now = opts.now ?? new Date();
    const checkQuota = async (client: Tx | typeof db, bytes = 0) => {
      if (client !== db) await lockQuotaRows(client, { teamId: system.teamId, userId: viewer.id });
      const quota = await quotaUse({ teamId: system.teamId }, now, client);
      if (quota.used >= limits.dailyQuota) throw quotaError(`team ${system.team.name} has`, limits.dailyQuota, quota.freesAt, now);
      // per user as well: free teams are unlimited, so a team quota alone is no limit
      const own = await userQuotaUse(viewer.id, now, client);
      if (own.used >= limits.dailyQuota) throw quotaError("you have", limits.dailyQuota, own.freesAt, now);
      await assertStorageRoom({ teamId: system.teamId }, `team ${system.team.name}`, bytes, limits.storageBytes, client);
      await assertStorageRoom({ userId: viewer.id }, "you", bytes, limits.storageBytes, client);
      // admitted: it counts from now on, whatever becomes of it (rolled back with the upload if storing fails)
      if (client !== db) await recordArrival(client, { teamId: system.teamId, userId: viewer.id }, now);
    };
    // before validating (a team over its quota learns it at once), and again inside the
    // storing transaction, so two uploads racing for the last slot cannot both get it
    await checkQuota(db);
    const created = await createSubmission({
      admit: checkQuota,
      systemId: system.id,
      datasetVersion: request.dataset_version,
      mode: request.mode,
      predictions: file.path,
      // CPU-bound: on a worker thread, so one hostile upload cannot stall the site; its large texts written to
      // the database from there (lib/submissions/staged-texts.ts), as the trajectories' logs are
      load: (path, chains, limits) => loadPredictionsOffThread(path, chains, limits, { stageTo: env().DATABASE_URL }),
      limits: { maxFileBytes: limits.maxUploadBytes, maxPatchBytes: limits.maxPatchBytes },
      chainIds: request.chains ?? null,
      split: request.split,
      metadata: request.metadata ?? {},
      submittedById: viewer.id,
      runOf: request.run_of ?? null,
      manifest: request.manifest ?? null,
      ruleBreaches: flagged,
      // read and scanned off the request thread, as the predictions are
      trajectories: trajectories ? { check: uploadedTrajectories(trajectories, limits.maxTrajectoriesBytes, env().DATABASE_URL), public: request.trajectories_public ?? false } : null,
    }).catch(async (e: unknown) => {
      if (e instanceof InputError || e instanceof SubmissionError || e instanceof FieldError || (e instanceof LimitError && e.status === 413)) {
        await recordRefusedUpload(viewer.id, now);
      }
      throw renamed(e, file.path, file.name);
    });
    return {
      id: created.id,
      run: created.run,
      chains: created.chains,
      predictions: created.predictions,
      warnings: created.warnings.map((w) => w.replaceAll(file.path, file.name)),
      url: `/submissions/${created.id}`,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------- the web form's choices

export type SubmitFormOptions = {
  /** the systems of the viewer's teams */
  systems: SystemChoice[];
  /** newest first, each with the modes it takes and the size of its Mini split (SPEC §8; null: none) */
  versions: { version: string; modes: Mode[]; mini: number | null }[];
  /** the version the form starts on: the board's default (lib/dataset/default-version.ts) */
  defaultVersion: string | null;
  maxUploadBytes: number;
  maxPatchBytes: number;
  maxTrajectoriesBytes: number;
  /** the form opened to add a run to an entry (`/submit?run_of=`): what it fixes, and the run it will be */
  runOf: { id: string; systemId: string; version: string; mode: Mode; run: number } | null;
};

/** The entry a `run_of` id names, if it is a submission of one of the viewer's teams' systems. */
async function runOfChoice(viewer: Viewer, id: string): Promise<SubmitFormOptions["runOf"]> {
  const row = await db.submission.findUnique({ where: { id }, select: { id: true, runOfId: true, systemId: true, mode: true, datasetVersion: { select: { version: true } }, system: { select: { teamId: true } } } });
  if (!row || !canActForTeam(viewer, row.system.teamId)) return null;
  return { id: row.id, systemId: row.systemId, version: row.datasetVersion.version, mode: modeSchema.parse(row.mode), run: await nextRunNumber(db, row.runOfId ?? row.id) };
}

export async function submitFormOptions(viewer: Viewer, limits: IntakeLimits = intakeLimitsFromEnv(), runOf?: string): Promise<SubmitFormOptions> {
  const [systems, versions, entry] = await Promise.all([
    systemsForTeams(viewer.teams.map((t) => t.id)),
    db.datasetVersion.findMany({ orderBy: [{ createdAt: "desc" }, { version: "desc" }], select: { version: true, modes: true, mini: true } }),
    runOf ? runOfChoice(viewer, runOf) : null,
  ]);
  return {
    runOf: entry,
    systems,
    defaultVersion: await defaultVersion(versions.map((v) => v.version)),
    versions: versions.map((v) => ({
      version: v.version,
      modes: parseColumn(datasetModesSchema, v.modes, "DatasetVersion.modes"),
      mini: v.mini === null ? null : parseColumn(storedMiniSchema, v.mini, "DatasetVersion.mini").size,
    })),
    maxUploadBytes: limits.maxUploadBytes,
    maxPatchBytes: limits.maxPatchBytes,
    maxTrajectoriesBytes: limits.maxTrajectoriesBytes,
  };
}
