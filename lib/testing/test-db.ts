/**
 * For tests that need the database: a real SQLite file in a temp dir, or, with
 * CHAINSWE_TEST_DB=postgresql (the "pg" test project), a fresh PostgreSQL
 * database on the local server (dropped afterwards), migrated with the
 * committed migrations (db/migrate.ts), the demo dataset
 * imported as "v1" unless told not to, and helpers to fake graded chains, a
 * completed submission of them, and the users who view it.
 * Modules that touch the database are imported after DATABASE_URL points at
 * the file, so the db/client singleton opens it and nothing else.
 */
import { goldSimilarity } from "@/core/diff/similarity";
import { createHash, randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { copyFile, mkdtemp, rename, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { vi } from "vitest";
import type { BugArtifacts } from "@/evaluator/replay";
import { bugResultRow } from "@/jobs/queue/results";
import type { Viewer } from "@/lib/authz";
import type { Chain } from "@/core/schemas/dataset";
import type { GradedBug } from "@/core/schemas/results";
import { graderProvenance, sha256Hex } from "@/core/grading";
import { ROOT } from "@/lib/testing/demo-database";
import type { SystemRef } from "@/lib/teams/systems";

export { ROOT };
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

/**
 * An empty SQLite database with every committed migration applied, made once per
 * set of migrations on this machine and copied by each test: applying them is a
 * Prisma process of a few CPU-seconds, and the unit tests open a database dozens
 * of times in a run. Named by the migrations' content, so a changed or added
 * migration makes a new one.
 */
async function migratedSqliteTemplate(): Promise<string> {
  const { migrationNames } = await import("@/db/migrate");
  const { PRISMA_LAYOUT } = await import("@/db/schema");
  const dir = join(ROOT, PRISMA_LAYOUT.sqlite.migrations);
  const hash = createHash("sha256");
  for (const name of migrationNames(dir)) hash.update(name).update(readFileSync(join(dir, name, "migration.sql")));
  const template = join(tmpdir(), `chainswe-test-migrated-${hash.digest("hex").slice(0, 16)}.db`);
  if (existsSync(template)) return template;
  // made beside it and renamed into place: two test files starting together each make one, and either is whole
  const making = `${template}.${process.pid}.${randomBytes(4).toString("hex")}`;
  const { migrateDatabase } = await import("@/db/migrate");
  await migrateDatabase(`file:${making}`, { quiet: true });
  await rename(making, template);
  return template;
}

export async function openTestDb(opts: { importDemo?: boolean } = {}) {
  const dir = await mkdtemp(join(tmpdir(), "chainswe-db-"));
  const pg = testDbEngine() === "postgresql" ? await createPostgresDatabase() : null;
  const url = pg ? pg.url : `file:${join(dir, "test.db")}`;
  if (pg) {
    const { migrateDatabase } = await import("@/db/migrate");
    await migrateDatabase(url, { quiet: true });
  } else {
    await copyFile(await migratedSqliteTemplate(), join(dir, "test.db"));
  }
  vi.stubEnv("DATABASE_URL", url);
  delete (globalThis as { chainsweDb?: unknown }).chainsweDb;
  const { db } = await import("@/db/client");
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
      gold_similarity: goldSimilarity(b.patch, b.patch),
    };
    return { bug, log: `log of ${b.swebench_instance_id}`, modelPatch: b.patch };
  });
}

export type TestDb = Awaited<ReturnType<typeof openTestDb>>;

/** A user made straight in the database, on a team or not, as the code under test sees them. */
export async function testViewer(t: TestDb, username: string, teamId: string | null, roles: { isReviewer?: boolean } = {}): Promise<Viewer> {
  const { viewerById } = await import("@/lib/accounts/users");
  const user = await t.db.user.create({ data: { username, name: username, ...roles } });
  if (teamId) await t.db.teamMember.create({ data: { teamId, userId: user.id } });
  return (await viewerById(user.id))!;
}

/**
 * The cast of the visibility tests: team Alpha's system (`system` sets its facts) and three
 * viewers, alice on team Alpha, bob on team Beta and rita, a reviewer on no team.
 */
