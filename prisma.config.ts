/**
 * Prisma CLI configuration: the Rust-free engine, migrating SQLite through the
 * better-sqlite3 driver adapter (see ../shared/ENVIRONMENT.md), so `prisma
 * generate`, `migrate deploy` and `migrate diff` need no downloaded engine.
 */
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { defineConfig } from "prisma/config";
import { env, exportDatabaseUrl } from "./env";
import { ensureDatabaseDir } from "./lib/db-url";

exportDatabaseUrl();

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  experimental: { adapter: true },
  engine: "js",
  adapter: async () => {
    const url = env().DATABASE_URL;
    ensureDatabaseDir(url);
    return new PrismaBetterSQLite3({ url });
  },
});
