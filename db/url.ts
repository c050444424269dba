/**
 * Where a `DATABASE_URL` points on disk. Kept apart from db/client.ts so that
 * prisma.config.ts can use it before `prisma generate` has made the client.
 */
import { chmodSync, closeSync, mkdirSync, openSync } from "node:fs";
import { dirname, resolve } from "node:path";

/** The SQLite file of a `file:` URL (query string dropped), or null for other databases. */
export function sqliteFilePath(url: string): string | null {
  if (!url.startsWith("file:")) return null;
  const path = url.slice("file:".length).split("?")[0] ?? "";
  return path === "" || path === ":memory:" ? null : resolve(/*turbopackIgnore: true*/ path);
}

/**
 * better-sqlite3 creates the file but not its folder: make the folder. The
 * file holds password hashes and token hashes, so it is the owner's only
 * (0600); SQLite gives its -wal and -shm files the same mode.
 */
export function ensureDatabaseDir(url: string): void {
  const file = sqliteFilePath(url);
  if (!file) return;
  mkdirSync(dirname(file), { recursive: true });
  closeSync(openSync(/*turbopackIgnore: true*/ file, "a", 0o600));
  chmodSync(/*turbopackIgnore: true*/ file, 0o600);
}
