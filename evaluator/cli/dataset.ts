/**
 * `chainswe dataset import <file> --version v1`: a dataset version into the
 * portal's database, whole or not at all.
 * `chainswe db migrate`: the committed migrations applied to DATABASE_URL
 * (SQLite or PostgreSQL: lib/db-migrate.ts).
 */
import type { Command } from "commander";
import { env } from "@/env";
import { migrateDatabase } from "@/lib/db-migrate";
import { z } from "zod";
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

async function migrateCommand(): Promise<void> {
  await migrateDatabase(env().DATABASE_URL);
}

export function registerDataset(program: Command): void {
  const dataset = program.command("dataset").description("dataset versions in the portal's database");
  dataset
    .command("import <file>")
    .description("validate a dataset (JSON array or JSONL) and store it as a new version, in one transaction")
    .requiredOption("--version <name>", "the version to create, e.g. v1 (never overwritten)")
    .action(importCommand);
  program
    .command("db")
    .description("the portal's database (DATABASE_URL)")
    .command("migrate")
    .description("apply the committed migrations (SQLite: prisma migrate deploy; PostgreSQL: prisma/postgresql/migrations)")
    .action(migrateCommand);
}
