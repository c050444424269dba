/**
 * getLeaderboard against a real database: the newest public completed
 * submission stands for each system × mode, nothing private shows, and the
 * scores kept in memory between requests follow every recomputation.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_DATASET, DEMO_GOLD_SEQ, completedSubmission, openTestDb } from "@/lib/testing/test-db";
import { clockTicked } from "@/lib/testing/wait";

let t: Awaited<ReturnType<typeof openTestDb>>;
let agg: typeof import("@/lib/leaderboard/aggregates");
let lb: typeof import("@/lib/leaderboard/data");

beforeAll(async () => {
  t = await openTestDb();
  agg = await import("@/lib/leaderboard/aggregates");
  lb = await import("@/lib/leaderboard/data");
});
afterAll(async () => t?.close());

/** A completed, scored submission; `unresolved` bugs as "chain#order". */
function completed(system: string, mode: "oracle" | "seq", opts: { unresolved?: string[]; visibility?: string; finishedAt?: Date; runOf?: string } = {}) {
  const unresolved: Record<string, number[]> = {};
  for (const [chain, order] of (opts.unresolved ?? []).map((u) => u.split("#"))) (unresolved[chain!] ??= []).push(Number(order));
  return completedSubmission(t, { system: { name: system, team: "lb" }, mode, unresolved, visibility: opts.visibility, finishedAt: opts.finishedAt, runOf: opts.runOf, aggregates: true });
}

const names = (rows: { system: { name: string }; mode: string; submissionId: string }[]) => rows.map((r) => `${r.system.name}/${r.mode}`).sort();

describe("getLeaderboard", () => {
  it("one row per public system × mode: the newest public completed submission", async () => {
    await completed("lb-a", "oracle", { finishedAt: new Date("2025-01-01") });
    const newer = await completed("lb-a", "oracle", { unresolved: ["inikit-chain-1#1"], finishedAt: new Date("2025-02-01") });
    await completed("lb-a", "seq", { visibility: "pending_review" });
    await completed("lb-b", "seq", { visibility: "private" });
    const board = await lb.getLeaderboard({ version: "v1" });
    expect(names(board.rows)).toEqual(["lb-a/oracle"]);
    expect(board.rows[0]!.submissionId).toBe(newer);
    expect(board.rows[0]!.counts.resolved).toBe(15);
    expect(board.rows[0]!.team).toEqual({ name: "lb", slug: expect.any(String) });
    expect(board.versions).toEqual(["v1"]);
    expect((await lb.getLeaderboard({ version: "nope" })).rows).toEqual([]);
  });

  it("follows a recomputation of the stored scores, and drops a row whose scores are gone", async () => {
    const seq = await completed("lb-c", "seq");
    const before = (await lb.getLeaderboard({ version: "v1" })).rows.find((r) => r.submissionId === seq)!;
    expect(before.counts.resolved).toBe(16);
    // the results change (as after a re-run) and the aggregates are recomputed
    await t.db.bugResult.updateMany({ where: { submissionId: seq, continuousId: "inikit-chain-1", order: 1 }, data: { resolved: false, fingerprint: "left_unfixed" } });
    await clockTicked();
    await agg.refreshAggregates(seq);
    const strict = (await lb.getLeaderboard({ version: "v1" })).rows.find((r) => r.submissionId === seq)!;
    const lenient = (await lb.getLeaderboard({ version: "v1", scoring: "lenient" })).rows.find((r) => r.submissionId === seq)!;
    // strict: bug 1 unresolved takes the chain's bugs 2 and 3 with it
    expect(strict.counts.resolved).toBe(13);
    expect(lenient.counts.resolved).toBe(15);
    await t.db.submissionScore.delete({ where: { submissionId: seq } });
    expect((await lb.getLeaderboard({ version: "v1" })).rows.find((r) => r.submissionId === seq)).toBeUndefined();
  });

  it("answers from memory while nothing changed, and sees a withdrawal or a system's edit at once", async () => {
    const id = await completed("lb-d", "oracle");
    const first = await lb.getLeaderboard({ version: "v1" });
    expect(await lb.getLeaderboard({ version: "v1" })).toBe(first);
    await clockTicked();
    await t.db.system.updateMany({ where: { name: "lb-d" }, data: { model: "lb-d-model-2" } });
    expect((await lb.getLeaderboard({ version: "v1" })).rows.find((r) => r.submissionId === id)?.system.model).toBe("lb-d-model-2");
    await clockTicked();
    await t.db.submission.update({ where: { id }, data: { visibility: "private" } });
    expect((await lb.getLeaderboard({ version: "v1" })).rows.find((r) => r.submissionId === id)).toBeUndefined();
  });

  it("keeps what was derived from it until its data changes", async () => {
    let computed = 0;
    const derive = () => lb.derivedFromLeaderboard("test", async () => ++computed);
    expect(await derive()).toBe(1);
    expect(await derive()).toBe(1);
    await clockTicked();
    await completed("lb-e", "seq");
    expect(await derive()).toBe(2);
  });
});

