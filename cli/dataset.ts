/**
 * `chainswe dataset import <file> --version v1`: a dataset version into the
 * portal's database, whole or not at all.
 * `chainswe dataset rules <version> [file]`: a version's rules for run manifests.
 * `chainswe db migrate`: the committed migrations applied to DATABASE_URL
 * (SQLite or PostgreSQL: db/migrate.ts).
 */
import type { Command } from "commander";
import { env } from "@/env";
import { migrateDatabase } from "@/db/migrate";
import { z } from "zod";
import { UnreachableError, isNetworkError } from "@/core/errors";
import { databaseAddress } from "./network";
import { parseOptions, readableFile } from "./options";

/** Prisma's "table does not exist": a database nobody has migrated. */
function isMissingTable(e: unknown): boolean {
  return typeof e === "object" && e !== null && "code" in e && e.code === "P2021";
}

export const importOptionsSchema = z.object({
  file: readableFile,
  version: z.string().trim().min(1, "give a version name, e.g. v1"),
});

async function importCommand(fileArg: string, raw: Record<string, unknown>): Promise<void> {
  const { file, ...opts } = parseOptions("dataset import", importOptionsSchema, { ...raw, file: fileArg }, ["file"]);
  // loaded here so that `chainswe evaluate` and friends never open the database
  const { DatasetImportError, importDataset } = await import("@/lib/dataset/data");
  try {
    const imported = await importDataset(file, opts.version);
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
    .action(importCommand);
  dataset
    .command("rules <version> [file]")
    .description("a version's rules for run manifests (docs/API.md): print them, or set them from a JSON file")
    .action(rulesCommand);
  program
    .command("db")
    .description("the portal's database (DATABASE_URL)")
    .command("migrate")
    .description("apply the committed migrations (SQLite: prisma migrate deploy; PostgreSQL: prisma/postgresql/migrations)")
    .action(migrateCommand);
}
