/**
 * The dataset browser against a real SQLite file holding the demo dataset:
 * versions and repositories, chains with their difficulty, bugs with gold files
 * and test counts, where only the newest public completed submission of each
 * system × mode counts.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { touchedFiles } from "@/core/diff";
import { chainSchema } from "@/core/schemas/dataset";
import { DEMO_DATASET, completedSubmission, openTestDb } from "@/lib/testing/test-db";

let t: Awaited<ReturnType<typeof openTestDb>>;
let browser: typeof import("@/lib/dataset/browser");

const demoChains = readFileSync(DEMO_DATASET, "utf8")
  .trim()
  .split("\n")
  .map((l) => chainSchema.parse(JSON.parse(l)));

/** A submission with fake graded chains, all resolved but the listed bugs (chain → orders). */
const submission = (system: string, mode: "oracle" | "seq", opts: { unresolved?: Record<string, number[]>; visibility?: string; status?: string; finishedAt?: string } = {}) =>
  completedSubmission(t, { system: { name: system, team: "ds" }, mode, ...opts, finishedAt: new Date(opts.finishedAt ?? "2025-03-01"), reviewed: false });

let seqId: string;
const NONE: ReadonlySet<string> = new Set();

beforeAll(async () => {
  t = await openTestDb();
  browser = await import("@/lib/dataset/browser");
  // an older Oracle run of sys-a is superseded by the newer one
  await submission("sys-a", "oracle", { finishedAt: "2025-01-01" });
  await submission("sys-a", "oracle", { unresolved: { "inikit-chain-1": [2] }, finishedAt: "2025-02-01" });
  seqId = await submission("sys-a", "seq", { unresolved: { "moneyx-chain-1": [2, 3] } });
  // neither counts: private, and public but failed
  await submission("sys-private", "seq", { unresolved: { "moneyx-chain-1": [1] }, visibility: "private" });
  await submission("sys-failed", "seq", { unresolved: { "moneyx-chain-1": [1] }, status: "failed" });
});

afterAll(async () => t?.close());

describe("getDatasetIndex", () => {
  it("lists versions with their stats and repositories", async () => {
    const { versions } = await browser.getDatasetIndex();
    expect(versions).toHaveLength(1);
    const [v] = versions;
    expect(v).toMatchObject({ version: "v1", chains: 5, bugs: 16, repos: 5, modes: ["oracle", "seq", "seq_mem"] });
    expect(v!.repositories).toContainEqual({ repo: "chainswe-demo/dateranges", chains: 1, bugs: 4 });
    expect(v!.repositories.map((r) => r.repo)).toEqual([...v!.repositories.map((r) => r.repo)].sort());
  });
});

describe("getDatasetVersionView", () => {
  it("chains with their whole-chain solve rate over the standing public submissions", async () => {
    const view = (await browser.getDatasetVersionView("v1", NONE))!;
    expect(view.population).toEqual({ oracle: 1, seq: 1, seq_mem: 0 });
    expect(view.chains.map((c) => c.continuousId)).toEqual(demoChains.map((c) => c.continuous_id).sort());
    const inikit = view.chains.find((c) => c.continuousId === "inikit-chain-1")!;
    expect(inikit).toMatchObject({ repo: "chainswe-demo/inikit", length: 3, dockerImage: demoChains.find((c) => c.continuous_id === "inikit-chain-1")!.docker_image });
    expect([inikit.solved.oracle.solved, inikit.solved.oracle.attempts, inikit.solved.all.solved, inikit.solved.all.attempts]).toEqual([0, 1, 1, 2]);
    const dateranges = view.chains.find((c) => c.continuousId === "dateranges-chain-1")!;
    expect(dateranges.solved.all).toEqual({ solved: 2, attempts: 2, pct: 100 });
  });

  it("per-position rates over length-3 chains by default, or all chains", async () => {
    const three = (await browser.getDatasetVersionView("v1", NONE))!.positionRates;
    expect(three.map((r) => [r.position, r.chains])).toEqual([
      [1, 4],
      [2, 4],
      [3, 4],
    ]);
    // position 2: the Oracle run missed inikit 2, the Seq run moneyx 2
    expect(three[1]!.rates.all).toMatchObject({ solved: 6, attempts: 8 });
    const all = (await browser.getDatasetVersionView("v1", NONE, "all"))!.positionRates;
    expect(all.map((r) => r.position)).toEqual([1, 2, 3, 4]);
    expect(all[3]!.rates.all).toMatchObject({ solved: 2, attempts: 2 });
  });

  it("is null for an unknown version", async () => {
    expect(await browser.getDatasetVersionView("nope", NONE)).toBeNull();
  });
});

describe("getDatasetChainView", () => {
  it("bugs with gold files, test counts, solve rates and each standing submission's outcome", async () => {
    const view = (await browser.getDatasetChainView("v1", "moneyx-chain-1", NONE))!;
    const source = demoChains.find((c) => c.continuous_id === "moneyx-chain-1")!;
    expect(view.bugs.map((b) => b.swebenchInstanceId)).toEqual(source.swebench_instance_ids);
    const [b1, b2] = view.bugs;
    expect(b1!.goldFiles).toEqual(touchedFiles(source.bug_fixes[0]!.patch));
    expect(b1!.testFiles).toEqual(touchedFiles(source.bug_fixes[0]!.test_patch));
    expect(b1!.problemStatement).toBe(source.bug_fixes[0]!.problem_statement);
    expect([b1!.failToPass, b1!.passToPass]).toEqual([source.bug_fixes[0]!.FAIL_TO_PASS.length, source.bug_fixes[0]!.PASS_TO_PASS.length]);
    expect([b2!.solved.oracle.solved, b2!.solved.seq.solved, b2!.solved.all.attempts]).toEqual([1, 0, 2]);
    expect(b2!.outcomes.map((o) => [o.system, o.mode, o.resolved, o.fingerprint]).sort()).toEqual([
      ["sys-a", "oracle", true, null],
      ["sys-a", "seq", false, "left_unfixed"],
    ]);
    expect(b2!.outcomes.find((o) => o.mode === "seq")!.submissionId).toBe(seqId);
    expect(view.chain.solved.seq).toMatchObject({ solved: 0, attempts: 1 });
    expect([view.previous, view.next]).toEqual(["inikit-chain-1", "semverkit-chain-1"]);
  });

  it("is null for an unknown chain or version", async () => {
    expect(await browser.getDatasetChainView("v1", "nope", NONE)).toBeNull();
    expect(await browser.getDatasetChainView("nope", "moneyx-chain-1", NONE)).toBeNull();
  });
});

describe("held-out chains (SPEC §8)", () => {
  const hidden = new Set(["moneyx-chain-1"]);
  it("are left out of the version's chains, and their chain page is not found", async () => {
    const view = (await browser.getDatasetVersionView("v1", hidden))!;
    expect(view.chains.map((c) => c.continuousId)).not.toContain("moneyx-chain-1");
    expect(view.chains).toHaveLength(4);
    expect(await browser.getDatasetChainView("v1", "moneyx-chain-1", hidden)).toBeNull();
  });
  it("are no chain's neighbour", async () => {
    const inikit = (await browser.getDatasetChainView("v1", "inikit-chain-1", hidden))!;
    expect(inikit.next).toBe("semverkit-chain-1");
    expect((await browser.getDatasetChainView("v1", "inikit-chain-1", NONE))!.next).toBe("moneyx-chain-1");
  });
});