describe("getLeaderboard under a bug-date window (SPEC §7)", () => {
  // the demo version: inikit's bugs are dated 2023-02-14..2023-03-20, the four other chains' later (16 bugs in all)
  it("rescores each row over the chains whose bugs are all inside, exactly as a run on only those chains", async () => {
    const id = await completed("lb-w", "seq", { unresolved: ["inikit-chain-1#1", "moneyx-chain-1#2"] });
    const later = await lb.getLeaderboard({ version: "v1", window: { from: "2023-04-01" } });
    expect(later.window).toEqual({ from: "2023-04-01", until: null, chains: 4, bugs: 13, totalChains: 5, totalBugs: 16, undated: 0 });
    const row = later.rows.find((r) => r.submissionId === id)!;
    // strict: moneyx's bug 2 takes bug 3 with it
    expect(row.counts).toEqual({ chains: 4, bugs: 13, resolved: 11, chainsResolved: 3 });
    const { runResultsForSubmission } = await import("@/lib/submissions/run-results");
    const { scoreRun } = await import("@/core/scoring");
    const run = (await runResultsForSubmission(id))!;
    const narrowed = { ...run, summary: { ...run.summary, dataset: { ...run.summary.dataset, chains: run.summary.dataset.chains.filter((c) => c.continuous_id !== "inikit-chain-1") } } };
    const expected = scoreRun(narrowed);
    expect([row.perBug, row.chain, row.perPosition]).toEqual([expected.per_bug, expected.chain, expected.per_position]);

    const early = await lb.getLeaderboard({ version: "v1", scoring: "lenient", window: { until: "2023-03-31" } });
    expect(early.window).toMatchObject({ chains: 1, bugs: 3 });
    expect(early.rows.find((r) => r.submissionId === id)!.counts).toEqual({ chains: 1, bugs: 3, resolved: 2, chainsResolved: 0 });
  });

  it("gives values for every row and intervals only for the rows asked for, the same as the complete board's", async () => {
    const q = { version: "v1", window: { from: "2023-04-01" } };
    const values = await lb.getLeaderboardValues(q);
    const full = await lb.getLeaderboard(q);
    expect(values.rows.map((r) => [r.submissionId, r.perBug.value, r.chain.value])).toEqual(full.rows.map((r) => [r.submissionId, r.perBug.value, r.chain.value]));
    expect("ci" in values.rows[0]!.perBug).toBe(false);
    const one = values.rows.at(-1)!;
    const [headline] = await lb.completeHeadlines(values, [one]);
    const expected = full.rows.find((r) => r.submissionId === one.submissionId)!;
    expect([headline!.perBug, headline!.chain]).toEqual([expected.perBug, expected.chain]);
    const [completed] = await lb.completeRows(values, [one]);
    expect(completed).toEqual(full.rows.find((r) => r.submissionId === one.submissionId));
    // the stored board is complete already
    const stored = await lb.getLeaderboardValues({ version: "v1" });
    expect(await lb.completeRows(stored, stored.rows)).toEqual((await lb.getLeaderboard({ version: "v1" })).rows);
  });

  it("is the stored board when the window keeps every chain, and empty when it keeps none", async () => {
    const stored = await lb.getLeaderboard({ version: "v1" });
    const wide = await lb.getLeaderboard({ version: "v1", window: { from: "2020-01-01", until: "2030-12-31" } });
    expect(wide.rows).toEqual(stored.rows);
    expect(wide.window).toMatchObject({ chains: 5, totalChains: 5 });
    expect(stored.window).toBeNull();
    const none = await lb.getLeaderboard({ version: "v1", window: { from: "2031-01-01" } });
    expect(none.rows).toEqual([]);
    expect(none.window).toMatchObject({ chains: 0, bugs: 0, totalChains: 5 });
  });

  it("fills the chain records of scores stored before they were kept, from the graded bugs", async () => {
    const id = await completed("lb-old", "oracle", { unresolved: ["semverkit-chain-1#3"] });
    // as an older release stored it: no chain records, at a computedAt this process never read (the refresh's ranking read the new one)
    await clockTicked();
    await t.db.submissionScore.update({ where: { submissionId: id }, data: { chains: null, computedAt: new Date() } });
    await clockTicked();
    await t.db.submission.update({ where: { id }, data: { reviewReason: "touch" } });
    const row = (await lb.getLeaderboard({ version: "v1", window: { from: "2024-01-01" } })).rows.find((r) => r.submissionId === id)!;
    expect(row.counts).toEqual({ chains: 1, bugs: 3, resolved: 2, chainsResolved: 0 });
    const filled = await t.db.submissionScore.findUniqueOrThrow({ where: { submissionId: id } });
    expect(agg.parseStoredChains(filled.chains!).map((c) => c.continuous_id)).toContain("semverkit-chain-1");
  });
});

