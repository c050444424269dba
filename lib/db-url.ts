/**
 * Where a `DATABASE_URL` points on disk. Kept apart from lib/db.ts so that
 * prisma.config.ts can use it before `prisma generate` has made the client.
 */
import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";

/** The SQLite file of a `file:` URL (query string dropped), or null for other databases. */
export function sqliteFilePath(url: string): string | null {
  if (!url.startsWith("file:")) return null;
  const path = url.slice("file:".length).split("?")[0] ?? "";
  return path === "" || path === ":memory:" ? null : resolve(/*turbopackIgnore: true*/ path);
}

/** better-sqlite3 creates the file but not its folder: make the folder. */
export function ensureDatabaseDir(url: string): void {
  const file = sqliteFilePath(url);
  if (file) mkdirSync(dirname(file), { recursive: true });
}
