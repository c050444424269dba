/**
 * An upload's large texts (model patches, trajectory logs), written to the
 * database by the upload-checking thread before the submission is stored,
 * straight through the driver, one text per statement. The storing
 * transaction names a patch from its prediction (Prediction.patchTextId) and
 * a log from its trajectory (Trajectory.logTextId), so no megabyte of an
 * upload passes through the answering thread: Prisma's query compiler costs
 * that thread about 100 ms per MB of a value, one 32 MB upload stalled every
 * other request for seconds, and even copying the patches in SQL (INSERT …
 * SELECT, then a commit writing them again) held it over 200 ms.
 *
 * Invariants: a staged text belongs to one upload; a refused upload's texts
 * are deleted (createSubmission), a stored one's stay, named by its rows, and
 * go when the submission is deleted (lib/submissions/removal.ts); any left by
 * a crash go after a day (the next upload's staging deletes the texts no row
 * names).
 */
import { randomUUID } from "node:crypto";
import { dbEngine } from "@/db/schema";
import { sqliteFilePath } from "@/db/url";

/** A text the thread staged: where the storing transaction finds it. */
export type StagedText = { staged: string };

export const isStaged = (v: unknown): v is StagedText => typeof v === "object" && v !== null && typeof (v as StagedText).staged === "string";

/** Texts shorter than this are handed back as they are: staging pays only for the large ones. */
export const STAGED_MIN_CHARS = 16 * 1024;

/** A way to run one statement on the database at `url`, opened outside Prisma (the upload-checking thread). */
type Statement = (sql: { sqlite: string; pg: string }, params: unknown[]) => Promise<void>;

async function connect(url: string): Promise<{ run: Statement; close: () => Promise<void> }> {
  if (dbEngine(url) === "postgresql") {
    const { Client } = await import("pg");
    const client = new Client({ connectionString: url });
    await client.connect();
    return { run: async (sql, params) => void (await client.query(sql.pg, params)), close: () => client.end() };
  }
  const { default: Database } = await import("better-sqlite3");
  // a writer elsewhere holds the lock for one statement at most: wait for it on this thread
  const sqlite = new Database(sqliteFilePath(url)!, { timeout: 30_000, fileMustExist: true });
  return { run: async (sql, params) => void sqlite.prepare(sql.sqlite).run(...(params as unknown[])), close: async () => void sqlite.close() };
}

/**
 * Writes each of `texts` at least STAGED_MIN_CHARS long to the database at
 * `url`, one statement each; answers the texts with those replaced by where
 * they were staged. Runs on the upload-checking thread.
 */
export async function stageTexts(url: string, texts: string[]): Promise<(string | StagedText)[]> {
  if (!texts.some((t) => t.length >= STAGED_MIN_CHARS)) return texts;
  const db = await connect(url);
  try {
    // createdAt is the database's own clock in both (its column default): only this module writes the table
    const named = `(EXISTS (SELECT 1 FROM "Trajectory" t WHERE t."logTextId" = "StagedText"."id") OR EXISTS (SELECT 1 FROM "Prediction" p WHERE p."patchTextId" = "StagedText"."id"))`;
    await db.run({ sqlite: `DELETE FROM "StagedText" WHERE "createdAt" < datetime('now', '-1 day') AND NOT ${named}`, pg: `DELETE FROM "StagedText" WHERE "createdAt" < now() - interval '1 day' AND NOT ${named}` }, []);
    const out: (string | StagedText)[] = [];
    for (const text of texts) {
      if (text.length < STAGED_MIN_CHARS) {
        out.push(text);
        continue;
      }
      const id = randomUUID();
      await db.run({ sqlite: `INSERT INTO "StagedText" ("id", "text") VALUES (?, ?)`, pg: `INSERT INTO "StagedText" ("id", "text") VALUES ($1, $2)` }, [id, text]);
      out.push({ staged: id });
    }
    return out;
  } finally {
    await db.close();
  }
}

/** What a prediction's model patch is read by: its own column, or the staged text it names (Prediction.patchTextId). */
export const STORED_PATCH = { modelPatch: true, patchText: { select: { text: true } } } as const;
export const storedPatch = (row: { modelPatch: string; patchText: { text: string } | null }): string => row.patchText?.text ?? row.modelPatch;

/** What a trajectory's log is read by: its own column, or the staged text it names (Trajectory.logTextId). */
export const STORED_LOG = { log: true, logText: { select: { text: true } } } as const;
export const storedLog = (row: { log: string; logText: { text: string } | null }): string => row.logText?.text ?? row.log;
