/**
 * Submission intake (SPEC §2, §6): a multipart upload from the web form, the
 * HTTP API or `chainswe submit`, checked and handed to createSubmission.
 *
 * Invariants: the body is streamed (busboy) to a temp file whose bytes are
 * counted as they arrive, so an upload over the limit is refused (413) before
 * the rest is read; the temp file is always deleted; nothing is stored unless
 * every check passed (createSubmission writes in one transaction). A system
 * the viewer's teams do not own is answered as not found.
 *
 * No `import "server-only"`: the route handler passes the viewer in.
 */
import { createWriteStream } from "node:fs";
import { mkdtemp, open, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import busboy from "busboy";
import { z } from "zod";
import { predictionLimitsFromEnv } from "@/evaluator/dataset/predictions";
import { loadPredictionsOffThread } from "@/evaluator/dataset/predictions-off-thread";
import { formatBytes, tooLarge } from "@/evaluator/dataset/records";
import { env } from "@/env";
import { ARCHIVE_SNIFF_BYTES, archiveKind } from "@/lib/submissions/archive-kind";
import { canActForTeam } from "@/lib/authz";
import type { Tx } from "@/evaluator/queue/settle";
import { db } from "@/lib/db";
import { rateStore } from "@/lib/accounts/rate-events";
import { FieldError, InputError, LimitError, NotFoundError, UnauthorizedError } from "@/lib/errors";
import { datasetModesSchema, parseColumn, submissionMetadataSchema } from "@/lib/schemas/columns";
import { modeSchema, type Mode } from "@/lib/schemas/prediction";
import { createSubmission, SubmissionError } from "@/lib/submissions/data";
import { systemsForTeams, type SystemChoice } from "@/lib/teams/systems";
import type { Viewer } from "@/lib/accounts/users";
import { utcMinute } from "@/lib/format";

// ---------------------------------------------------------------- the request

/** The predictions file's part in the multipart body. */
export const PREDICTIONS_FIELD = "predictions";

const metadataJson = z
  .string()
  .trim()
  .transform((text, ctx) => {
    if (text === "") return {};
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: "custom", message: 'not JSON: send an object such as {"scaffold_version": "1.2"}' });
      return z.NEVER;
    }
  })
  .pipe(
    submissionMetadataSchema.refine((m) => Object.keys(m).length <= 50, "at most 50 keys"),
  );

const chainList = z
  .string()
  .transform((s) => s.split(/[\s,]+/).filter(Boolean))
  .refine((ids) => ids.length > 0, "list at least one chain id, or leave the field out for every chain");

/**
 * The text fields of a submission upload (multipart/form-data), besides the
 * `predictions` file. `chains` may be comma- or space-separated, or repeated.
 */
export const submissionRequestSchema = z.object({
  /** the System's id (the web form's choice), or `<team slug>/<system name>` (`chainswe submit --system`) */
  system: z.string().trim().min(1, "required: the id of one of your team's systems, or <team>/<system name>"),
  dataset_version: z.string().trim().min(1, "required, e.g. v1"),
  mode: z.string().trim().pipe(modeSchema),
  /** JSON object of string, number, boolean or null values, shown beside the results */
  metadata: metadataJson.optional(),
  /** grade only these chains (default: every chain of the version) */
  chains: chainList.optional(),
});
export type SubmissionRequest = z.infer<typeof submissionRequestSchema>;

const FIELD_NAMES = Object.keys(submissionRequestSchema.shape);
/** a field's text; metadata is the only long one */
const MAX_FIELD_BYTES = 64 * 1024;

// ---------------------------------------------------------------- limits

export type IntakeLimits = {
  /** the predictions file (CHAINSWE_MAX_UPLOAD_MB) */
  maxUploadBytes: number;
  /** one model_patch (CHAINSWE_MAX_PATCH_KB) */
  maxPatchBytes: number;
  /** submissions per team per 24 hours; failed and cancelled ones do not count (CHAINSWE_DAILY_QUOTA) */
  dailyQuota: number;
};

export function intakeLimitsFromEnv(): IntakeLimits {
  const e = env();
  const { maxFileBytes, maxPatchBytes } = predictionLimitsFromEnv(e);
  return { maxUploadBytes: maxFileBytes, maxPatchBytes, dailyQuota: e.CHAINSWE_DAILY_QUOTA };
}

const DAY_MS = 24 * 3600 * 1000;

/** Whose submissions count together against one daily quota: a team's, or a user's across all their teams. */
export type QuotaScope = { teamId: string } | { userId: string };

/** How much of the daily quota is used, and when the oldest counted submission stops counting. */
export async function quotaUse(scope: QuotaScope, now: Date, client: Tx | typeof db = db): Promise<{ used: number; freesAt: Date | null }> {
  const by = "teamId" in scope ? { system: { teamId: scope.teamId } } : { submittedById: scope.userId };
  const where = { ...by, createdAt: { gt: new Date(now.getTime() - DAY_MS) }, status: { notIn: ["failed", "cancelled"] } };
  const [used, oldest] = await Promise.all([
    client.submission.count({ where }),
    client.submission.findFirst({ where, orderBy: { createdAt: "asc" }, select: { createdAt: true } }),
  ]);
  return { used, freesAt: oldest ? new Date(oldest.createdAt.getTime() + DAY_MS) : null };
}

