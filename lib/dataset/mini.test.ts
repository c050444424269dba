/**
 * The Mini split in the portal (SPEC §8), against a real database: computed
 * over the published rows of the full board (runs of one entry averaged),
 * the same subset `chainswe select --mini` gives for the same runs
 * (cli/select-mini.test.ts holds the same hand-worked case); submissions on
 * it grade its chains only, rank on their own board, and fix it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { completedSubmission, DEMO_GOLD_SEQ, openTestDb } from "@/lib/testing/test-db";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FieldError } from "@/core/errors";
import { verifyBundle } from "@/evaluator/bundle";
import { readBundle } from "@/evaluator/bundle/archive";

let t: Awaited<ReturnType<typeof openTestDb>>;
let mini: typeof import("@/lib/dataset/mini");
let lb: typeof import("@/lib/leaderboard/data");

beforeAll(async () => {
  t = await openTestDb();
  mini = await import("@/lib/dataset/mini");
  lb = await import("@/lib/leaderboard/data");
});
afterAll(async () => t?.close());

const CHAINS = ["dateranges-chain-1", "inikit-chain-1", "moneyx-chain-1", "semverkit-chain-1", "tablefmt-chain-1"];
/** a published, scored run that solved these chains whole (bug 2 of every other unresolved) */
const run = (system: string, mode: "oracle" | "seq", solved: string[], runOf?: string) =>
  completedSubmission(t, {
    system: { name: system, team: "mini" },
    mode,
    unresolved: Object.fromEntries(CHAINS.filter((c) => !solved.includes(c)).map((c) => [c, [2]])),
    runOf,
    aggregates: true,
  });

describe("the version's Mini split", () => {
  it("refuses a size larger than the version, and fewer than two published rows", async () => {
    await expect(mini.computeVersionMini("v1", 2)).rejects.toThrow("dataset v1: a Mini keeps the board's order, so it needs at least 2 published rows (there are 0)");
    await expect(mini.computeVersionMini("v9", 2)).rejects.toThrow("no dataset version v9");
  });

  it("keeps the published rows' order: the hand-worked case of `select --mini`", async () => {
    // full chain %: a 80, b 40 (two runs: 3 and 1 chains), c 20, d 0
    await run("sys-a", "oracle", CHAINS.slice(0, 4));
    const b1 = await run("sys-b", "oracle", CHAINS.slice(0, 3));
    await run("sys-b", "oracle", CHAINS.slice(0, 1), b1);
    await run("sys-c", "seq", CHAINS.slice(0, 1));
    await run("sys-d", "seq", []);
    await expect(mini.computeVersionMini("v1", 6)).rejects.toThrow("the Mini size 6 is larger than the version (5 chains)");
    const stored = await mini.computeVersionMini("v1", 2);
    expect(stored.steps.map((s) => [s.chain, s.tau?.toFixed(4)])).toEqual([
      ["inikit-chain-1", "0.9129"],
      ["dateranges-chain-1", "1.0000"],
    ]);
    expect(stored).toMatchObject({ chains: ["dateranges-chain-1", "inikit-chain-1"], size: 2, tau: 1, rows: 4 });
    expect(await t.datasets.getVersionMini("v1")).toEqual(stored);
  });

  it("follows the published rows when the version's rules name a size: as a worker stores scores", async () => {
    const { portalLoaders } = await import("@/lib/site/queue-loaders");
    const sysD = (await t.db.submission.findFirstOrThrow({ where: { system: { name: "sys-d" } }, select: { id: true } })).id;
    await t.datasets.setVersionRules("v1", { mini_size: 1 });
    await portalLoaders.aggregates(sysD);
    expect((await t.datasets.getVersionMini("v1"))?.chains).toEqual(["inikit-chain-1"]);
    await t.datasets.setVersionRules("v1", { mini_size: 2 });
    expect(await mini.followVersionMini(sysD)).toBe(true);
    expect((await t.datasets.getVersionMini("v1"))?.chains).toEqual(["dateranges-chain-1", "inikit-chain-1"]);
  });

  it("a submission on it grades its chains only, ranks on the Mini board alone, and fixes the split", async () => {
    const id = await completedSubmission(t, { system: { name: "sys-mini", team: "mini" }, mode: "oracle", split: "mini", aggregates: true });
    const sub = await t.db.submission.findUniqueOrThrow({ where: { id }, select: { split: true, jobs: { select: { continuousId: true } } } });
    expect(sub.split).toBe("mini");
    expect(sub.jobs.map((j) => j.continuousId).sort()).toEqual(["dateranges-chain-1", "inikit-chain-1"]);
    const miniBoard = await lb.getLeaderboard({ version: "v1", split: "mini" });
    expect(miniBoard.rows.map((r) => [r.system.name, r.counts.chains])).toEqual([["sys-mini", 2]]);
    expect((await lb.getLeaderboard({ version: "v1" })).rows.map((r) => r.system.name)).not.toContain("sys-mini");
    await expect(mini.computeVersionMini("v1", 3)).rejects.toThrow("dataset v1's Mini split is fixed: 1 submission(s) use it");
    await t.datasets.setVersionRules("v1", { mini_size: 3 });
    const fullRow = (await t.db.submission.findFirstOrThrow({ where: { system: { name: "sys-d" } }, select: { id: true } })).id;
    expect(await mini.followVersionMini(fullRow)).toBe(false);
    expect((await t.datasets.getVersionMini("v1"))?.size).toBe(2);
    // its bundle holds the Mini's records, and verifies: the scores are recomputed over them
    const { archive } = await (await import("@/lib/submissions/bundle")).submissionBundle(null, id);
    const dir = await mkdtemp(join(tmpdir(), "chainswe-mini-bundle-"));
    await writeFile(join(dir, "b.tar.gz"), archive);
    const files = await readBundle(join(dir, "b.tar.gz"));
    const records = files.get("dataset.jsonl")!.toString().trim().split("\n").map((l) => (JSON.parse(l) as { continuous_id: string }).continuous_id);
    expect(records).toEqual(["dateranges-chain-1", "inikit-chain-1"]);
    // (the fake graded logs hold no harness markers to re-grade; everything else must agree)
    expect(verifyBundle(files).problems.filter((p) => !p.problem.startsWith("cannot be re-graded"))).toEqual([]);
  });

  it("refuses a Mini upload naming chains, or on a version with no Mini, naming the field; nothing stored", async () => {
    const before = await t.db.submission.count();
    const upload = (split: "mini", chainIds?: string[]) => t.submissions.createSubmission({ systemName: "sys-x", teamName: "mini", datasetVersion: "v1", mode: "oracle", predictions: DEMO_GOLD_SEQ, split, chainIds });
    await expect(upload("mini", ["inikit-chain-1"])).rejects.toThrow(expect.objectContaining({ field: "chains" }) as unknown as FieldError);
    await t.db.datasetVersion.update({ where: { version: "v1" }, data: { mini: null } });
    await expect(upload("mini")).rejects.toThrow("dataset version v1 has no Mini split");
    expect(await t.db.submission.count()).toBe(before);
  });
});
