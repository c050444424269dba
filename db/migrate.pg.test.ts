/** The PostgreSQL migration runner against a real server (the "pg" project). */
import { afterEach, describe, expect, it } from "vitest";
import { migrateDatabase } from "./migrate";
import { createPostgresDatabase } from "@/lib/testing/test-db";

let drop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await drop?.();
  drop = undefined;
});

async function query<T>(url: string, sql: string): Promise<T[]> {
  const { Client } = await import("pg");
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

describe("migrateDatabase on PostgreSQL", () => {
  it("applies every migration once, records it as Prisma does, and is a no-op the second time", async () => {
    const pg = await createPostgresDatabase();
    drop = pg.drop;
    const first = await migrateDatabase(pg.url, { quiet: true });
    expect(first.applied.length).toBeGreaterThan(0);
    const second = await migrateDatabase(pg.url, { quiet: true });
    expect(second).toEqual({ applied: [], alreadyApplied: first.applied.length });
    const history = await query<{ migration_name: string; checksum: string }>(pg.url, `SELECT migration_name, checksum FROM "_prisma_migrations" ORDER BY migration_name`);
    expect(history.map((h) => h.migration_name)).toEqual(first.applied);
    for (const h of history) expect(h.checksum).toMatch(/^[0-9a-f]{64}$/);
    const tables = await query<{ table_name: string }>(pg.url, `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`);
    expect(tables.map((t) => t.table_name)).toEqual(expect.arrayContaining(["Submission", "BugResult", "EvaluationJob", "SubmissionScore"]));
  });

  it("refuses to go on when an applied migration's file was changed afterwards", async () => {
    const pg = await createPostgresDatabase();
    drop = pg.drop;
    const { applied } = await migrateDatabase(pg.url, { quiet: true });
    await query(pg.url, `UPDATE "_prisma_migrations" SET checksum = repeat('0', 64) WHERE migration_name = '${applied[0]}'`);
    await expect(migrateDatabase(pg.url, { quiet: true })).rejects.toThrow(`migration ${applied[0]} was changed after it was applied`);
  });
});
