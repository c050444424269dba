/**
 * Chain proposal intake (SPEC §8): a multipart upload from the web form,
 * POST /api/v1/proposals or `chainswe propose`, read by the submissions'
 * machinery (lib/submissions/multipart.ts: streamed to a temp file, counted
 * against CHAINSWE_MAX_UPLOAD_MB as it arrives) and checked on the
 * upload-checking thread with the dataset loader (every bad record named by
 * line and field, as `chainswe dataset import` names them).
 *
 * Then, before anything is stored: no chain or instance id the version (or
 * another open proposal for it) already holds, and every image on the
 * workers' engine or pullable. One transaction stores the proposal, its chains
 * and their validation jobs, and counts the chains against the proposer's
 * daily quota (CHAINSWE_DAILY_PROPOSED_CHAINS) and their bytes against the
 * proposer's storage limit; a refusal stores nothing but a refused-upload event.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { db } from "@/db/client";
import type { Tx } from "@/db/tx";
import { env } from "@/env";
import { canonicalJson } from "@/core/grading/version";
import { assertStorageRoom } from "@/lib/submissions/storage";
import { lockQuotaRows, proposedChainsQuotaError, proposedChainsUse, recordProposedChains, recordRefusedUpload } from "@/lib/submissions/quota";
import { FieldError, InputError, LimitError, UnauthorizedError, EnvironmentError, type InputIssue } from "@/core/errors";
import type { Chain } from "@/core/schemas/dataset";
import { tooLarge } from "@/evaluator/dataset/records";
import { fileArchiveKind } from "@/lib/submissions/archive-kind";
import { intakeLimitsFromEnv, type IntakeLimits } from "@/lib/submissions/intake";
import { readMultipart } from "@/lib/submissions/multipart";
import { runOffThread } from "@/lib/submissions/predictions-off-thread";
import type { Viewer } from "@/lib/accounts/users";
import { openProposedIds, storeProposal } from "./data";
import { missingImages } from "./images";
import { CHAINS_FIELD, PROPOSAL_FORM, parseProposalFields } from "./request";

export type ReceivedProposal = { id: string; chains: number; warnings: string[]; url: string };

type Loaded = { chains: Chain[]; lines: number[]; warnings: string[]; sha256: string };

export type ProposalChecks = {
  /** the images the workers' engine has not and cannot pull (./images.ts) */
  missingImages: (images: string[]) => Promise<string[]>;
};

/** Chain and instance ids already in the version or in an open proposal for it, each named by the record's line. */
async function clashes(datasetVersionId: string, version: string, loaded: Loaded): Promise<InputIssue[]> {
  const [chains, bugs, open] = await Promise.all([
    db.chain.findMany({ where: { datasetVersionId, continuousId: { in: loaded.chains.map((c) => c.continuous_id) } }, select: { continuousId: true } }),
    db.bug.findMany({
      where: { chain: { datasetVersionId }, swebenchInstanceId: { in: loaded.chains.flatMap((c) => c.swebench_instance_ids) } },
      select: { swebenchInstanceId: true, chain: { select: { continuousId: true } } },
    }),
    openProposedIds(datasetVersionId),
  ]);
  const inVersion = new Set(chains.map((c) => c.continuousId));
  const bugChain = new Map(bugs.map((b) => [b.swebenchInstanceId, b.chain.continuousId]));
  const issues: InputIssue[] = [];
  loaded.chains.forEach((chain, i) => {
    const at = { line: loaded.lines[i] ?? i + 1, id: chain.continuous_id };
    if (inVersion.has(chain.continuous_id)) issues.push({ ...at, field: "continuous_id", message: `dataset version ${version} already has a chain ${chain.continuous_id}` });
    else if (open.chains.has(chain.continuous_id)) issues.push({ ...at, field: "continuous_id", message: `chain ${chain.continuous_id} is already proposed for ${version} (proposal ${open.chains.get(chain.continuous_id)})` });
    chain.bug_fixes.forEach((bug, k) => {
      const field = `bug_fixes[${k}].swebench_instance_id`;
      const id = bug.swebench_instance_id;
      if (bugChain.has(id)) issues.push({ ...at, field, message: `instance ${id} already belongs to chain ${bugChain.get(id)} of ${version}` });
      else if (open.instances.has(id)) issues.push({ ...at, field, message: `instance ${id} already belongs to proposed chain ${open.instances.get(id)}` });
    });
  });
  return issues;
}

/** Images the engine lacks, named on each record that uses them. */
async function imageIssues(loaded: Loaded, checks: ProposalChecks): Promise<InputIssue[]> {
  let missing: string[];
  try {
    missing = await checks.missingImages(loaded.chains.map((c) => c.docker_image));
  } catch (e) {
    if (e instanceof EnvironmentError) throw new FieldError(CHAINS_FIELD, `the images cannot be checked now (${e.message}); try again later`);
    throw e;
  }
  const gone = new Set(missing);
  return loaded.chains.flatMap((chain, i) =>
    gone.has(chain.docker_image)
      ? [{ line: loaded.lines[i] ?? i + 1, id: chain.continuous_id, field: "docker_image", message: `image ${chain.docker_image} is not on the workers' engine and cannot be pulled` }]
      : [],
  );
}

