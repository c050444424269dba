/**
 * `chainswe dataset import <file> --version v1`: a dataset version into the
 * portal's database, whole or not at all.
 * `chainswe dataset rules <version> [file]`: a version's rules for run manifests.
 * `chainswe dataset mini <version> --size N`: its Mini split, computed and stored.
 * `chainswe dataset held-out <version> [--chains id…]`: its held-out chains, printed or set.
 * `chainswe dataset release <version> --from <parent> …`: a new version from its parent, every change with why.
 * `chainswe db migrate`: the committed migrations applied to DATABASE_URL
 * (SQLite or PostgreSQL: db/migrate.ts).
 */
import type { Command } from "commander";
import { env } from "@/env";
import { migrateDatabase } from "@/db/migrate";
import { z } from "zod";
import { UnreachableError, isNetworkError } from "@/core/errors";
import { databaseAddress } from "./network";
import { parseOptions, readableFile, UsageError } from "./options";

/** Prisma's "table does not exist": a database nobody has migrated. */
function isMissingTable(e: unknown): boolean {
  return typeof e === "object" && e !== null && "code" in e && e.code === "P2021";
}

export const importOptionsSchema = z.object({
  file: readableFile,
  version: z.string().trim().min(1, "give a version name, e.g. v1"),
  heldOut: z.array(z.string().trim().min(1)).default([]),
});

async function importCommand(fileArg: string, raw: Record<string, unknown>): Promise<void> {
  const { file, ...opts } = parseOptions("dataset import", importOptionsSchema, { ...raw, file: fileArg }, ["file"]);
  // loaded here so that `chainswe evaluate` and friends never open the database
  const { DatasetImportError, importDataset } = await import("@/lib/dataset/data");
  try {
    const imported = await importDataset(file, opts.version, undefined, { heldOut: opts.heldOut });
    for (const w of imported.warnings) process.stderr.write(`warning: ${w}\n`);
    const { chains, bugs, repos } = imported.stats;
    process.stdout.write(`imported dataset ${imported.version}: ${chains} chains, ${bugs} bugs, ${repos} repos\n`);
  } catch (e) {
    if (isMissingTable(e)) {
      process.stderr.write("chainswe: the database has no ChainSWE tables: run `chainswe db migrate` first\n");
      process.exitCode = 1;
      return;
    }
    // bad input, like the InputError main() reports with exit code 2
    if (!(e instanceof DatasetImportError)) throw e;
    process.stderr.write(`chainswe: ${e.message}\n`);
    process.exitCode = 2;
  }
}

/** `chainswe dataset rules <version> [file]`: prints a version's rules for run manifests, or sets them from a JSON file. */
async function rulesCommand(version: string, file: string | undefined): Promise<void> {
  const { DatasetImportError, getVersionRules, setVersionRules } = await import("@/lib/dataset/data");
  try {
    if (file === undefined) {
      const rules = await getVersionRules(version);
      if (!rules) throw new DatasetImportError(`no dataset version ${version}`);
      process.stdout.write(`${JSON.stringify(rules, null, 2)}\n`);
      return;
    }
    const { readFile } = await import("node:fs/promises");
    let raw: unknown;
    try {
      raw = JSON.parse(await readFile(parseOptions("dataset rules", z.object({ file: readableFile }), { file }, ["file"]).file, "utf8"));
    } catch (e) {
      if (e instanceof SyntaxError) throw new DatasetImportError(`${file} is not JSON: ${e.message}`);
      throw e;
    }
    const rules = await setVersionRules(version, raw);
    process.stdout.write(`dataset ${version}'s rules: ${JSON.stringify(rules)}\n`);
  } catch (e) {
    if (!(e instanceof DatasetImportError)) throw e;
    process.stderr.write(`chainswe: ${e.message}\n`);
    process.exitCode = 2;
  }
}

/**
 * `chainswe dataset held-out <version> [--chains id…]`: prints the version's
 * held-out chains, or sets them (SPEC §8): its other rules kept, every id
 * checked against the version's chains (an unknown one named, nothing stored).
 * `--chains` with no id is refused; `--none` makes every chain public.
 */
async function heldOutCommand(version: string, raw: Record<string, unknown>): Promise<void> {
  const opts = parseOptions("dataset held-out", z.object({ chains: z.array(z.string().trim().min(1, "an empty chain id")).min(1, "name at least one chain id").optional(), none: z.boolean().default(false) }), raw);
  const { DatasetImportError, getVersionRules, setVersionRules } = await import("@/lib/dataset/data");
  try {
    if (opts.chains && opts.none) throw new UsageError("dataset held-out", [{ field: "--none", message: "give --chains or --none, not both" }]);
    const rules = await getVersionRules(version);
    if (!rules) throw new DatasetImportError(`no dataset version ${version}`);
    if (!opts.chains && !opts.none) {
      process.stdout.write(`${(rules.held_out ?? []).join("\n")}\n`);
      return;
    }
    const { held_out: _, ...rest } = rules;
    const set = await setVersionRules(version, opts.none ? rest : { ...rest, held_out: opts.chains });
    process.stdout.write(`dataset ${version}'s held-out chains: ${set.held_out?.join(", ") || "none"}\n`);
  } catch (e) {
    if (!(e instanceof DatasetImportError)) throw e;
    process.stderr.write(`chainswe: ${e.message}\n`);
    process.exitCode = 2;
  }
}

