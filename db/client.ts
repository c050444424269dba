/**
 * The Prisma client: one per process, kept on globalThis so Next's dev reloads
 * do not open a new connection per edit. No query-engine binary: queries go
 * through a driver adapter, better-sqlite3 for `file:` URLs (the default) or
 * pg for `postgresql://` ones, each with the client generated from its own
 * schema file (lib/db-schema.ts). The two clients have the same models; the
 * code is written against the SQLite client's types.
 */
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import Database from "better-sqlite3";
import { env } from "@/env";
import { Prisma, PrismaClient } from "@/db/generated/prisma/client";
import { PrismaClient as PostgresPrismaClient } from "@/db/generated/prisma-pg/client";
import { dbEngine } from "./schema";
import { ensureDatabaseDir, sqliteFilePath } from "./url";

export type Db = PrismaClient;

export function createDb(url: string): Db {
  if (dbEngine(url) === "postgresql") {
    // same models, same queries; only the generated client differs (its provider)
    return new PostgresPrismaClient({ adapter: new PrismaPg({ connectionString: url }) }) as unknown as Db;
  }
  ensureDatabaseDir(url);
  setWriteAheadLog(url);
  return new PrismaClient({ adapter: new PrismaBetterSQLite3({ url }) });
}

/**
 * SQLite's write-ahead log, set once on the file (it stays set): readers never
 * wait for a writer. In the default rollback journal, every read of the site
 * waited while the upload-checking thread committed a staged 4 MB log, and
 * better-sqlite3 waits for a lock on the answering thread itself.
 */
function setWriteAheadLog(url: string): void {
  const file = sqliteFilePath(url);
  if (!file) return;
  const sqlite = new Database(file, { timeout: 30_000 });
  try {
    sqlite.pragma("journal_mode = WAL");
  } finally {
    sqlite.close();
  }
}

const globalForDb = globalThis as typeof globalThis & { chainsweDb?: Db };

export const db: Db = globalForDb.chainsweDb ?? createDb(env().DATABASE_URL);
globalForDb.chainsweDb = db;

/** A write refused by a unique index (Prisma's P2002): a name taken, or a race lost to another writer. */
export function isUniqueViolation(e: unknown): boolean {
  return e instanceof Prisma.PrismaClientKnownRequestError && e.code === "P2002";
}
