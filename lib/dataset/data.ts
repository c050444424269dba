/**
 * Dataset versions, chains and bugs in the portal's database (SPEC §1).
 *
 * Invariants: a version is imported whole or not at all (one transaction, after
 * `loadDataset` has validated every record), a version is never overwritten, and
 * `getChain` gives back exactly the `Chain` that was imported (unknown fields
 * included; `swebench_instance_ids` is rebuilt from the bugs, which it must equal).
 *
 * No `import "server-only"`: that package throws on import outside a React Server
 * Components bundle, so the CLI (tsx) and vitest could not load this module.
 */
import { z } from "zod";
import { loadDataset } from "@/evaluator/dataset";
import { datasetStats } from "@/core/dataset/stats";
import { heldOutChangeProblem, heldOutProblems } from "@/core/dataset/held-out";
import { releaseManifest, type ReleaseChange, type ReleaseManifest } from "@/core/dataset/release";
import { db, isUniqueViolation } from "@/db/client";
import { versionRulesSchema, type VersionRules } from "@/core/schemas/manifest";
import { Prisma } from "@/db/generated/prisma/client";
import type { Bug as BugRow, Chain as ChainRow } from "@/db/generated/prisma/client";
import { chainSchema, type Bug, type Chain } from "@/core/schemas/dataset";
import {
  columnJson,
  datasetStatsSchema,
  extraFieldsSchema,
  parseColumn,
  testCmdsSchema,
  testIdsSchema,
  type DatasetStats,
} from "@/core/schemas/columns";

/** "v1", "2025-06", "v1.1-rc": used in URLs and on the command line. */
export const datasetVersionNameSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, "a dataset version is 1-64 letters, digits, '.', '_' or '-'");

/** The import was refused as a whole (bad version name, version already there). Nothing was written. */
export class DatasetImportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DatasetImportError";
  }
}

export type DatasetImport = { version: string; sha256: string; stats: DatasetStats; warnings: string[] };

export type DatasetVersionSummary = { version: string; sha256: string; createdAt: Date; stats: DatasetStats };

function bugRow(bug: Bug): Prisma.BugCreateWithoutChainInput {
  const { order, swebench_instance_id, commit_hash, problem_statement, date, source, patch, test_patch, ...rest } = bug;
  const { FAIL_TO_PASS, PASS_TO_PASS, test_cmds, ...extra } = rest;
  return {
    order,
    swebenchInstanceId: swebench_instance_id,
    commitHash: commit_hash,
    problemStatement: problem_statement,
    date,
    source,
    patch,
    testPatch: test_patch,
    failToPass: columnJson(testIdsSchema, FAIL_TO_PASS),
    passToPass: columnJson(testIdsSchema, PASS_TO_PASS),
    testCmds: columnJson(testCmdsSchema, test_cmds),
    extra: columnJson(extraFieldsSchema, extra),
  };
}

function chainRow(chain: Chain): Prisma.ChainCreateWithoutDatasetVersionInput {
  // swebench_instance_ids is dropped: the bugs' order gives it back (chainSchema checks they agree)
  const { continuous_id, repo, base_commit, source, date_range, docker_image, log_parser, ...rest } = chain;
  const { swebench_instance_ids: _ids, bug_fixes, ...extra } = rest;
  return {
    continuousId: continuous_id,
    repo,
    baseCommit: base_commit,
    source,
    dateRange: date_range,
    dockerImage: docker_image,
    logParser: log_parser,
    extra: columnJson(extraFieldsSchema, extra),
    bugs: { create: bug_fixes.map(bugRow) },
  };
}


function versionExists(version: string): DatasetImportError {
  return new DatasetImportError(`dataset version ${version} already exists; import under a new version`);
}

/**
 * Validates the file (InputError naming line and field on any bad record), then
 * writes the version, its chains and their bugs in one transaction.
 */