/**
 * A refused upload (bad lines, too large) counts against its user's daily
 * quota too, at 1/REFUSED_PER_SUBMISSION of a submission: validating one costs
 * the site about as much as storing one, and refusals must not be free to repeat.
 */
const REFUSED_PER_SUBMISSION = 4;
const refusedKey = (userId: string) => `refused-upload:${userId}`;

/** The user's quota use: their submissions, and their refused uploads at their weight. */
async function userQuotaUse(userId: string, now: Date, client: Tx | typeof db): Promise<{ used: number; freesAt: Date | null }> {
  const own = await quotaUse({ userId }, now, client);
  const refused = await rateStore().list(refusedKey(userId), now.getTime() - DAY_MS);
  return { used: own.used + Math.floor(refused.length / REFUSED_PER_SUBMISSION), freesAt: own.freesAt ?? (refused[0] ? new Date(refused[0] + DAY_MS) : null) };
}

function quotaError(who: string, quota: number, freesAt: Date | null, now: Date): LimitError {
  const when = freesAt
    ? `; the next one frees up at ${utcMinute(freesAt)} UTC (in ${waitText(freesAt.getTime() - now.getTime())})`
    : "";
  const counted = who === "you have" ? `failed and cancelled ones do not count; ${REFUSED_PER_SUBMISSION} refused uploads count as one` : "failed and cancelled ones do not count";
  return new LimitError(`${who} used ${who === "you have" ? "your" : "its"} daily quota of ${quota} submission(s) in the last 24 hours (${counted})${when}`, 429);
}

function waitText(ms: number): string {
  const minutes = Math.max(1, Math.ceil(ms / 60_000));
  return minutes < 60 ? `${minutes} min` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

// ---------------------------------------------------------------- the multipart body

type Upload = { fields: Record<string, string>; file: { path: string; name: string; bytes: number } | null };

/**
 * Streams the body: text fields are collected, the one `predictions` file part
 * is written to `dir` while its bytes are counted. Going over the limit stops
 * reading the body at once (the request stream is cancelled).
 */
export function readMultipart(req: Request, dir: string, maxFileBytes: number): Promise<Upload> {
  const contentType = req.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\b/i.test(contentType) || !req.body) {
    return Promise.reject(new FieldError(PREDICTIONS_FIELD, "send multipart/form-data with the predictions file in a part named predictions"));
  }
  const body = req.body;
  return new Promise<Upload>((resolve, reject) => {
    const fields: Record<string, string> = {};
    let file: Upload["file"] = null;
    let written: Promise<void> = Promise.resolve();
    let settled = false;
    const open: { destroy(): unknown }[] = []; // the file part and its temp file, closed on refusal
    const source = Readable.fromWeb(body as unknown as NodeReadableStream<Uint8Array>);
    let parser: busboy.Busboy;
    const fail = (e: unknown) => {
      if (settled) return;
      settled = true;
      source.unpipe();
      source.destroy();
      for (const s of open) s.destroy();
      parser?.removeAllListeners();
      parser?.on("error", () => {}); // late errors after the refusal mean nothing
      reject(e);
    };
    try {
      parser = busboy({
        headers: { "content-type": contentType },
        // +1: busboy reports the limit when the count reaches it; a file of exactly the limit is allowed
        limits: { files: 1, fields: 20, parts: 21, fieldSize: MAX_FIELD_BYTES, fileSize: maxFileBytes + 1 },
      });
    } catch (e) {
      reject(new FieldError(PREDICTIONS_FIELD, `not a readable multipart body (${(e as Error).message})`));
      return;
    }
    parser.on("field", (name, value, info) => {
      if (!FIELD_NAMES.includes(name)) return fail(new FieldError(name, `unknown field; expected ${FIELD_NAMES.join(", ")} and the ${PREDICTIONS_FIELD} file`));
      if (info.valueTruncated) return fail(new FieldError(name, `longer than ${formatBytes(MAX_FIELD_BYTES)}`));
      // only chains may repeat; the others keep their last value, as forms do
      fields[name] = name === "chains" && fields[name] ? `${fields[name]},${value}` : value;
    });
    parser.on("file", (name, stream, info) => {
      if (name !== PREDICTIONS_FIELD) {
        stream.resume();
        return fail(new FieldError(name, `unexpected file; the predictions file goes in the part named ${PREDICTIONS_FIELD}`));
      }
      const path = join(dir, "predictions.jsonl");
      const upload = { path, name: info.filename || "predictions.jsonl", bytes: 0 };
      file = upload;
      stream.on("data", (chunk: Buffer) => (upload.bytes += chunk.length));
      stream.on("limit", () => fail(tooLarge(maxFileBytes, PREDICTIONS_FIELD)));
      const out = createWriteStream(path);
      open.push(stream, out);
      written = pipeline(stream, out);
      written.catch(fail);
    });
    parser.on("filesLimit", () => fail(new FieldError(PREDICTIONS_FIELD, "send one predictions file")));
    parser.on("fieldsLimit", () => fail(new FieldError(PREDICTIONS_FIELD, "too many fields")));
    parser.on("partsLimit", () => fail(new FieldError(PREDICTIONS_FIELD, "too many parts")));
    parser.on("error", (e: Error) => fail(new FieldError(PREDICTIONS_FIELD, `malformed multipart body (${e.message})`)));
    parser.on("close", () => {
      written.then(
        () => {
          if (settled) return;
          settled = true;
          resolve({ fields, file });
        },
        fail,
      );
    });
    source.on("error", fail);
    source.pipe(parser);
  });
}

