/**
 * For tests that need the database: a real SQLite file in a temp dir, or, with
 * CHAINSWE_TEST_DB=postgresql (the "pg" test project), a fresh PostgreSQL
 * database on the local server (dropped afterwards), migrated with the
 * committed migrations (lib/db-migrate.ts), the demo dataset
 * imported as "v1" unless told not to, and helpers to fake graded chains.
 * Modules that touch the database are imported after DATABASE_URL points at
 * the file, so the lib/db singleton opens it and nothing else.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { vi } from "vitest";
import type { BugArtifacts } from "@/evaluator/replay";
import type { Chain } from "@/lib/schemas/dataset";
import type { GradedBug } from "@/lib/schemas/results";
import { graderProvenance, sha256Hex } from "@/evaluator/grading";

export const ROOT = new URL("../../", import.meta.url).pathname;
export const DEMO_DATASET = join(ROOT, "demo", "dataset.jsonl");
export const DEMO_GOLD_SEQ = join(ROOT, "demo", "predictions", "demo-gold.seq.jsonl");

/** The server the PostgreSQL test databases are made on (scripts/ensure-services.sh starts it). */
export const TEST_PG_SERVER = process.env.CHAINSWE_TEST_PG_URL ?? "postgresql://root@localhost/postgres?host=/var/run/postgresql";

export const testDbEngine = (): "sqlite" | "postgresql" => (process.env.CHAINSWE_TEST_DB === "postgresql" ? "postgresql" : "sqlite");

/** A new, empty PostgreSQL database; its URL and how to drop it. */
export async function createPostgresDatabase(prefix = "chainswe_t"): Promise<{ url: string; drop: () => Promise<void> }> {
  const { Client } = await import("pg");
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  const admin = async (sql: string) => {
    const client = new Client({ connectionString: TEST_PG_SERVER });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(TEST_PG_SERVER);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

export async function openTestDb(opts: { importDemo?: boolean } = {}) {
  const dir = await mkdtemp(join(tmpdir(), "chainswe-db-"));
  const pg = testDbEngine() === "postgresql" ? await createPostgresDatabase() : null;
  const url = pg ? pg.url : `file:${join(dir, "test.db")}`;
  const { migrateDatabase } = await import("@/lib/db-migrate");
  await migrateDatabase(url, { quiet: true });
  vi.stubEnv("DATABASE_URL", url);
  delete (globalThis as { chainsweDb?: unknown }).chainsweDb;
  const { db } = await import("@/lib/db");
  const datasets = await import("@/lib/dataset/data");
  if (opts.importDemo !== false) await datasets.importDataset(DEMO_DATASET, "v1");
  const submissions = await import("@/lib/submissions/data");
  const close = async () => {
    await db.$disconnect();
    vi.unstubAllEnvs();
    await pg?.drop();
    await rm(dir, { recursive: true, force: true });
  };
  return { dir, url, db, datasets, submissions, close };
}

/** What replayChain would hand back for a chain where every bug resolved. */
export function fakeGradedChain(chain: Chain, system = "demo-gold"): BugArtifacts[] {
  return chain.bug_fixes.map((b) => {
    const bug: GradedBug = {
      continuous_id: chain.continuous_id,
      swebench_instance_id: b.swebench_instance_id,
      order: b.order,
      mode: "seq",
      system,
      resolved: true,
      patch_applied: true,
      apply_method: "git_apply",
      fingerprint: null,
      tampered: false,
      fail_to_pass: { success: b.FAIL_TO_PASS, failure: [] },
      pass_to_pass: { success: b.PASS_TO_PASS, failure: [] },
      exit_code: 0,
      timed_out: false,
      duration_s: 0.5,
      model_files: [],
      gold_files: [],
      test_files: [],
      discarded_files: [],
      // as the replay records them: a prediction hash stands in for the gold patch's line
      ...graderProvenance(chain, undefined),
      prediction_sha256: sha256Hex(b.patch),
    };
    return { bug, log: `log of ${b.swebench_instance_id}`, modelPatch: b.patch };
  });
}