/** `chainswe dataset mini <version> --size N`: computes and stores the version's Mini split over its published rows (SPEC §8). */
async function miniCommand(version: string, raw: Record<string, unknown>): Promise<void> {
  const { size } = parseOptions("dataset mini", z.object({ size: z.coerce.number({ error: "must be a number of chains" }).int("must be a whole number of chains").positive("must be at least 1") }), raw);
  const { DatasetImportError } = await import("@/lib/dataset/data");
  const { computeVersionMini } = await import("@/lib/dataset/mini");
  try {
    const mini = await computeVersionMini(version, size);
    process.stdout.write(`dataset ${version}'s Mini split: ${mini.size} chain(s) over ${mini.rows} published row(s), Kendall tau-b ${mini.tau === null ? "undefined" : mini.tau.toFixed(4)}\n${mini.chains.join("\n")}\n`);
  } catch (e) {
    if (!(e instanceof DatasetImportError)) throw e;
    process.stderr.write(`chainswe: ${e.message}\n`);
    process.exitCode = 2;
  }
}

export const releaseOptionsSchema = z.object({
  version: z.string().trim().min(1, "give the new version's name, e.g. v2"),
  from: z.string().trim().min(1, "the version to release from, e.g. v1"),
  add: readableFile.optional(),
  retire: z.array(z.string().trim().min(1)).default([]),
  accepted: z.boolean().default(false),
  notes: readableFile.optional(),
  heldOut: z.array(z.string().trim().min(1)).default([]),
});

/** `chainswe dataset release <version> --from <parent> [--add file] [--retire id…] [--accepted] [--notes notes.json]`: a new version from its parent (SPEC §8). */
async function releaseCommand(versionArg: string, raw: Record<string, unknown>): Promise<void> {
  const opts = parseOptions("dataset release", releaseOptionsSchema, { ...raw, version: versionArg }, ["version"]);
  const { readFile } = await import("node:fs/promises");
  let reasons: unknown = {};
  if (opts.notes) {
    try {
      reasons = JSON.parse(await readFile(opts.notes, "utf8"));
    } catch (e) {
      throw new UsageError("dataset release", [{ field: "--notes", message: `${opts.notes} is not JSON: ${(e as Error).message}` }]);
    }
  }
  const notes = z.record(z.string(), z.string().trim().min(1, "an empty reason")).safeParse(reasons);
  if (!notes.success) throw new UsageError("dataset release", [{ field: "--notes", message: `${opts.notes}: ${notes.error.issues[0]!.path.join(".") || "the file"}: ${notes.error.issues[0]!.message} (expected {"<chain id>": "why it is added, changed or retired", …})` }]);
  const { DatasetImportError } = await import("@/lib/dataset/data");
  const { releaseVersion } = await import("@/lib/dataset/release");
  try {
    const released = await releaseVersion({ version: opts.version, parent: opts.from, addPath: opts.add ?? null, retire: opts.retire, accepted: opts.accepted, reasons: notes.data, heldOut: opts.heldOut });
    for (const w of released.warnings) process.stderr.write(`warning: ${w}\n`);
    process.stdout.write(`released dataset ${released.version} from ${opts.from}: ${released.stats.chains} chains, ${released.stats.bugs} bugs\n${released.notes.map((n) => `${n.change}\t${n.chain}\t${n.reason}`).join("\n")}\n`);
  } catch (e) {
    if (!(e instanceof DatasetImportError)) throw e;
    process.stderr.write(`chainswe: ${e.message}\n`);
    process.exitCode = 2;
  }
}

async function migrateCommand(): Promise<void> {
  try {
    await migrateDatabase(env().DATABASE_URL);
  } catch (e) {
    // PostgreSQL's migrations connect through pg itself, not Prisma
    throw isNetworkError(e) ? new UnreachableError("the database", databaseAddress(), e) : e;
  }
}

export function registerDataset(program: Command): void {
  const dataset = program.command("dataset").description("dataset versions in the portal's database");
  dataset
    .command("import <file>")
    .description("validate a dataset (JSON array or JSONL) and store it as a new version, in one transaction")
    .requiredOption("--version <name>", "the version to create, e.g. v1 (never overwritten)")
    .option("--held-out <ids...>", "chain ids to hold out (SPEC §8): shown to reviewers only, scored apart")
    .action(importCommand);
  dataset
    .command("rules <version> [file]")
    .description("a version's rules for run manifests (docs/API.md): print them, or set them from a JSON file")
    .action(rulesCommand);
  dataset
    .command("release <version>")
    .description("a new version from another: its chains plus those added or changed, minus those retired, each change with why (SPEC §8)")
    .requiredOption("--from <version>", "the version to release from (never changed)")
    .option("--add <file>", "chains to add, or to change (a chain of the parent's id with another record), JSONL")
    .option("--retire <ids...>", "chain ids of the parent to leave out")
    .option("--accepted", "also every chain proposed for the parent and accepted by a reviewer, noted with its proposal and review")
    .option("--notes <file>", 'JSON: why each chain is added, changed or retired, {"<chain id>": "why", …} (accepted proposals note themselves)')
    .option("--held-out <ids...>", "the new version's held-out chains (SPEC §8)")
    .action(releaseCommand);
  dataset
    .command("held-out <version>")
    .description("a version's held-out chains (SPEC §8): print them, or set them; shown to reviewers only, scored apart")
    .option("--chains <ids...>", "the chain ids to hold out (replaces the list)")
    .option("--none", "hold out no chain")
    .action(heldOutCommand);
  dataset
    .command("mini <version>")
    .description("compute and store a version's Mini split over its published rows (SPEC §8); fixed once a submission uses it")
    .requiredOption("--size <n>", "the number of chains")
    .action(miniCommand);
  program
    .command("db")
    .description("the portal's database (DATABASE_URL)")
    .command("migrate")
    .description("apply the committed migrations (SQLite: prisma migrate deploy; PostgreSQL: prisma/postgresql/migrations)")
    .action(migrateCommand);
}
