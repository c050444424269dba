/**
 * The database engines the portal runs on, told apart by DATABASE_URL, and the
 * PostgreSQL schema derived from the SQLite one. The schema is portable (no
 * enums, no Json columns: core/schemas/columns.ts validates those), so the two
 * differ only in the datasource provider and where each client is generated.
 * Kept free of Prisma imports: prisma.config.ts uses it before `generate`.
 */
export type DbEngine = "sqlite" | "postgresql";

export function dbEngine(url: string): DbEngine {
  if (url.startsWith("file:")) return "sqlite";
  if (url.startsWith("postgresql://") || url.startsWith("postgres://")) return "postgresql";
  throw new Error(`DATABASE_URL must start with file: (SQLite) or postgresql:// (PostgreSQL), got ${JSON.stringify(url.split(":")[0] + ":")}`);
}

/** Schema file and migrations folder of each engine, relative to the project root. */
export const PRISMA_LAYOUT: Record<DbEngine, { schema: string; migrations: string }> = {
  sqlite: { schema: "prisma/schema.prisma", migrations: "prisma/migrations" },
  postgresql: { schema: "prisma/postgresql/schema.prisma", migrations: "prisma/postgresql/migrations" },
};

const GENERATED_NOTE = "// GENERATED from prisma/schema.prisma by scripts/prisma-pg-schema.ts: edit that file, then re-run the script.\n";

/** prisma/postgresql/schema.prisma's text for a given prisma/schema.prisma. */
export function postgresSchema(sqliteSchema: string): string {
  const swap = (text: string, from: string, to: string) => {
    if (!text.includes(from)) throw new Error(`prisma/schema.prisma no longer contains ${JSON.stringify(from)}`);
    return text.replace(from, to);
  };
  let text = swap(sqliteSchema, 'provider = "sqlite"', 'provider = "postgresql"');
  // the schema file sits one folder deeper, and the PostgreSQL client is a separate one
  text = swap(text, 'output       = "../db/generated/prisma"', 'output       = "../../db/generated/prisma-pg"');
  return GENERATED_NOTE + text;
}
