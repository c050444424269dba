/**
 * Held-out chains (SPEC §8) against a real database: marking them (an unknown
 * chain named, nothing stored), the audited download of their problem
 * statements for a team's members, and every reader of a submission or of the
 * dataset leaving them out for all but reviewers. Hostile: each reader is
 * asked for the held-out chain as a visitor, a member of the submitting team
 * and another team, and its answer searched for the chain's instance ids,
 * problem statements, gold patches and test names.
 */
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyBundle } from "@/evaluator/bundle";
import { readBundle } from "@/evaluator/bundle/archive";
import { ForbiddenError, NotFoundError, UnauthorizedError } from "@/core/errors";
import type { Chain } from "@/core/schemas/dataset";
import type { Viewer } from "@/lib/authz";
import { alphaAndOthers, completedSubmission, openTestDb } from "@/lib/testing/test-db";

let t: Awaited<ReturnType<typeof openTestDb>>;
let heldOut: typeof import("@/lib/dataset/held-out");
let member: Viewer;
let outsider: Viewer;
let reviewer: Viewer;
let subId: string;
let held: Chain;

const HELD = "moneyx-chain-1";

/** Every text of the held-out chain that must not reach a viewer who may not see it. */
const secrets = (c: Chain): string[] => [
  ...c.bug_fixes.flatMap((b) => [b.swebench_instance_id, b.problem_statement.slice(0, 60), b.patch.slice(0, 200), b.test_patch.slice(0, 200), ...b.FAIL_TO_PASS]),
];
const leaked = (text: string) => secrets(held).filter((s) => text.includes(s));

beforeAll(async () => {
  t = await openTestDb();
  heldOut = await import("@/lib/dataset/held-out");
  const cast = await alphaAndOthers(t, { model: "m", scaffold: "s", contextConfig: "Baseline" });
  const { systemId } = cast;
  ({ member, outsider, reviewer } = cast);
  // held out before anything is published on the version: its held-out chains are fixed after
  await t.datasets.setVersionRules("v1", { verified_min_runs: 2, held_out: [HELD] });
  subId = await completedSubmission(t, { system: { id: systemId }, mode: "seq", unresolved: { [HELD]: [2] } });
  held = (await t.datasets.getChain("v1", HELD))!;
}, 60_000);

afterAll(async () => t?.close());

describe("marking held-out chains", () => {
  it("refuses an unknown chain, naming it, and keeps the rules as they were", async () => {
    await expect(t.datasets.setVersionRules("v1", { held_out: [HELD, "no-such-chain"] })).rejects.toThrow("rules: held_out: no chain no-such-chain in this version");
    await expect(t.datasets.setVersionRules("v1", { held_out: [HELD, HELD] })).rejects.toThrow(`chain ${HELD} is named twice`);
    expect(await t.datasets.getVersionRules("v1")).toEqual({ verified_min_runs: 2, held_out: [HELD] });
  });

  it("refuses to change them once a submission on the version is published, naming it; other rules still change", async () => {
    const fixed = "dataset v1's held-out chains are fixed: 1 submission(s) on it are published, whose scores and shown chains would change; release a new version with --held-out instead";
    await expect(t.datasets.setVersionRules("v1", { verified_min_runs: 2, held_out: [HELD, "inikit-chain-1"] })).rejects.toThrow(fixed);
    await expect(t.datasets.setVersionRules("v1", { verified_min_runs: 2 })).rejects.toThrow(fixed);
    expect(await t.datasets.getVersionRules("v1")).toEqual({ verified_min_runs: 2, held_out: [HELD] });
    expect(await t.datasets.setVersionRules("v1", { verified_min_runs: 3, held_out: [HELD] })).toEqual({ verified_min_runs: 3, held_out: [HELD] });
    await t.datasets.setVersionRules("v1", { verified_min_runs: 2, held_out: [HELD] });
  });
});