describe("repeated runs on the leaderboard", () => {
  it("a row of repeated runs: the newest entry's public runs, means over them, their spread and pass^k (SPEC §7)", async () => {
    const run1 = await completed("lb-runs", "seq", { finishedAt: new Date("2025-03-01") });
    const run2 = await completed("lb-runs", "seq", { runOf: run1, unresolved: ["inikit-chain-1#1"], finishedAt: new Date("2025-03-02") });
    // run 3 joins through run 2: the entry is run 1's
    const run3 = await completed("lb-runs", "seq", { runOf: run2, unresolved: ["inikit-chain-1#1", "moneyx-chain-1#2"], visibility: "private", finishedAt: new Date("2025-03-03") });
    expect((await t.db.submission.findMany({ where: { id: { in: [run1, run2, run3] } }, orderBy: { run: "asc" }, select: { id: true, run: true, runOfId: true } })).map((r) => [r.run, r.runOfId])).toEqual([
      [1, null],
      [2, run1],
      [3, run1],
    ]);
    const alone = async (id: string) => (await t.db.submissionScore.findUniqueOrThrow({ where: { submissionId: id } })).scores;
    const storedOf = async (id: string) => agg.parseStoredScores(await alone(id)).strict.length3;
    const rowOf = async () => (await lb.getLeaderboard({ version: "v1" })).rows.find((r) => r.system.name === "lb-runs")!;
    // the private run is not on the board
    let row = await rowOf();
    expect(row.runs?.k).toBe(2);
    expect(row.runs?.submissionIds).toEqual([run1, run2]);
    await t.db.submission.update({ where: { id: run3 }, data: { visibility: "public" } });
    row = await rowOf();
    const each = await Promise.all([run1, run2, run3].map(storedOf));
    expect(row.submissionId).toBe(run1);
    expect(row.runs).toMatchObject({ k: 3, submissionIds: [run1, run2, run3], perBug: { min: each[2]!.per_bug.value, max: each[0]!.per_bug.value } });
    expect(row.perBug.value).toBeCloseTo(each.reduce((a, s) => a + s.per_bug.value, 0) / 3, 9);
    expect(row.chain.value).toBeCloseTo(each.reduce((a, s) => a + s.chain.value, 0) / 3, 9);
    expect(row.runs!.byRun.map((r) => r.perBug)).toEqual(each.map((s) => s.per_bug.value));
    // pass^k: the chains solved in all three runs are those run 3 solved (it fails a superset)
    expect(row.runs!.passK.value).toBeCloseTo(each[2]!.chain.value, 9);
    expect(row.runs!.passK.ci[0]).toBeLessThanOrEqual(row.runs!.passK.value);
    expect(row.perBug.ci[0]).toBeLessThan(row.perBug.ci[1]);
    // verified by the version's rules: three reviewed runs, no breach; not with four asked for
    const { setVersionRules } = await import("@/lib/dataset/data");
    await setVersionRules("v1", { verified_min_runs: 3 });
    expect((await rowOf()).verified).toBe(true);
    await setVersionRules("v1", { verified_min_runs: 4 });
    expect((await rowOf()).verified).toBe(false);
    await setVersionRules("v1", {});
    // per position: the spread over runs brackets the mean
    for (const [i, p] of row.perPosition.entries()) {
      expect(row.runs!.perPosition[i]!.min).toBeLessThanOrEqual(p.value);
      expect(row.runs!.perPosition[i]!.max).toBeGreaterThanOrEqual(p.value);
    }
  });

  it("refuses a run of another mode, of another system or of no submission, naming run_of", async () => {
    const first = await completed("lb-runs-2", "seq");
    await expect(t.submissions.createSubmission({ systemName: "lb-runs-2", teamName: "lb", datasetVersion: "v1", mode: "oracle", predictions: DEMO_GOLD_SEQ, runOf: first })).rejects.toThrow(/^run_of: .*another dataset version or mode/);
    await expect(t.submissions.createSubmission({ systemName: "lb-other", teamName: "lb", datasetVersion: "v1", mode: "seq", predictions: DEMO_GOLD_SEQ, runOf: first })).rejects.toThrow(/^run_of: no submission/);
    await expect(t.submissions.createSubmission({ systemName: "lb-runs-2", teamName: "lb", datasetVersion: "v1", mode: "seq", predictions: DEMO_GOLD_SEQ, runOf: "nope" })).rejects.toThrow(/^run_of: no submission nope/);
    await expect(t.submissions.createSubmission({ systemName: "lb-runs-2", teamName: "lb", datasetVersion: "v1", mode: "seq", predictions: DEMO_GOLD_SEQ, runOf: first, chainIds: ["inikit-chain-1"] })).rejects.toThrow(/^run_of: .*same chains/);
    // nothing was stored by the refusals
    expect(await t.db.submission.count({ where: { system: { name: "lb-runs-2" } } })).toBe(1);
  });
});

