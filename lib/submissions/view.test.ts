/**
 * Reading a submission as a viewer, against a real SQLite file: who may read
 * it, what the page and the API get (results, scores), results.jsonl in the
 * evaluator's format, logs, and predictions for the team and reviewers only.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Viewer } from "@/lib/authz";
import { NotFoundError } from "@/core/errors";
import { gradedBugSchema } from "@/core/schemas/results";
import { alphaAndOthers, DEMO_GOLD_SEQ, fakeGradedChain, gradeQueuedChains, openTestDb } from "@/lib/testing/test-db";

let t: Awaited<ReturnType<typeof openTestDb>>;
let view: typeof import("@/lib/submissions/view");
let downloads: typeof import("@/lib/submissions/downloads");
let member: Viewer;
let outsider: Viewer;
let reviewer: Viewer;
let id: string;
let handedIn: Awaited<ReturnType<typeof fakeGradedChain>>;

const CHAINS = ["inikit-chain-1", "moneyx-chain-1"];

const setVisibility = (visibility: string) => t.db.submission.update({ where: { id }, data: { visibility } });

beforeAll(async () => {
  t = await openTestDb();
  view = await import("@/lib/submissions/view");
  downloads = await import("@/lib/submissions/downloads");
  const cast = await alphaAndOthers(t, { model: "gpt-x", scaffold: "swe-agent", contextConfig: "Summarize" });
  const { systemId } = cast;
  ({ member, outsider, reviewer } = cast);

  id = (await t.submissions.createSubmission({ systemId, datasetVersion: "v1", mode: "seq", predictions: DEMO_GOLD_SEQ, chainIds: CHAINS, metadata: { note: "run 1" } })).id;
  handedIn = await gradeQueuedChains(t, (chain) => {
    const bugs = fakeGradedChain(chain, "alpha-agent");
    if (chain.continuous_id === "inikit-chain-1") {
      // bug 2 broke working code: strict scoring also drops bug 3
      const b = bugs[1]!.bug;
      Object.assign(b, { resolved: false, fingerprint: "broke_working_code", pass_to_pass: { success: [], failure: ["tests/test_a.py::test_keep"] }, exit_code: 1 });
    }
    return bugs;
  });
}, 60_000);

afterAll(async () => t?.close());

describe("getSubmissionForViewer", () => {
  it("is not found for visitors and other teams while private; readable by the team and reviewers", async () => {
    await expect(view.getSubmissionForViewer(null, id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(view.getSubmissionForViewer(outsider, id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(view.getSubmissionForViewer(member, "no-such-id")).rejects.toBeInstanceOf(NotFoundError);
    expect((await view.getSubmissionForViewer(member, id)).actions).toMatchObject({ request_publication: true, cancel: false, approve: false, predictions: true });
    expect((await view.getSubmissionForViewer(reviewer, id)).actions).toMatchObject({ request_publication: false, rerun: true, predictions: true });
  });

  it("is readable by anyone once public, with no actions for a visitor", async () => {
    await setVisibility("public");
    try {
      const v = await view.getSubmissionForViewer(null, id);
      expect(Object.values(v.actions).some(Boolean)).toBe(false);
      await expect(view.getSubmissionForViewer(outsider, id)).resolves.toMatchObject({ visibility: "public" });
    } finally {
      await setVisibility("private");
    }
  });

  it("carries the system, the run, every bug's result and the scores", async () => {
    const v = await view.getSubmissionForViewer(member, id);
    expect(v).toMatchObject({
      mode: "seq",
      status: "completed",
      visibility: "private",
      datasetVersion: "v1",
      metadata: { note: "run 1" },
      system: { name: "alpha-agent", model: "gpt-x", scaffold: "swe-agent", contextConfig: "Summarize", team: { name: "Alpha" } },
      review: { publishRequestedAt: null, reviewReason: null },
      progress: { chains: { total: 2, done: 2 }, bugs: { total: 6, graded: 6, resolved: 5 } },
    });
    expect(v.finishedAt).toBeInstanceOf(Date);
    expect(v.chains.map((c) => [c.continuousId, c.bugs.length])).toEqual([["inikit-chain-1", 3], ["moneyx-chain-1", 3]]);
    const broke = v.chains[0]!.bugs[1]!;
    expect(broke.swebenchInstanceId).toMatch(/inikit/);
    expect(broke.result).toMatchObject({
      resolved: false,
      patchApplied: true,
      applyMethod: "git_apply",
      fingerprint: "broke_working_code",
      tampered: false,
      passToPass: { success: 0, failure: 1, failing: ["tests/test_a.py::test_keep"] },
      exitCode: 1,
      timedOut: false,
      durationS: 0.5,
    });
    // 5 of 6 bugs on their own; strict drops inikit's bug 3 too; one chain of two fully resolved
    expect(v.scores).toMatchObject({ scoring: "strict", chains: 2, bugs: 6, graded: 6, resolved: 5, chainsResolved: 1 });
    expect(v.scores!.lenient.perBug.value).toBeCloseTo(500 / 6);
    expect(v.scores!.strict.perBug.value).toBeCloseTo(400 / 6);
    expect(v.scores!.strict.chain.value).toBe(50);
    const [lo, hi] = v.scores!.strict.perBug.ci;
    expect(lo).toBeLessThanOrEqual(400 / 6);
    expect(hi).toBeGreaterThanOrEqual(400 / 6);
  });

  it("names the grader that produced the results, on the page and in the API", async () => {
    const { GRADER_VERSION, PACKAGE_VERSION } = await import("@/core/grading");
    const v = await view.getSubmissionForViewer(member, id);
    const expected = [{ graderVersion: GRADER_VERSION, packageVersion: PACKAGE_VERSION, logParser: "pytest", bugs: 6 }];
    expect(v.graders).toEqual(expected);
    expect(JSON.parse(JSON.stringify(view.submissionJson(v))).graders).toEqual(expected);
  });

  it("gives the API a JSON-safe shape and keeps failure details from visitors", async () => {
    await t.db.evaluationJob.updateMany({ where: { submissionId: id }, data: { lastError: "error: stack at /srv/x.ts" } });
    await setVisibility("public");
    try {
      const forTeam = view.submissionJson(await view.getSubmissionForViewer(member, id));
      const forVisitor = view.submissionJson(await view.getSubmissionForViewer(null, id));
      expect(JSON.parse(JSON.stringify(forTeam))).toEqual(forTeam);
      expect(forTeam).toMatchObject({ id, status: "completed", mode: "seq", datasetVersion: "v1", system: { name: "alpha-agent", team: "Alpha" } });
      expect(forTeam.progress.jobs[0]!.lastError).toMatch(/stack/);
      expect(forVisitor.progress.jobs.every((j) => j.lastError === null)).toBe(true);
    } finally {
      await setVisibility("private");
      await t.db.evaluationJob.updateMany({ where: { submissionId: id }, data: { lastError: null } });
    }
  });
});

describe("resultsJsonl", () => {
  it("writes one SPEC §3 line per graded bug, as the evaluator does, with the prediction's cost", async () => {
    const text = await downloads.resultsJsonl(member, id);
    const lines = text.trimEnd().split("\n").map((l) => gradedBugSchema.parse(JSON.parse(l)));
    expect(lines).toHaveLength(6);
    for (const [i, line] of lines.entries()) expect(line).toMatchObject(handedIn[i]!.bug);
    expect(lines[0]!.cost_usd).toBeGreaterThan(0);
    expect(text.endsWith("\n")).toBe(true);
    await expect(downloads.resultsJsonl(outsider, id)).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe("bugLog", () => {
  it("gives one bug's full log to readers, with a file name", async () => {
    const log = await downloads.bugLog(reviewer, id, "moneyx-chain-1", 2);
    expect(log.text).toBe(handedIn.find((a) => a.bug.continuous_id === "moneyx-chain-1" && a.bug.order === 2)!.log);
    expect(log.filename).toBe(`${id}-moneyx-chain-1-2.log`);
    await expect(downloads.bugLog(member, id, "moneyx-chain-1", 9)).rejects.toBeInstanceOf(NotFoundError);
    await expect(downloads.bugLog(member, id, "moneyx-chain-1", Number.NaN)).rejects.toBeInstanceOf(NotFoundError);
    await expect(downloads.bugLog(null, id, "moneyx-chain-1", 2)).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe("predictionsJsonl", () => {
  it("is for the team and reviewers only, even once the submission is public", async () => {
    const text = await downloads.predictionsJsonl(member, id);
    const lines = text.trimEnd().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => [l.continuous_id, l.order])).toEqual([
      ["inikit-chain-1", 1], ["inikit-chain-1", 2], ["inikit-chain-1", 3],
      ["moneyx-chain-1", 1], ["moneyx-chain-1", 2], ["moneyx-chain-1", 3],
    ]);
    expect(lines[0]).toMatchObject({ model_name_or_path: "alpha-agent", model_patch: expect.stringContaining("diff --git") });
    await expect(downloads.predictionsJsonl(reviewer, id)).resolves.toBe(text);
    await setVisibility("public");
    try {
      await expect(downloads.predictionsJsonl(null, id)).rejects.toBeInstanceOf(NotFoundError);
      await expect(downloads.predictionsJsonl(outsider, id)).rejects.toBeInstanceOf(NotFoundError);
      await expect(downloads.resultsJsonl(null, id)).resolves.toContain("inikit-chain-1");
    } finally {
      await setVisibility("private");
    }
  });
});
