/**
 * Prisma CLI configuration: the Rust-free engine, migrating through a driver
 * adapter (Prisma 6.19, `engineType = "client"`), so `prisma generate`, `migrate deploy`
 * and `migrate diff` need no downloaded engine. DATABASE_URL picks the engine:
 * `file:` is SQLite (the default), `postgresql://` PostgreSQL, each with its
 * own schema file and migrations (db/schema.ts).
 */
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { defineConfig } from "prisma/config";
import { env, exportDatabaseUrl } from "./env";
import { ensureDatabaseDir } from "./db/url";
import { PRISMA_LAYOUT, dbEngine } from "./db/schema";

exportDatabaseUrl();
const url = env().DATABASE_URL;
const engine = dbEngine(url);

export default defineConfig({
  schema: PRISMA_LAYOUT[engine].schema,
  migrations: { path: PRISMA_LAYOUT[engine].migrations },
  experimental: { adapter: true },
  engine: "js",
  adapter: async () => {
    if (engine === "postgresql") return new PrismaPg({ connectionString: url });
    ensureDatabaseDir(url);
    return new PrismaBetterSQLite3({ url });
  },
});
