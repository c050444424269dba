import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PRISMA_LAYOUT, dbEngine, postgresSchema } from "./schema";
import { migrationNames } from "./migrate";

const ROOT = new URL("../", import.meta.url).pathname;
const read = (path: string) => readFileSync(join(ROOT, path), "utf8");

describe("the PostgreSQL schema", () => {
  it("is prisma/schema.prisma with only the provider and the client's folder changed (run scripts/prisma-pg-schema.ts after editing it)", () => {
    expect(read(PRISMA_LAYOUT.postgresql.schema)).toBe(postgresSchema(read(PRISMA_LAYOUT.sqlite.schema)));
  });

  it("refuses a schema it no longer knows how to convert", () => {
    expect(() => postgresSchema('datasource db {\n  provider = "mysql"\n}')).toThrow(/no longer contains "provider = \\"sqlite\\""/);
  });

  it("has migrations of its own, in timestamp order", () => {
    const names = migrationNames(join(ROOT, PRISMA_LAYOUT.postgresql.migrations));
    expect(names.length).toBeGreaterThan(0);
    expect(read(join(PRISMA_LAYOUT.postgresql.migrations, "migration_lock.toml"))).toContain('provider = "postgresql"');
  });
});

describe("dbEngine", () => {
  it("tells the engines apart by the URL's scheme and names a wrong one", () => {
    expect(dbEngine("file:./data/chainswe.db")).toBe("sqlite");
    expect(dbEngine("postgresql://root@localhost/x?host=/var/run/postgresql")).toBe("postgresql");
    expect(dbEngine("postgres://u:p@db:5432/chainswe")).toBe("postgresql");
    expect(() => dbEngine("mysql://localhost/x")).toThrow(/file: \(SQLite\) or postgresql:\/\/ \(PostgreSQL\), got "mysql:"/);
  });
});