export async function importDataset(path: string, version: string, release?: { parent: string; notes: ReleaseChange[] }, opts: { heldOut?: string[] } = {}): Promise<DatasetImport> {
  const name = datasetVersionNameSchema.safeParse(version);
  if (!name.success) throw new DatasetImportError(`bad dataset version "${version}": ${name.error.issues[0]?.message}`);
  if (await db.datasetVersion.findUnique({ where: { version }, select: { id: true } })) throw versionExists(version);
  const dataset = await loadDataset(path);
  const stats = datasetStats(dataset.chains);
  // held-out chains named with the version (SPEC §8): checked against its chains before anything is stored
  const heldOut = opts.heldOut?.length ? opts.heldOut : undefined;
  if (heldOut) {
    const problems = heldOutProblems(dataset.chains.map((c) => c.continuous_id), heldOut);
    if (problems.length > 0) throw new DatasetImportError(`held_out: ${problems.join("; ")}`);
  }
  try {
    await db.$transaction(
      async (tx) => {
        const created = await tx.datasetVersion.create({
          data: {
            version,
            sha256: dataset.sha256,
            stats: columnJson(datasetStatsSchema, stats),
            // frozen with the version: the sha256 of every record, and for a release its parent and notes (SPEC §8)
            manifest: columnJson(releaseManifestSchema, releaseManifest(release?.parent ?? null, dataset.chains)),
            parentVersion: release?.parent ?? null,
            releaseNotes: columnJson(releaseNotesSchema, release?.notes ?? []),
            ...(heldOut ? { rules: columnJson(versionRulesSchema, { held_out: heldOut }), rulesSetAt: new Date() } : {}),
          },
        });
        for (const chain of dataset.chains) {
          await tx.chain.create({ data: { ...chainRow(chain), datasetVersion: { connect: { id: created.id } } } });
        }
      },
      { timeout: 120_000 },
    );
  } catch (e) {
    if (isUniqueViolation(e)) throw versionExists(version);
    throw e;
  }
  return { version, sha256: dataset.sha256, stats, warnings: dataset.warnings };
}

// ---------------------------------------------------------------- releases (SPEC §8; assembled by lib/dataset/release.ts)

/** DatasetVersion.releaseNotes */
export const releaseNotesSchema = z.array(z.object({ chain: z.string(), change: z.enum(["added", "changed", "removed"]), reason: z.string() }));
/** DatasetVersion.manifest */
export const releaseManifestSchema = z.object({ parent: z.string().nullable(), records: z.array(z.object({ continuous_id: z.string(), sha256: z.string() })) });

export type VersionRelease = { parent: string | null; notes: ReleaseChange[]; manifest: ReleaseManifest | null };

/** A version's release facts (a version imported before manifests were kept has none); null for an unknown version. */
export async function getVersionRelease(version: string): Promise<VersionRelease | null> {
  const v = await db.datasetVersion.findUnique({ where: { version }, select: { parentVersion: true, releaseNotes: true, manifest: true } });
  if (!v) return null;
  return {
    parent: v.parentVersion,
    notes: parseColumn(releaseNotesSchema, v.releaseNotes, "DatasetVersion.releaseNotes"),
    manifest: v.manifest === null ? null : parseColumn(releaseManifestSchema, v.manifest, "DatasetVersion.manifest"),
  };
}

// ---------------------------------------------------------------- the Mini split (SPEC §8; computed by lib/dataset/mini.ts)

/** DatasetVersion.mini */
export const storedMiniSchema = z.object({
  chains: z.array(z.string()).min(1),
  size: z.number().int().positive(),
  tau: z.number().nullable(),
  rows: z.number().int().nonnegative(),
  method: z.string(),
  steps: z.array(z.object({ chain: z.string(), tau: z.number().nullable() })),
  computed_at: z.string(),
});
export type StoredMini = z.infer<typeof storedMiniSchema>;

/** The version's Mini split, or null when none was computed; a DatasetImportError for an unknown version. */
export async function getVersionMini(version: string): Promise<StoredMini | null> {
  const v = await db.datasetVersion.findUnique({ where: { version }, select: { mini: true } });
  if (!v) throw new DatasetImportError(`no dataset version ${version}`);
  return v.mini === null ? null : parseColumn(storedMiniSchema, v.mini, "DatasetVersion.mini");
}

/** A version's rules for run manifests (core/schemas/manifest.ts), or null for an unknown version. */
export async function getVersionRules(version: string): Promise<VersionRules | null> {
  const row = await db.datasetVersion.findUnique({ where: { version }, select: { rules: true } });
  return row ? parseColumn(versionRulesSchema, row.rules, "DatasetVersion.rules") : null;
}

