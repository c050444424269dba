import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { createDb } from "./client";

const dir = mkdtempSync(join(tmpdir(), "chainswe-db-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("createDb on SQLite", () => {
  it("puts the file in write-ahead-log mode, so a reader never waits for a writer's commit; its log files are owner-only", async () => {
    const file = join(dir, "site.db");
    const db = createDb(`file:${file}`);
    await db.$queryRawUnsafe("CREATE TABLE t (x TEXT)");
    const other = new Database(file);
    expect(other.pragma("journal_mode", { simple: true })).toBe("wal");
    // a writer elsewhere holding the lock it commits under (in the rollback journal, every reader waits for it) does not hold this connection's read
    other.exec("BEGIN EXCLUSIVE; INSERT INTO t VALUES ('pending')");
    const [row] = await db.$queryRawUnsafe<{ n: bigint | number }[]>("SELECT COUNT(*) AS n FROM t");
    expect(Number(row!.n)).toBe(0);
    other.exec("COMMIT");
    other.close();
    expect(statSync(`${file}-wal`).mode & 0o777).toBe(0o600);
    await db.$disconnect();
  });
});