describe("scores without test-editing patches (SPEC §7)", () => {
  it("counts each bug whose patch edits tests, and without them scores those bugs unresolved", async () => {
    const id = await completed("lb-test-editor", "seq");
    // bug 1 of inikit also added a test file: a test edit
    await t.db.bugResult.updateMany({ where: { submissionId: id, continuousId: "inikit-chain-1", order: 1 }, data: { modelFiles: JSON.stringify(["inikit/parser.py", "tests/test_extra.py"]) } });
    await clockTicked();
    await agg.refreshAggregates(id);
    const withEdits = (await lb.getLeaderboard({ version: "v1" })).rows.find((r) => r.submissionId === id)!;
    const without = (await lb.getLeaderboard({ version: "v1", test_edits: "without" })).rows.find((r) => r.submissionId === id)!;
    expect(withEdits.testEdits).toEqual({ bugs: 1, flagged: false });
    expect(withEdits.counts.resolved).toBe(16);
    // strict: inikit's bug 1 unresolved takes bugs 2 and 3 with it
    expect(without.counts.resolved).toBe(13);
    expect(without.chain.value).toBeLessThan(withEdits.chain.value);
    expect(without.perBug.ci[0]).toBeLessThanOrEqual(without.perBug.value);
  });
});

describe("the default version (SPEC §8)", () => {
  it("is the newest version with a published row, so a release without rows does not empty the board; with none, the newest", async () => {
    await completed("lb-default", "oracle");
    await clockTicked();
    await t.datasets.importDataset(DEMO_DATASET, "v2-no-rows");
    const board = await lb.getLeaderboard({});
    expect(board.versions).toEqual(["v2-no-rows", "v1"]);
    expect(board.version).toBe("v1");
    expect(board.rows.length).toBeGreaterThan(0);
    expect((await lb.getLeaderboard({ version: "v2-no-rows" })).rows).toEqual([]);
    const { defaultVersion } = await import("@/lib/dataset/default-version");
    expect(await defaultVersion(["v2-no-rows"])).toBe("v2-no-rows");
    expect(await defaultVersion([])).toBeNull();
  });
});
