/**
 * importDataset / getChain / listDatasetVersions against a real SQLite file in a
 * temp dir, migrated with the committed migrations (`prisma migrate deploy`).
 * Every test imports under its own version into the one database, so each also
 * checks that it left the others alone.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadDataset } from "@/evaluator/dataset";
import { datasetStats } from "@/core/dataset/stats";
import { InputError } from "@/core/errors";
import { DEMO_DATASET as DEMO, ROOT, openTestDb, testDbEngine } from "@/lib/testing/test-db";

const UNITS = join(ROOT, "tests", "fixtures", "inputs", "units-chains.jsonl");

let dir: string;
let data: typeof import("@/lib/dataset/data");
let db: typeof import("@/db/client").db;
let close: () => Promise<void>;

/** What the database holds, to show a failed import wrote nothing. */
async function rowCounts() {
  const [versions, chains, bugs] = await Promise.all([db.datasetVersion.count(), db.chain.count(), db.bug.count()]);
  return { versions, chains, bugs };
}

async function writeLines(name: string, records: unknown[]): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, records.map((r) => JSON.stringify(r)).join("\n") + "\n");
  return path;
}

async function demoRecords(): Promise<Record<string, unknown>[]> {
  const text = await readFile(DEMO, "utf8");
  return text.trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
}

beforeAll(async () => {
  const t = await openTestDb({ importDemo: false });
  ({ dir, db, close, datasets: data } = t);
});

afterAll(async () => {
  await close?.();
});

describe("importDataset", () => {
  it("imports the demo dataset and reads every chain back as loadDataset gave it", async () => {
    const imported = await data.importDataset(DEMO, "v1");
    const loaded = await loadDataset(DEMO);
    // the full statistics (core/dataset/stats.ts), stored as they were computed
    expect(imported.stats).toEqual(datasetStats(loaded.chains));
    expect(imported.stats).toMatchObject({ chains: 5, bugs: 16, repos: 5, avg_length: 3.2 });
    expect(imported.sha256).toBe(loaded.sha256);
    for (const chain of loaded.chains) {
      expect(await data.getChain("v1", chain.continuous_id)).toEqual(chain);
    }
    const versions = await data.listDatasetVersions();
    expect(versions.find((v) => v.version === "v1")).toMatchObject({ sha256: loaded.sha256, stats: imported.stats });
  });

  it("keeps unknown fields and normalizes test lists exactly as loadDataset does", async () => {
    const [first] = (await readFile(UNITS, "utf8")).trim().split("\n");
    const chain = JSON.parse(first ?? "") as Record<string, unknown> & { bug_fixes: Record<string, unknown>[] };
    chain.difficulty = { level: "hard", notes: ["two files"] };
    const bug = chain.bug_fixes[0]!;
    bug.FAIL_TO_PASS = JSON.stringify(bug.FAIL_TO_PASS);
    bug.annotator = "a1";
    const path = await writeLines("extra.jsonl", [chain]);
    await data.importDataset(path, "extra");
    const loaded = (await loadDataset(path)).chains[0]!;
    const back = await data.getChain("extra", loaded.continuous_id);
    expect(back).toEqual(loaded);
    expect(back?.difficulty).toEqual({ level: "hard", notes: ["two files"] });
    expect(back?.bug_fixes[0]?.annotator).toBe("a1");
  });

  it("imports nothing when one record among good ones is bad, and names its line and field", async () => {
    const records = await demoRecords();
    const bad = records[2] as { bug_fixes: { patch: string }[] };
    bad.bug_fixes[0]!.patch = "not a diff";
    const path = await writeLines("one-bad.jsonl", records);
    const before = await rowCounts();
    const err = await data.importDataset(path, "one-bad").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).message).toContain("line 3");
    expect((err as InputError).message).toContain("bug_fixes[0].patch");
    expect(await rowCounts()).toEqual(before);
    expect((await data.listDatasetVersions()).map((v) => v.version)).not.toContain("one-bad");
  });

  it("refuses a version that already exists and leaves the first import intact", async () => {
    const before = await rowCounts();
    await expect(data.importDataset(DEMO, "v1")).rejects.toThrow(/dataset version v1 already exists/);
    await expect(data.importDataset(UNITS, "v1")).rejects.toBeInstanceOf(data.DatasetImportError);
    expect(await rowCounts()).toEqual(before);
    const loaded = await loadDataset(DEMO);
    expect(await data.getChain("v1", loaded.chains[0]!.continuous_id)).toEqual(loaded.chains[0]);
  });

  it("rolls the whole version back when the database fails part-way through", async () => {
    const loaded = await loadDataset(DEMO);
    const lastBug = loaded.chains.at(-1)!.bug_fixes.at(-1)!;
    const id = lastBug.swebench_instance_id;
    // a trigger that refuses the very last row, in each engine's dialect
    const refuse =
      testDbEngine() === "postgresql"
        ? [
            `CREATE FUNCTION refuse_bug() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'refused by test'; END $$ LANGUAGE plpgsql`,
            `CREATE TRIGGER refuse_bug BEFORE INSERT ON "Bug" FOR EACH ROW WHEN (NEW."swebenchInstanceId" = '${id}') EXECUTE FUNCTION refuse_bug()`,
          ]
        : [`CREATE TRIGGER refuse_bug BEFORE INSERT ON "Bug" WHEN NEW."swebenchInstanceId" = '${id}' BEGIN SELECT RAISE(ABORT, 'refused by test'); END`];
    const allow = testDbEngine() === "postgresql" ? [`DROP TRIGGER refuse_bug ON "Bug"`, `DROP FUNCTION refuse_bug()`] : [`DROP TRIGGER refuse_bug`];
    for (const sql of refuse) await db.$executeRawUnsafe(sql);
    try {
      const before = await rowCounts();
      // the last bug of the last chain: every other row was already written in the transaction
      await expect(data.importDataset(DEMO, "half")).rejects.toThrow();
      expect(await rowCounts()).toEqual(before);
    } finally {
      for (const sql of allow) await db.$executeRawUnsafe(sql);
    }
    await data.importDataset(DEMO, "half");
    expect(await data.getChain("half", loaded.chains.at(-1)!.continuous_id)).toEqual(loaded.chains.at(-1));
  });

  it("refuses a version name that cannot appear in a URL", async () => {
    await expect(data.importDataset(DEMO, "v 1/x")).rejects.toBeInstanceOf(data.DatasetImportError);
  });
});

describe("getChain", () => {
  it("answers null for an unknown chain or version", async () => {
    expect(await data.getChain("v1", "no-such-chain")).toBeNull();
    expect(await data.getChain("no-such-version", "dateranges-chain-1")).toBeNull();
  });
});
