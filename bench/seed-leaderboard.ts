/**
 * bench/seed-leaderboard: a synthetic portal database for the leaderboard's
 * speed benchmark. Shaped like the ChainSWE release: one
 * dataset version of 100 chains / 304 bugs over 54 repositories (97 chains of
 * length 3, two of 4, one of 5); 200 systems (7 models × 3 context
 * configurations, 40 teams) with Oracle, Seq and Seq+Mem submissions plus 400
 * older re-submissions: 1,000 public completed submissions, each with 304
 * BugResult rows, 304 predictions (per-bug cost and peak context), its
 * evaluation jobs, and its SubmissionScore row computed with the evaluator's
 * scoreRun exactly as lib/leaderboard/aggregates.ts does (both scorings × both
 * position sets, 2,000 bootstrap draws). Outcomes come from a seeded generator:
 * the same arguments make the same database.
 *
 * Usage: npm run bench:seed-leaderboard -- <path/to/site.db> [--submissions 1000]
 * (the file is replaced if it exists).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { bugResultRow } from "@/jobs/queue/results";
import { POSITION_SETS, SCORINGS, chainRecords, scoreRun, type RunResults } from "@/core/scoring";
import type { StoredScores } from "@/lib/leaderboard/aggregates";
import type { GradedBug } from "@/core/schemas/results";
import type { Mode } from "@/core/schemas/prediction";

const { values: args, positionals } = parseArgs({ allowPositionals: true, options: { submissions: { type: "string", default: "1000" } } });
const path = positionals[0];
if (!path) {
  console.error("usage: bench/seed-leaderboard.ts <path/to/site.db> [--submissions 1000]");
  process.exit(2);
}
const SUBMISSIONS = Number(args.submissions);
const ROOT = new URL("../", import.meta.url).pathname;
const file = resolve(path);
const url = `file:${file}`;

// ---------------------------------------------------------------- a seeded generator

let state = 0x9e3779b9;
/** mulberry32: uniform in [0, 1) */
function rand(): number {
  state = (state + 0x6d2b79f5) | 0;
  let t = Math.imul(state ^ (state >>> 15), 1 | state);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
const pad = (n: number, w = 3) => String(n).padStart(w, "0");

// ---------------------------------------------------------------- the dataset: 100 chains, 304 bugs, 54 repos

const LENGTHS = [...Array<number>(97).fill(3), 4, 4, 5];
const chains = LENGTHS.map((length, i) => {
  const repo = `org${pad(i % 54, 2)}/lib${pad(i % 54, 2)}`;
  const id = `${repo.replace("/", "__")}__chain-${pad(i)}`;
  // bugs dated over five years, so a bug-date window keeps some chains and not others
  const start = Date.UTC(2020, 0, 1) + i * 18 * 86_400_000;
  const dates = Array.from({ length }, (_, k) => new Date(start + k * 20 * 86_400_000 + (i % 24) * 3_600_000).toISOString().replace(".000", ""));
  return { id, repo, length, dates, difficulty: Array.from({ length }, () => rand()) };
})
  // in the database's order (by row id), as the portal lists a version's chains
  .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

// ---------------------------------------------------------------- systems: models × configurations, 40 teams

const MODELS = [
  { model: "GPT-5.5", skill: 0.69, cost: 2.0, open: false },
  { model: "GPT-5.4-mini", skill: 0.6, cost: 0.4, open: false },
  { model: "GPT-5.4-nano", skill: 0.6, cost: 0.1, open: false },
  { model: "Claude-Opus-4.7", skill: 0.65, cost: 0.7, open: false },
  { model: "Claude-Opus-4.5", skill: 0.63, cost: 0.6, open: false },
  { model: "DeepSeek-V4-Pro", skill: 0.5, cost: 0.6, open: true },
  { model: "Gemini-3.1-Pro", skill: 0.6, cost: 0.5, open: false },
];
const CONFIGS = [
  { config: "Baseline", skill: 0, seqPenalty: 0.3 },
  { config: "Summarize", skill: -0.01, seqPenalty: 0.38 },
  { config: "Sub-Agent", skill: -0.12, seqPenalty: 0.42 },
];
const SYSTEMS = 200;
const systems = Array.from({ length: SYSTEMS }, (_, i) => {
  const m = MODELS[i % MODELS.length]!;
  const c = CONFIGS[Math.floor(i / MODELS.length) % CONFIGS.length]!;
  return {
    id: `bench-system-${pad(i)}`,
    teamId: `bench-team-${pad(i % 40, 2)}`,
    name: `agent-${pad(i)}`,
    model: m.model,
    scaffold: pick(["SWE-Edit", "OpenHands", "mini-swe-agent", "in-house"]),
    contextConfig: c.config,
    openWeights: m.open,
    openScaffold: rand() < 0.5,
    skill: Math.min(0.95, Math.max(0.05, m.skill + c.skill + (rand() - 0.5) * 0.2)),
    seqPenalty: c.seqPenalty,
    cost: m.cost,
  };
});

// ---------------------------------------------------------------- submissions and their graded bugs

type Sub = { id: string; system: (typeof systems)[number]; mode: Mode; finishedAt: Date };
const MODES: Mode[] = ["oracle", "seq", "seq_mem"];
const subs: Sub[] = [];
const DAY = 86_400_000;
const START = Date.UTC(2025, 0, 1);
for (let i = 0; subs.length < SUBMISSIONS; i++) {
  const system = systems[i % SYSTEMS]!;
  const round = Math.floor(i / SYSTEMS);
  // round 0..2: a system's Oracle, Seq and Seq+Mem; later rounds: older re-submissions, which the leaderboard skips
  const mode = MODES[round % 3]!;
  const finishedAt = new Date(START + (round < 3 ? 300 : 100 - round * 10) * DAY + (i % SYSTEMS) * 3_600_000);
  subs.push({ id: `bench-sub-${pad(subs.length, 4)}`, system, mode, finishedAt });
}

/** One submission's outcomes: Oracle bug by bug; Seq and Seq+Mem lose ground after an unresolved bug. */
function gradedBugs(sub: Sub): { bugs: GradedBug[]; meta: { cost_usd: number; peak_context_tokens: number }[] } {
  const bugs: GradedBug[] = [];
  const meta: { cost_usd: number; peak_context_tokens: number }[] = [];
  for (const chain of chains) {
    let intact = true;
    let context = 20_000 + rand() * 30_000;
    for (let k = 0; k < chain.length; k++) {
      const base = sub.system.skill + 0.3 * (0.5 - chain.difficulty[k]!);
      const p: number = sub.mode === "oracle" || k === 0 ? base : base - (intact ? sub.system.seqPenalty * 0.6 : sub.system.seqPenalty);
      const resolved: boolean = rand() < p;
      intact &&= resolved;
      context += sub.mode === "seq_mem" ? 15_000 + rand() * 10_000 : rand() * 8_000;
      const fingerprint = resolved ? null : pick(["broke_working_code", "left_unfixed", "no_usable_patch"] as const);
      const applied = fingerprint !== "no_usable_patch";
      bugs.push({
        continuous_id: chain.id,
        swebench_instance_id: `${chain.id}-bug${k + 1}`,
        order: k + 1,
        mode: sub.mode,
        system: sub.system.name,
        resolved,
        patch_applied: applied,
        apply_method: applied ? "git_apply" : null,
        fingerprint,
        tampered: false,
        fail_to_pass: resolved ? { success: [`tests/test_${k + 1}.py::test_fix`], failure: [] } : { success: [], failure: [`tests/test_${k + 1}.py::test_fix`] },
        pass_to_pass: { success: [`tests/test_base.py::test_ok`], failure: fingerprint === "broke_working_code" ? ["tests/test_base.py::test_other"] : [] },
        exit_code: resolved ? 0 : 1,
        timed_out: false,
        duration_s: 1 + rand() * 20,
        model_files: applied ? [`src/mod${k + 1}.py`] : [],
        gold_files: [`src/mod${k + 1}.py`],
        test_files: [`tests/test_${k + 1}.py`],
        discarded_files: [],
      });
      meta.push({ cost_usd: Math.round(sub.system.cost * (0.5 + rand()) * 1e4) / 1e4, peak_context_tokens: Math.round(context) });
    }
  }
  return { bugs, meta };
}

// ---------------------------------------------------------------- write

async function main(): Promise<void> {
  mkdirSync(dirname(file), { recursive: true });
  for (const f of [file, `${file}-journal`, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true });
  execFileSync(process.execPath, [join(ROOT, "bin", "chainswe.mjs"), "db", "migrate"], { env: { ...process.env, DATABASE_URL: url }, stdio: "inherit" });
  process.env.DATABASE_URL = url;
  const { db } = await import("@/db/client");
  const { columnJson } = await import("@/core/schemas/columns");
  const { storedChainsSchema, storedScoresSchema } = await import("@/lib/leaderboard/aggregates");
  const t0 = Date.now();

  const version = await db.datasetVersion.create({
    data: { version: "bench", sha256: "0".repeat(64), stats: JSON.stringify({ chains: chains.length, bugs: 304, repos: 54 }) },
  });
  await db.chain.createMany({
    data: chains.map((c) => ({
      id: `bench-chain-${c.id}`,
      datasetVersionId: version.id,
      continuousId: c.id,
      repo: c.repo,
      baseCommit: "0".repeat(40),
      source: "synthetic",
      dateRange: `${c.dates[0]!.slice(0, 10)}..${c.dates.at(-1)!.slice(0, 10)}`,
      dockerImage: `bench/${c.repo.replace("/", "_")}:latest`,
      logParser: "pytest",
    })),
  });
  await db.bug.createMany({
    data: chains.flatMap((c) =>
      Array.from({ length: c.length }, (_, k) => ({
        chainId: `bench-chain-${c.id}`,
        order: k + 1,
        swebenchInstanceId: `${c.id}-bug${k + 1}`,
        commitHash: "0".repeat(40),
        problemStatement: `Synthetic bug ${k + 1} of ${c.id}.`,
        date: c.dates[k]!,
        source: "synthetic",
        patch: `diff --git a/src/mod${k + 1}.py b/src/mod${k + 1}.py\n--- a/src/mod${k + 1}.py\n+++ b/src/mod${k + 1}.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\n`,
        testPatch: `diff --git a/tests/test_${k + 1}.py b/tests/test_${k + 1}.py\n--- a/tests/test_${k + 1}.py\n+++ b/tests/test_${k + 1}.py\n@@ -1 +1 @@\n-pass\n+assert x == 2\n`,
        failToPass: JSON.stringify([`tests/test_${k + 1}.py::test_fix`]),
        passToPass: JSON.stringify(["tests/test_base.py::test_ok"]),
        testCmds: JSON.stringify(["pytest -rA"]),
      })),
    ),
  });
  await db.team.createMany({ data: Array.from({ length: 40 }, (_, i) => ({ id: `bench-team-${pad(i, 2)}`, name: `Bench team ${pad(i, 2)}`, slug: `bench-team-${pad(i, 2)}` })) });
  await db.system.createMany({
    data: systems.map((s) => ({
      id: s.id,
      teamId: s.teamId,
      name: s.name,
      model: s.model,
      scaffold: s.scaffold,
      contextConfig: s.contextConfig,
      openWeights: s.openWeights,
      openScaffold: s.openScaffold,
    })),
  });

  const summaryChains = chains.map((c) => ({ continuous_id: c.id, length: c.length }));
  let scoring = 0;
  for (const [i, sub] of subs.entries()) {
    const { bugs, meta } = gradedBugs(sub);
    const createdAt = new Date(sub.finishedAt.getTime() - 3_600_000);
    const run: RunResults = {
      summary: {
        system: sub.system.name,
        mode: sub.mode,
        dataset: { path: "dataset version bench", sha256: "0".repeat(64), chains: summaryChains },
        predictions: { path: `submission ${sub.id}`, sha256: "" },
        chains_selected: null,
        started_at: createdAt.toISOString(),
        finished_at: sub.finishedAt.toISOString(),
        chains_graded: chains.length,
        chains_failed: 0,
        bugs_graded: bugs.length,
        bugs_resolved: bugs.filter((b) => b.resolved).length,
        wall_seconds: 0,
        test_seconds: 0,
        limits: { memory_bytes: 0, nano_cpus: 0, pids: 0, test_timeout_s: 0 },
      },
      bugs: bugs.map((b, j) => ({ ...b, ...meta[j] })),
    };
    // the same functions, options and storage shape as lib/leaderboard/aggregates.ts refreshScores
    const s0 = Date.now();
    const scored = Object.fromEntries(SCORINGS.map((sc) => [sc, Object.fromEntries(POSITION_SETS.map((ps) => [ps, scoreRun(run, { scoring: sc, positions: ps })]))])) as StoredScores;
    scoring += Date.now() - s0;
    await db.$transaction([
      db.submission.create({
        data: {
          id: sub.id,
          systemId: sub.system.id,
          datasetVersionId: version.id,
          mode: sub.mode,
          status: "completed",
          visibility: "public",
          createdAt,
          publishRequestedAt: sub.finishedAt,
          reviewedAt: sub.finishedAt,
          finishedAt: sub.finishedAt,
        },
      }),
      db.evaluationJob.createMany({
        data: chains.map((c) => ({ submissionId: sub.id, continuousId: c.id, status: "done", attempts: 1, createdAt, startedAt: createdAt, finishedAt: sub.finishedAt })),
      }),
      db.prediction.createMany({
        data: bugs.map((b, j) => ({
          submissionId: sub.id,
          continuousId: b.continuous_id,
          swebenchInstanceId: b.swebench_instance_id,
          order: b.order,
          modelPatch: b.patch_applied ? `diff --git a/src/mod${b.order}.py b/src/mod${b.order}.py\n` : "",
          meta: JSON.stringify(meta[j]),
        })),
      }),
      db.bugResult.createMany({
        // the worker's own row mapping (jobs/queue/results.ts), so the synthetic rows are stored as real ones
        data: bugs.map((b) => ({
          ...bugResultRow(sub.id, {
            bug: b,
            log: `============================= test session starts ==============================\n${b.resolved ? "PASSED" : "FAILED"} tests/test_${b.order}.py::test_fix\n`,
            modelPatch: "",
          }),
          gradedAt: sub.finishedAt,
        })),
      }),
      db.submissionScore.create({
        data: { submissionId: sub.id, scores: columnJson(storedScoresSchema, scored), chains: columnJson(storedChainsSchema, chainRecords(run)), computedAt: sub.finishedAt },
      }),
    ]);
    if ((i + 1) % 100 === 0) console.log(`${i + 1}/${subs.length} submissions (${((Date.now() - t0) / 1000).toFixed(1)} s, scoring ${(scoring / 1000).toFixed(1)} s)`);
  }
  // the rank tiers the aggregate refresh stores beside the scores (SPEC §4), timed as a refresh runs them: the board's rows read, every row's chain records parsed, both scorings ranked
  const { refreshVersionRanking } = await import("@/lib/leaderboard/ranking-refresh");
  const t1 = performance.now();
  const ranking = (await refreshVersionRanking(version.id))!;
  const tiersOf = (mode: string) => new Set(ranking.strict.filter((r) => r.mode === mode).map((r) => r.tier)).size;
  const modes = [...new Set(ranking.strict.map((r) => r.mode))].map((m) => `${m} ${ranking.strict.filter((r) => r.mode === m).length} rows in ${tiersOf(m)} tiers`);
  console.log(`rank tiers (strict and lenient, ${ranking.strict.length} rows, ${chains.length} chains, 2,000 resamples): ${(performance.now() - t1).toFixed(0)} ms; strict: ${modes.join(", ")}`);
  const counts = { submissions: await db.submission.count(), bugResults: await db.bugResult.count(), scores: await db.submissionScore.count() };
  await db.$disconnect();
  console.log(`${file}: ${counts.submissions} public completed submissions, ${counts.bugResults} BugResult rows, ${counts.scores} SubmissionScore rows (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