describe("the audited download of held-out problem statements", () => {
  const params = (team?: string) => new URLSearchParams(team ? { team } : {});
  it("is refused to a visitor (401) and to a user outside the team (403), leaving no audit row", async () => {
    await expect(heldOut.heldOutDownload(null, "v1", params("alpha"))).rejects.toBeInstanceOf(UnauthorizedError);
    await expect(heldOut.heldOutDownload(outsider, "v1", params("alpha"))).rejects.toBeInstanceOf(ForbiddenError);
    await expect(heldOut.heldOutDownload(member, "v1", params())).rejects.toThrow("?team=<slug>");
    await expect(heldOut.heldOutDownload(member, "nope", params("alpha"))).rejects.toBeInstanceOf(NotFoundError);
    expect(await t.db.auditLog.count({ where: { action: "held_out_downloaded" } })).toBe(0);
  });

  it("gives a member the problem statements, never tests, gold patches or fixing commits, and audits each download", async () => {
    const { jsonl, filename } = await heldOut.heldOutDownload(member, "v1", params("alpha"));
    expect(filename).toBe("chainswe-v1-held-out-alpha.jsonl");
    const lines = jsonl.trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toEqual({
      continuous_id: HELD,
      repo: held.repo,
      base_commit: held.base_commit,
      docker_image: held.docker_image,
      bug_fixes: held.bug_fixes.map((b) => ({ order: b.order, swebench_instance_id: b.swebench_instance_id, problem_statement: b.problem_statement })),
    });
    for (const b of held.bug_fixes) {
      expect(jsonl).not.toContain(b.patch.slice(0, 200));
      expect(jsonl).not.toContain(b.commit_hash);
      for (const test of b.FAIL_TO_PASS) expect(jsonl).not.toContain(test);
    }
    await heldOut.heldOutDownload(member, "v1", params("alpha"));
    const rows = await t.db.auditLog.findMany({ where: { action: "held_out_downloaded" } });
    expect(rows.map((r) => [r.actorId, r.targetType, r.targetId, r.reason])).toEqual([
      [member.id, "dataset_version", "v1", "team alpha: 1 chain(s)"],
      [member.id, "dataset_version", "v1", "team alpha: 1 chain(s)"],
    ]);
  });
});

describe("every reader leaves held-out chains out for all but reviewers", () => {
  const viewers = () => [
    ["a visitor", null],
    ["the submitting team", member],
    ["another team", outsider],
  ] as const;

  it("the submission page and its JSON", async () => {
    const { getSubmissionForViewer, submissionJson } = await import("@/lib/submissions/view");
    for (const [who, v] of viewers()) {
      const view = await getSubmissionForViewer(v, subId);
      expect(view.chains.map((c) => c.continuousId), who).not.toContain(HELD);
      expect(view.chains, who).toHaveLength(4);
      // the scores are the public chains'
      expect(view.scores?.chains, who).toBe(4);
      expect(leaked(JSON.stringify(submissionJson(view))), who).toEqual([]);
    }
    const seen = await getSubmissionForViewer(reviewer, subId);
    expect(seen.chains.map((c) => c.continuousId)).toContain(HELD);
    expect(leaked(JSON.stringify(submissionJson(seen))).length).toBeGreaterThan(0);
  });

  it("results.jsonl, the predictions, a bug's log and its failure page", async () => {
    const downloads = await import("@/lib/submissions/downloads");
    const { getFailurePage } = await import("@/lib/submissions/failure");
    for (const [who, v] of viewers()) {
      const results = await downloads.resultsJsonl(v, subId);
      expect(results.trim().split("\n"), who).toHaveLength(13);
      expect(leaked(results), who).toEqual([]);
      await expect(downloads.bugLog(v, subId, HELD, 1), who).rejects.toBeInstanceOf(NotFoundError);
      await expect(getFailurePage(v, subId, HELD, 2), who).rejects.toBeInstanceOf(NotFoundError);
    }
    const predictions = await downloads.predictionsJsonl(member, subId);
    expect(predictions.trim().split("\n")).toHaveLength(13);
    expect(leaked(predictions)).toEqual([]);
    expect((await downloads.predictionsJsonl(reviewer, subId)).trim().split("\n")).toHaveLength(16);
    expect(leaked(await downloads.resultsJsonl(reviewer, subId)).length).toBeGreaterThan(0);
    await expect(downloads.bugLog(reviewer, subId, HELD, 1)).resolves.toMatchObject({ text: expect.any(String) });
    await expect(getFailurePage(reviewer, subId, HELD, 2)).resolves.toMatchObject({ submission: { id: subId } });
  });

  it("the bundle: the run over the public chains, which verifies as such", async () => {
    const { submissionBundle } = await import("@/lib/submissions/bundle");
    const dir = await mkdtemp(join(tmpdir(), "chainswe-held-out-bundle-"));
    for (const [who, v] of viewers()) {
      await writeFile(join(dir, "b.tar.gz"), (await submissionBundle(v, subId)).archive);
      const files = await readBundle(join(dir, "b.tar.gz"));
      expect(leaked([...files.values()].map((f) => f.toString()).join("\n")), who).toEqual([]);
      // (the fake graded logs hold no harness markers to re-grade; everything else must agree)
      expect(verifyBundle(files).problems.filter((p) => !p.problem.startsWith("cannot be re-graded")), who).toEqual([]);
    }
  });

  it("chainswe bundle on a reviewer's extracted bundle, naming the held-out chain, gives the run everyone else gets, which verifies", async () => {
    const { submissionBundle } = await import("@/lib/submissions/bundle");
    const { bundleFromDir } = await import("@/evaluator/bundle/from-dir");
    const dir = await mkdtemp(join(tmpdir(), "chainswe-held-out-offline-"));
    await writeFile(join(dir, "b.tar.gz"), (await submissionBundle(reviewer, subId)).archive);
    const whole = await readBundle(join(dir, "b.tar.gz"));
    expect(leaked(whole.get("results.jsonl")!.toString()).length).toBeGreaterThan(0);
    const run = join(dir, "run");
    for (const [path, data] of whole) {
      await mkdir(dirname(join(run, path)), { recursive: true });
      await writeFile(join(run, path), data);
    }
    await expect(bundleFromDir(run, { heldOut: ["no-such-chain"] })).rejects.toThrow("no chain no-such-chain");
    const offline = await bundleFromDir(run, { heldOut: [HELD] });
    expect(leaked([...offline.values()].map((f) => f.toString()).join("\n"))).toEqual([]);
    expect(verifyBundle(offline).problems.filter((p) => !p.problem.startsWith("cannot be re-graded"))).toEqual([]);
    // the same run over the public chains as the portal's bundle for the team (the team's, with its patches)
    await writeFile(join(dir, "m.tar.gz"), (await submissionBundle(member, subId)).archive);
    const portal = await readBundle(join(dir, "m.tar.gz"));
    for (const file of ["results.jsonl", "predictions.jsonl", "dataset.jsonl", "report.json"]) expect(offline.get(file)!.toString(), file).toBe(portal.get(file)!.toString());
    expect(JSON.parse(offline.get("summary.json")!.toString()).dataset.chains).toEqual(JSON.parse(portal.get("summary.json")!.toString()).dataset.chains);
    // without held-out chains named: the reviewer's run as it is
    expect((await bundleFromDir(run)).get("results.jsonl")!.toString()).toBe(whole.get("results.jsonl")!.toString());
  });

  it("the dataset's version and chain views", async () => {
    const browser = await import("@/lib/dataset/browser");
    for (const [who, v] of viewers()) {
      const hidden = await heldOut.chainsHiddenFrom(v, { version: "v1" });
      const version = (await browser.getDatasetVersionView("v1", hidden))!;
      expect(version.chains.map((c) => c.continuousId), who).not.toContain(HELD);
      expect(await browser.getDatasetChainView("v1", HELD, hidden), who).toBeNull();
    }
    const all = await heldOut.chainsHiddenFrom(reviewer, { version: "v1" });
    expect((await browser.getDatasetChainView("v1", HELD, all))?.chain.continuousId).toBe(HELD);
  });
});

