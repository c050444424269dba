/**
 * The Prisma client: one per process, kept on globalThis so Next's dev reloads
 * do not open a new connection per edit. SQLite through the better-sqlite3
 * driver adapter (no query-engine binary); the URL comes from env.ts.
 */
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { env } from "@/env";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { ensureDatabaseDir } from "./db-url";

export type Db = PrismaClient;

export function createDb(url: string): Db {
  ensureDatabaseDir(url);
  return new PrismaClient({ adapter: new PrismaBetterSQLite3({ url }) });
}

const globalForDb = globalThis as typeof globalThis & { chainsweDb?: Db };

export const db: Db = globalForDb.chainsweDb ?? createDb(env().DATABASE_URL);
globalForDb.chainsweDb = db;