// ---------------------------------------------------------------- checks and intake

export type ReceivedSubmission = { id: string; chains: number; predictions: number; warnings: string[]; url: string };

function parseFields(fields: Record<string, string>): SubmissionRequest {
  const parsed = submissionRequestSchema.safeParse(fields);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const field = String(issue.path[0] ?? "");
  const message = issue.code === "invalid_value" && field === "mode" ? `must be one of ${modeSchema.options.join(", ")}` : issue.message;
  throw new FieldError(field, fields[field] === undefined && issue.code === "invalid_type" ? "required" : message);
}

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

async function checkDatasetVersion(request: SubmissionRequest): Promise<void> {
  const version = await db.datasetVersion.findUnique({ where: { version: request.dataset_version }, select: { id: true, modes: true } });
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
}

/** Predictions are plain JSON Lines: an archive or compressed file is refused by name, never unpacked. */
async function refuseArchive(file: { path: string; name: string }): Promise<void> {
  const handle = await open(file.path, "r");
  try {
    const head = new Uint8Array(ARCHIVE_SNIFF_BYTES);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    const kind = archiveKind(head.subarray(0, bytesRead));
    if (kind) throw new FieldError(PREDICTIONS_FIELD, `${file.name} is a ${kind} file; archives and compressed files are not accepted: upload the JSON Lines file itself, one prediction per line`);
  } finally {
    await handle.close();
  }
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
    const { fields, file } = await readMultipart(req, dir, limits.maxUploadBytes);
    const request = parseFields(fields);
    if (!file) throw new FieldError(PREDICTIONS_FIELD, "required: a predictions JSONL file");
    await refuseArchive(file);
    const system = await ownSystem(viewer, request.system);
    await checkDatasetVersion(request);
    const now = opts.now ?? new Date();
    const checkQuota = async (client: Tx | typeof db) => {
      // inside the storing transaction, take the team's row lock first: PostgreSQL (read committed) would
      // otherwise let two transactions both count the same free slot; SQLite's write lock does the same
      if (client !== db) {
        await client.$executeRaw`UPDATE "Team" SET "name" = "name" WHERE "id" = ${system.teamId}`;
        await client.$executeRaw`UPDATE "User" SET "name" = "name" WHERE "id" = ${viewer.id}`;
      }
      const quota = await quotaUse({ teamId: system.teamId }, now, client);
      if (quota.used >= limits.dailyQuota) throw quotaError(`team ${system.team.name} has`, limits.dailyQuota, quota.freesAt, now);
      // per user as well: free teams are unlimited, so a team quota alone is no limit
      const own = await userQuotaUse(viewer.id, now, client);
      if (own.used >= limits.dailyQuota) throw quotaError("you have", limits.dailyQuota, own.freesAt, now);
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
      // CPU-bound: on a worker thread, so one hostile upload cannot stall the site
      load: loadPredictionsOffThread,
      limits: { maxFileBytes: limits.maxUploadBytes, maxPatchBytes: limits.maxPatchBytes },
      chainIds: request.chains ?? null,
      metadata: request.metadata ?? {},
      submittedById: viewer.id,
    }).catch(async (e: unknown) => {
      if (e instanceof InputError || e instanceof SubmissionError || e instanceof FieldError || (e instanceof LimitError && e.status === 413)) {
        await rateStore().add(refusedKey(viewer.id), now.getTime(), now.getTime() - DAY_MS);
      }
      throw renamed(e, file.path, file.name);
    });
    return {
      id: created.id,
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
  /** newest first, each with the modes it takes */
  versions: { version: string; modes: Mode[] }[];
  maxUploadBytes: number;
  maxPatchBytes: number;
};

export async function submitFormOptions(viewer: Viewer, limits: IntakeLimits = intakeLimitsFromEnv()): Promise<SubmitFormOptions> {
  const [systems, versions] = await Promise.all([
    systemsForTeams(viewer.teams.map((t) => t.id)),
    db.datasetVersion.findMany({ orderBy: [{ createdAt: "desc" }, { version: "desc" }], select: { version: true, modes: true } }),
  ]);
  return {
    systems,
    versions: versions.map((v) => ({ version: v.version, modes: parseColumn(datasetModesSchema, v.modes, "DatasetVersion.modes") })),
    maxUploadBytes: limits.maxUploadBytes,
    maxPatchBytes: limits.maxPatchBytes,
  };
}
