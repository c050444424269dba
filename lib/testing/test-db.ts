/**
 * For tests that need the database: a real SQLite file in a temp dir, migrated
 * with the committed migrations (`prisma migrate deploy`), the demo dataset
 * imported as "v1" unless told not to, and helpers to fake graded chains.
 * Modules that touch the database are imported after DATABASE_URL points at
 * the file, so the lib/db singleton opens it and nothing else.
 */
import { execFileSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { vi } from "vitest";
import type { BugArtifacts } from "@/evaluator/replay";
import type { Chain } from "@/lib/schemas/dataset";
import type { GradedBug } from "@/lib/schemas/results";

export const ROOT = new URL("../../", import.meta.url).pathname;
export const DEMO_DATASET = join(ROOT, "demo", "dataset.jsonl");
export const DEMO_GOLD_SEQ = join(ROOT, "demo", "predictions", "demo-gold.seq.jsonl");

export async function openTestDb(opts: { importDemo?: boolean } = {}) {
  const dir = await mkdtemp(join(tmpdir(), "chainswe-db-"));
  const url = `file:${join(dir, "test.db")}`;
  const prisma = join(ROOT, "node_modules", "prisma", "build", "index.js");
  execFileSync(process.execPath, [prisma, "migrate", "deploy", "--config", join(ROOT, "prisma.config.ts")], {
    env: { ...process.env, DATABASE_URL: url },
    stdio: "pipe",
  });
  vi.stubEnv("DATABASE_URL", url);
  delete (globalThis as { chainsweDb?: unknown }).chainsweDb;
  const { db } = await import("@/lib/db");
  const datasets = await import("@/lib/data/datasets");
  if (opts.importDemo !== false) await datasets.importDataset(DEMO_DATASET, "v1");
  const submissions = await import("@/lib/data/submissions");
  const close = async () => {
    await db.$disconnect();
    vi.unstubAllEnvs();
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
    };
    return { bug, log: `log of ${b.swebench_instance_id}`, modelPatch: b.patch };
  });
}