export async function alphaAndOthers(t: TestDb, system: Partial<Omit<SystemRef, "teamName">> = {}) {
  const { ensureSystem } = await import("@/lib/teams/systems");
  const systemId = await ensureSystem({ teamName: "Alpha", name: "alpha-agent", ...system });
  const teamOf = async (id: string) => (await t.db.system.findUniqueOrThrow({ where: { id }, select: { teamId: true } })).teamId;
  const alphaTeamId = await teamOf(systemId);
  const betaTeamId = await teamOf(await ensureSystem({ teamName: "Beta", name: "b" }));
  return {
    systemId,
    alphaTeamId,
    member: await testViewer(t, "alice", alphaTeamId),
    outsider: await testViewer(t, "bob", betaTeamId),
    reviewer: await testViewer(t, "rita", null, { isReviewer: true }),
  };
}

/** The queue's lease policy the database tests claim jobs under. */
export const TEST_QUEUE_POLICY = { leaseMs: 10_000, maxAttempts: 3, backoff: { baseMs: 1_000, maxMs: 60_000 } };

/**
 * Hands in every chain waiting in the queue through the queue's own calls (claim,
 * complete), each graded by fakeGradedChain or as `grade` says: the path a
 * worker takes, unlike completedSubmission's rows written straight. Answers
 * what was handed in.
 */
export async function gradeQueuedChains(t: TestDb, grade: (chain: Chain) => BugArtifacts[] = (chain) => fakeGradedChain(chain)): Promise<BugArtifacts[]> {
  const queue = await import("@/jobs/queue");
  const handedIn: BugArtifacts[] = [];
  for (;;) {
    const job = await queue.claimJob({ workerId: "w", policy: TEST_QUEUE_POLICY });
    if (!job) return handedIn;
    const bugs = grade((await t.datasets.getChain("v1", job.payload.continuousId))!);
    await queue.completeJob({ jobId: job.jobId, workerId: "w", bugs });
    handedIn.push(...bugs);
  }
}

export type CompletedSubmission = {
  /** the submitting system: its id, or its name (and team, "local" by default) to make it by */
  system: { id: string } | { name: string; team?: string };
  mode: "oracle" | "seq";
  /** the chains submitted (all of version v1's by default) */
  chainIds?: string[];
  /** on the version's Mini split (SPEC §8) instead of the whole version */
  split?: "full" | "mini";
  /** bugs that did not resolve (chain → orders), graded as `failAs` says (left unfixed by default) */
  unresolved?: Record<string, number[]>;
  failAs?: Partial<GradedBug>;
  /** a last change to each graded bug, e.g. its files or its log */
  edit?: (a: BugArtifacts, chain: Chain) => BugArtifacts;
  status?: string;
  visibility?: string;
  finishedAt?: Date;
  /** reviewed when it finished (default), or never */
  reviewed?: boolean;
  runOf?: string | null;
  /** computes the leaderboard's aggregates once it is stored, as the worker does */
  aggregates?: boolean;
};

/**
 * A submission of the demo's gold Seq predictions whose chains were graded
 * with fakeGradedChain, every job done: completed and public unless told
 * otherwise. Answers its id.
 */
export async function completedSubmission(t: TestDb, o: CompletedSubmission): Promise<string> {
  const system = "id" in o.system ? { systemId: o.system.id } : { systemName: o.system.name, teamName: o.system.team };
  const { id } = await t.submissions.createSubmission({ ...system, datasetVersion: "v1", mode: o.mode, predictions: DEMO_GOLD_SEQ, chainIds: o.chainIds, split: o.split, runOf: o.runOf ?? null });
  const systemName = "name" in o.system ? o.system.name : (await t.db.system.findUniqueOrThrow({ where: { id: o.system.id } })).name;
  for (const job of await t.db.evaluationJob.findMany({ where: { submissionId: id } })) {
    const chain = (await t.datasets.getChain("v1", job.continuousId))!;
    const arts = fakeGradedChain(chain, systemName).map((a) => {
      const failed = o.unresolved?.[job.continuousId]?.includes(a.bug.order);
      const graded = { ...a, bug: { ...a.bug, mode: o.mode, ...(failed ? { resolved: false, fingerprint: "left_unfixed" as const, ...o.failAs } : {}) } };
      return o.edit ? o.edit(graded, chain) : graded;
    });
    await t.db.bugResult.createMany({ data: arts.map((a) => bugResultRow(id, a)) });
  }
  await t.db.evaluationJob.updateMany({ where: { submissionId: id }, data: { status: "done" } });
  const finishedAt = o.finishedAt ?? new Date();
  await t.db.submission.update({
    where: { id },
    data: { status: o.status ?? "completed", visibility: o.visibility ?? "public", finishedAt, reviewedAt: o.reviewed === false ? null : finishedAt },
  });
  if (o.aggregates) await (await import("@/lib/leaderboard/aggregates")).refreshAggregates(id);
  return id;
}