/**
 * Receives one proposal for the viewer. Throws UnauthorizedError, FieldError,
 * LimitError (413) or InputError (every bad record, line and field named);
 * nothing is stored when it throws.
 */
export async function receiveProposal(
  viewer: Viewer | null,
  req: Request,
  opts: { limits?: IntakeLimits; checks?: ProposalChecks; dailyChains?: number; now?: Date } = {},
): Promise<ReceivedProposal> {
  if (!viewer) throw new UnauthorizedError();
  const limits = opts.limits ?? intakeLimitsFromEnv();
  const checks = opts.checks ?? { missingImages };
  const dailyChains = opts.dailyChains ?? env().CHAINSWE_DAILY_PROPOSED_CHAINS;
  const now = opts.now ?? new Date();
  // the proposer's daily quota of chains and their storage: before reading (one chain must fit), and again in the
  // storing transaction with the proposal's chains and bytes, behind the user's row lock, so racing uploads cannot share a slot
  const admit = async (client: Tx | typeof db, chains: number, bytes: number) => {
    if (client !== db) await lockQuotaRows(client, { userId: viewer.id });
    const quota = await proposedChainsUse(viewer.id, now, client);
    if (quota.used + chains > dailyChains) throw proposedChainsQuotaError(dailyChains, quota.used, chains, quota.freesAt, now);
    await assertStorageRoom({ userId: viewer.id }, "you", bytes, limits.storageBytes, client);
    if (client !== db) await recordProposedChains(client, viewer.id, chains, now);
  };
  await admit(db, 1, 0);
  try {
    return await receiveAdmitted(viewer, req, limits, checks, admit);
  } catch (e) {
    // a refusal costs the proposer a little quota too: checking a file costs the site as much as storing it
    if (e instanceof InputError || e instanceof FieldError || (e instanceof LimitError && e.status === 413)) await recordRefusedUpload(viewer.id, now);
    throw e;
  }
}

async function receiveAdmitted(
  viewer: Viewer,
  req: Request,
  limits: IntakeLimits,
  checks: ProposalChecks,
  admit: (client: Tx, chains: number, bytes: number) => Promise<void>,
): Promise<ReceivedProposal> {
  const declared = Number(req.headers.get("content-length") ?? NaN);
  if (declared > limits.maxUploadBytes + 2 * 1024 * 1024) throw tooLarge(limits.maxUploadBytes, CHAINS_FIELD);
  const dir = await mkdtemp(join(tmpdir(), "chainswe-proposal-"));
  try {
    const { fields, files } = await readMultipart(req, dir, limits.maxUploadBytes, PROPOSAL_FORM);
    const request = parseProposalFields(fields);
    const file = files[CHAINS_FIELD];
    if (!file) throw new FieldError(CHAINS_FIELD, "required: a chains file (dataset records as JSON Lines or a JSON array, as chainswe mine and select write them)");
    const kind = await fileArchiveKind(file.path);
    if (kind) throw new FieldError(CHAINS_FIELD, `${file.name} is a ${kind} file; archives and compressed files are not accepted: upload the JSON Lines (or JSON array) file itself`);
    const version = await db.datasetVersion.findUnique({ where: { version: request.dataset_version }, select: { id: true } });
    if (!version) throw new FieldError("dataset_version", `unknown dataset version ${request.dataset_version}`);
    // CPU-bound (JSON and the schema's diff checks): on the upload-checking thread, as predictions are
    const loaded = (await runOffThread("chains", { path: file.path }, CHAINS_FIELD).catch((e: unknown) => {
      throw e instanceof InputError ? new InputError(file.name, e.issues) : e;
    })) as Loaded;
    const issues = await clashes(version.id, request.dataset_version, loaded);
    if (issues.length) throw new InputError(file.name, issues);
    const missing = await imageIssues(loaded, checks);
    if (missing.length) throw new InputError(file.name, missing);
    const warnings = loaded.warnings.map((w) => w.replaceAll(file.path, file.name));
    const bytes = loaded.chains.reduce((sum, chain) => sum + Buffer.byteLength(canonicalJson(chain)), 0);
    const id = await db.$transaction(async (tx) => {
      await admit(tx, loaded.chains.length, bytes);
      return storeProposal(tx, { datasetVersionId: version.id, proposedById: viewer.id, fileName: file.name, sha256: loaded.sha256, warnings, chains: loaded.chains });
    });
    return { id, chains: loaded.chains.length, warnings, url: `/dataset/proposals/${id}` };
  } catch (e) {
    if (e instanceof LimitError && e.status === 413 && !e.field) throw new LimitError(e.message, 413, CHAINS_FIELD);
    throw e;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
