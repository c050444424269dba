/**
 * Applying the committed migrations to DATABASE_URL (`chainswe db migrate`).
 *
 * SQLite: `prisma migrate deploy` through the better-sqlite3 adapter.
 * PostgreSQL: Prisma's Wasm schema engine cannot read a PostgreSQL database
 * through @prisma/adapter-pg ("Column type 'name' could not be deserialized",
 * prisma/orm#27403), so the migrations are applied here, in order, each in its
 * own transaction, and recorded in Prisma's own `_prisma_migrations` table with
 * Prisma's checksum: a deployment whose Prisma CLI can reach PostgreSQL natively
 * sees the same history and carries on from it.
 */
import { spawn } from "node:child_process";
import { createHash, randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { PRISMA_LAYOUT, dbEngine } from "./schema";
import { inheritedEnv } from "@/env";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const PRISMA_CLI = join(ROOT, "node_modules", "prisma", "build", "index.js");

export type MigrateResult = { applied: string[]; alreadyApplied: number };

/** Migration folders of an engine, oldest first (their names start with a timestamp). */
export function migrationNames(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(dir, d.name, "migration.sql")))
    .map((d) => d.name)
    .sort();
}

async function migrateSqlite(url: string, quiet: boolean): Promise<MigrateResult> {
  const args = [PRISMA_CLI, "migrate", "deploy", "--config", join(ROOT, "prisma.config.ts")];
  const output: Buffer[] = [];
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, args, { env: inheritedEnv({ DATABASE_URL: url }), stdio: quiet ? "pipe" : "inherit" });
    child.stdout?.on("data", (b: Buffer) => output.push(b));
    child.stderr?.on("data", (b: Buffer) => output.push(b));
    child.on("error", reject);
    child.on("exit", resolve);
  });
  if (code !== 0) throw new Error(`prisma migrate deploy failed (exit code ${code})${quiet ? `:\n${Buffer.concat(output).toString()}` : ""}`);
  return { applied: [], alreadyApplied: 0 };
}

const HISTORY_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

async function migratePostgres(url: string, log: (line: string) => void): Promise<MigrateResult> {
  const { Client } = await import("pg");
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    // one migrator at a time (two site processes starting together): a session-level advisory lock
    await client.query("SELECT pg_advisory_lock(7259013)");
    await client.query(HISTORY_TABLE);
    const dir = join(ROOT, PRISMA_LAYOUT.postgresql.migrations);
    const done = await client.query<{ migration_name: string; checksum: string; finished_at: Date | null }>(
      `SELECT migration_name, checksum, finished_at FROM "_prisma_migrations" WHERE rolled_back_at IS NULL`,
    );
    const applied = new Map(done.rows.map((r) => [r.migration_name, r]));
    const result: MigrateResult = { applied: [], alreadyApplied: 0 };
    for (const name of migrationNames(dir)) {
      const sql = readFileSync(join(dir, name, "migration.sql"), "utf8");
      const checksum = createHash("sha256").update(sql).digest("hex");
      const seen = applied.get(name);
      if (seen) {
        if (!seen.finished_at) throw new Error(`migration ${name} started earlier and did not finish: inspect the database before going on`);
        if (seen.checksum !== checksum) throw new Error(`migration ${name} was changed after it was applied (checksum differs)`);
        result.alreadyApplied++;
        continue;
      }
      await client.query("BEGIN");
      try {
        await client.query(sql);
        await client.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, finished_at, applied_steps_count) VALUES ($1, $2, $3, now(), 1)`,
          [randomUUID(), checksum, name],
        );
        await client.query("COMMIT");
      } catch (e) {
        await client.query("ROLLBACK");
        throw new Error(`migration ${name} failed and was rolled back: ${(e as Error).message}`);
      }
      log(`applied migration ${name}`);
      result.applied.push(name);
    }
    return result;
  } finally {
    await client.end();
  }
}

/** Brings the database at `url` up to the newest committed migration. */
export async function migrateDatabase(url: string, opts: { log?: (line: string) => void; quiet?: boolean } = {}): Promise<MigrateResult> {
  const log = opts.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  if (dbEngine(url) === "postgresql") {
    const r = await migratePostgres(url, opts.quiet ? () => {} : log);
    if (!opts.quiet) log(r.applied.length ? `All migrations have been successfully applied (${r.applied.length} new).` : "No pending migrations to apply.");
    return r;
  }
  return migrateSqlite(url, opts.quiet ?? false);
}