/**
 * Sets a version's rules, checked by their schema (InputError-free: a
 * DatasetImportError naming the field). They apply to later uploads; a
 * submission keeps the breaches recorded when it was received. Its held-out
 * chains are fixed once a submission on it is published (heldOutChangeProblem).
 */
export async function setVersionRules(version: string, rules: unknown): Promise<VersionRules> {
  const parsed = versionRulesSchema.safeParse(rules);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new DatasetImportError(`rules: ${issue.path.join(".") || "(the object)"}: ${issue.message}`);
  }
  if (parsed.data.held_out) {
    const v = await db.datasetVersion.findUnique({ where: { version }, select: { chains: { select: { continuousId: true } } } });
    if (!v) throw new DatasetImportError(`no dataset version ${version}`);
    const problems = heldOutProblems(v.chains.map((c) => c.continuousId), parsed.data.held_out);
    if (problems.length > 0) throw new DatasetImportError(`rules: held_out: ${problems.join("; ")}`);
  }
  const [before, published] = await Promise.all([getVersionRules(version), db.submission.count({ where: { datasetVersion: { version }, visibility: "public" } })]);
  const fixed = heldOutChangeProblem(version, before?.held_out, parsed.data.held_out, published);
  if (fixed) throw new DatasetImportError(fixed);
  const updated = await db.datasetVersion.updateMany({ where: { version }, data: { rules: columnJson(versionRulesSchema, parsed.data), rulesSetAt: new Date() } });
  if (updated.count === 0) throw new DatasetImportError(`no dataset version ${version}`);
  return parsed.data;
}

/** Every imported version, newest first. */
export async function listDatasetVersions(): Promise<DatasetVersionSummary[]> {
  const rows = await db.datasetVersion.findMany({ orderBy: { createdAt: "desc" } });
  return rows.map((r) => ({
    version: r.version,
    sha256: r.sha256,
    createdAt: r.createdAt,
    stats: parseColumn(datasetStatsSchema, r.stats, "DatasetVersion.stats"),
  }));
}

function bugFromRow(row: BugRow): Record<string, unknown> {
  return {
    ...parseColumn(extraFieldsSchema, row.extra, "Bug.extra"),
    order: row.order,
    swebench_instance_id: row.swebenchInstanceId,
    commit_hash: row.commitHash,
    problem_statement: row.problemStatement,
    date: row.date,
    source: row.source,
    patch: row.patch,
    test_patch: row.testPatch,
    FAIL_TO_PASS: parseColumn(testIdsSchema, row.failToPass, "Bug.failToPass"),
    PASS_TO_PASS: parseColumn(testIdsSchema, row.passToPass, "Bug.passToPass"),
    test_cmds: parseColumn(testCmdsSchema, row.testCmds, "Bug.testCmds"),
  };
}

function chainFromRows(row: ChainRow, bugs: BugRow[]): Chain {
  return chainSchema.parse({
    ...parseColumn(extraFieldsSchema, row.extra, "Chain.extra"),
    continuous_id: row.continuousId,
    repo: row.repo,
    base_commit: row.baseCommit,
    source: row.source,
    date_range: row.dateRange,
    docker_image: row.dockerImage,
    log_parser: row.logParser,
    swebench_instance_ids: bugs.map((b) => b.swebenchInstanceId),
    bug_fixes: bugs.map(bugFromRow),
  });
}

/** One chain of one version as the dataset file had it, or null when either is unknown. */
/** Every chain of a dataset version as its records, in import order: one query. */
export async function getChains(version: string): Promise<Chain[]> {
  const rows = await db.chain.findMany({ where: { datasetVersion: { version } }, include: { bugs: { orderBy: { order: "asc" } } }, orderBy: { id: "asc" } });
  return rows.map((row) => chainFromRows(row, row.bugs));
}

export async function getChain(version: string, continuousId: string): Promise<Chain | null> {
  const row = await db.chain.findFirst({
    where: { continuousId, datasetVersion: { version } },
    include: { bugs: { orderBy: { order: "asc" } } },
  });
  return row ? chainFromRows(row, row.bugs) : null;
}