describe("the board scores the public chains; the held-out chains are one aggregate beside them", () => {
  it("a row's chain % over the public chains, its held-out chain % with its interval, and the gap flagged", async () => {
    const { ensureSystem } = await import("@/lib/teams/systems");
    const systemId = await ensureSystem({ teamName: "Gamma", name: "overfit", model: "m", scaffold: "s", contextConfig: "Baseline" });
    // every public chain solved, the held-out chain's bug 2 left unfixed
    const id = await completedSubmission(t, { system: { id: systemId }, mode: "oracle", unresolved: { [HELD]: [2] }, aggregates: true });
    const { getLeaderboard } = await import("@/lib/leaderboard/data");
    const board = await getLeaderboard({ version: "v1" });
    const row = board.rows.find((r) => r.submissionId === id)!;
    expect(row.chain.value).toBe(100);
    expect(row.counts.chains).toBe(4);
    expect(row.counts.bugs).toBe(13);
    expect(row.heldOut).toEqual({ chains: 1, chain: { value: 0, ci: [0, 0] }, gap: { value: 100, ci: [100, 100] }, flagged: true });
    expect(board.window).toBeNull();
    // the API's row and CSV carry it
    const { apiRow, CSV_COLUMNS, csvLines } = await import("@/lib/leaderboard/export");
    expect(apiRow(row).held_out).toEqual(row.heldOut);
    const line = csvLines([row], [])[0]!;
    const cell = (label: string) => CSV_COLUMNS.find((c) => c.label === label)!.value(line);
    expect([cell("held_out_chain_pct"), cell("held_out_gap"), cell("held_out_gap_flagged"), cell("chain_pct")]).toEqual([0, 100, "true", 100]);
  });
});
