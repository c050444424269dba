/**
 * A bug's failure page against a real SQLite file: who may open it (as the
 * submission), who sees the agent's patch (the team and reviewers only), the
 * other mode side by side only when readable, and a chain error's cause with
 * its evidence linking to the prior bug's page.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_STORED_HITS } from "@/core/trajectory/shortcuts";
import { TIMELINE_PAGE_ITEMS } from "@/lib/submissions/trajectories";
import { touchedFiles } from "@/core/diff";
import type { Viewer } from "@/lib/authz";
import { NotFoundError } from "@/core/errors";
import { failurePageUrl } from "@/lib/submissions/urls";
import { alphaAndOthers, completedSubmission, openTestDb } from "@/lib/testing/test-db";

let t: Awaited<ReturnType<typeof openTestDb>>;
let failure: typeof import("@/lib/submissions/failure");
let member: Viewer;
let outsider: Viewer;
let reviewer: Viewer;
let oracleId: string;
let seqId: string;

const CHAIN = "moneyx-chain-1";
const FAILING = "tests/test_currency.py::test_money_in_unknown_currency_raises";
const LOG = [
  "=================================== FAILURES ===================================",
  "____________________ test_money_in_unknown_currency_raises _____________________",
  "",
  "    def test_money_in_unknown_currency_raises():",
  ">       with pytest.raises(UnknownCurrency):",
  "E       Failed: DID NOT RAISE <class 'moneyx.currency.UnknownCurrency'>",
  "",
  "tests/test_currency.py:40: Failed",
  "=========================== short test summary info ============================",
  `FAILED ${FAILING} - Failed...`,
].join("\n");

/**
 * A completed submission of moneyx only, every file set as the gold patch's; under
 * Seq, bug 1 also edits currency.py (an overshoot: gold 2 touches it) and bug 2 fails.
 */
const completed = (systemId: string, mode: "oracle" | "seq", visibility: string) =>
  completedSubmission(t, {
    system: { id: systemId },
    mode,
    chainIds: [CHAIN],
    visibility,
    reviewed: false,
    edit: (a, chain) => {
      const gold = touchedFiles(chain.bug_fixes[a.bug.order - 1]!.patch);
      const bug = { ...a.bug, gold_files: gold, model_files: gold };
      if (mode === "seq" && a.bug.order === 1) bug.model_files = [...gold, "moneyx/currency.py"].sort();
      if (mode === "seq" && a.bug.order === 2) {
        Object.assign(bug, { resolved: false, fingerprint: "broke_working_code", pass_to_pass: { success: [], failure: [FAILING] }, exit_code: 1 });
        return { ...a, bug, log: LOG };
      }
      return { ...a, bug };
    },
  });

beforeAll(async () => {
  t = await openTestDb();
  failure = await import("@/lib/submissions/failure");
  const cast = await alphaAndOthers(t, { model: "m", scaffold: "s", contextConfig: "Baseline" });
  const { systemId } = cast;
  ({ member, outsider, reviewer } = cast);
  oracleId = await completed(systemId, "oracle", "private");
  seqId = await completed(systemId, "seq", "public");
  const { refreshAggregates } = await import("@/lib/leaderboard/aggregates");
  await refreshAggregates(seqId);
}, 60_000);

afterAll(async () => t?.close());

describe("getFailurePage: who may read what", () => {
  it("a private submission is not found for visitors and other teams", async () => {
    await expect(failure.getFailurePage(null, oracleId, CHAIN, 2)).rejects.toBeInstanceOf(NotFoundError);
    await expect(failure.getFailurePage(outsider, oracleId, CHAIN, 2)).rejects.toBeInstanceOf(NotFoundError);
    await expect(failure.getFailurePage(member, oracleId, CHAIN, 2)).resolves.toMatchObject({ submission: { id: oracleId } });
  });

  it("the agent's effort on the bug, as its prediction line reported it, is public like the row's costs", async () => {
    const page = await failure.getFailurePage(null, seqId, CHAIN, 2);
    expect(page.effort).toEqual({ cost_usd: 0.7039, input_tokens: 469800, output_tokens: 11660, peak_context_tokens: 131500, turns: 26 });
    expect(page.agentPatch).toEqual({ visible: false });
  });

  it("an unknown bug, chain or submission is not found", async () => {
    await expect(failure.getFailurePage(member, seqId, CHAIN, 9)).rejects.toBeInstanceOf(NotFoundError);
    await expect(failure.getFailurePage(member, seqId, CHAIN, Number.NaN)).rejects.toBeInstanceOf(NotFoundError);
    await expect(failure.getFailurePage(member, seqId, "nope", 1)).rejects.toBeInstanceOf(NotFoundError);
    await expect(failure.getFailurePage(member, "nope", CHAIN, 1)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("a visitor on a public submission sees outcomes and file sets, but no patch text, and not the private Oracle side", async () => {
    const page = await failure.getFailurePage(null, seqId, CHAIN, 2);
    expect(page.agentPatch).toEqual({ visible: false });
    expect(JSON.stringify(page)).not.toContain("modelPatch");
    expect(page.sides.map((s) => s.mode)).toEqual(["seq"]);
    // the chain error tells the Oracle outcome: not without the Oracle side
    expect(page.chainError).toBeNull();
    expect(page.sides[0].outcome).toMatchObject({ resolved: false, fingerprint: "broke_working_code", patchApplied: true });
  });

  it("the team and reviewers see the agent's patch and both modes", async () => {
    for (const v of [member, reviewer]) {
      const page = await failure.getFailurePage(v, seqId, CHAIN, 2);
      const prediction = await t.db.prediction.findFirstOrThrow({ where: { submissionId: seqId, continuousId: CHAIN, order: 2 } });
      expect(page.agentPatch).toMatchObject({ visible: true, empty: false });
      expect(page.agentPatch.visible && page.agentPatch.files.map((f) => f.path)).toEqual(touchedFiles(prediction.modelPatch));
      expect(page.sides.map((s) => [s.mode, s.submissionId])).toEqual([
        ["seq", seqId],
        ["oracle", oracleId],
      ]);
    }
  });
});

describe("getFailurePage: what the page shows", () => {
  it("a chain error's cause, with evidence linking to the prior bug's page", async () => {
    const page = await failure.getFailurePage(member, seqId, CHAIN, 2);
    expect(page.chainError).toMatchObject({ seqSubmissionId: seqId, cause: "overshoot", fingerprint: "broke_working_code" });
    expect(page.chainError!.evidence).toEqual([
      { priorOrder: 1, file: "moneyx/currency.py", kind: "overshoot", strong: true, pageUrl: failurePageUrl(seqId, CHAIN, 1) },
    ]);
    // from the Oracle side, the same chain error of its Seq counterpart
    expect((await failure.getFailurePage(member, oracleId, CHAIN, 2)).chainError).toMatchObject({ seqSubmissionId: seqId, cause: "overshoot" });
  });

  it("the failing test with its error from the log, and the log's download", async () => {
    const page = await failure.getFailurePage(null, seqId, CHAIN, 2);
    const [test] = page.sides[0].outcome!.failing;
    expect(test).toMatchObject({ id: FAILING, list: "PASS_TO_PASS" });
    expect(test!.excerpt!.lines[0]).toBe("E       Failed: DID NOT RAISE <class 'moneyx.currency.UnknownCurrency'>");
    expect(page.sides[0].log).toEqual({
      pageUrl: `/submissions/${seqId}/chains/${CHAIN}/bugs/2/log`,
      downloadUrl: `/api/v1/submissions/${seqId}/logs/${CHAIN}/2?download=1`,
    });
  });

  it("file sets mark the overshoot, the gold diff and the chain's verdicts for navigation", async () => {
    const page = await failure.getFailurePage(member, seqId, CHAIN, 1);
    const currency = page.fileSets.find((r) => r.file === "moneyx/currency.py")!;
    expect(currency).toEqual({ file: "moneyx/currency.py", gold: false, marks: ["overshoot", null] });
    expect(page.goldDiff.map((f) => f.path)).toEqual(page.bug.goldFiles);
    expect(page.chain.map((b) => [b.order, b.resolved])).toEqual([
      [1, true],
      [2, false],
      [3, true],
    ]);
    expect(page.bug).toMatchObject({ continuousId: CHAIN, order: 1, chainLength: 3, repo: "chainswe-demo/moneyx" });
  });
});

describe("getFailurePage: the trajectory and the start state", () => {
  const LOG2 = "##[chainswe] step Look\n##[chainswe] $ git log --all --oneline\nabc later fix\n##[chainswe] exit 0 4ms\n";
  async function withTrajectory(shown: boolean) {
    await t.db.trajectory.deleteMany({ where: { submissionId: seqId } });
    await t.db.trajectory.create({
      data: { submissionId: seqId, continuousId: CHAIN, order: 2, log: LOG2, steps: 1, calls: 1, shortcuts: JSON.stringify([{ kind: "future_history", call: 1, command: "git log --all --oneline", why: "walks every ref" }]) },
    });
    await t.db.submission.update({ where: { id: seqId }, data: { trajectoriesPublic: shown } });
  }

  it("the team and reviewers read the timeline; visitors only the flags' kinds until the team makes it public", async () => {
    await withTrajectory(false);
    for (const v of [member, reviewer]) {
      const page = await failure.getFailurePage(v, seqId, CHAIN, 2);
      expect(page.trajectory).toMatchObject({ state: "visible", steps: 1, outcome: null, shortcuts: [{ kind: "future_history", call: 1 }] });
      expect(page.trajectory.state === "visible" && page.trajectory.timeline.calls.map((c) => [c.command, c.stdout])).toEqual([["git log --all --oneline", "abc later fix"]]);
    }
    for (const v of [null, outsider]) {
      const page = await failure.getFailurePage(v, seqId, CHAIN, 2);
      expect(page.trajectory).toEqual({ state: "hidden", kinds: ["future_history"] });
      expect(JSON.stringify(page)).not.toContain("abc later fix");
    }
    await withTrajectory(true);
    expect((await failure.getFailurePage(null, seqId, CHAIN, 2)).trajectory).toMatchObject({ state: "visible", steps: 1 });
    expect((await failure.getFailurePage(null, seqId, CHAIN, 3)).trajectory).toEqual({ state: "none" });
  });

  it("the raw log goes to whoever may read the timeline; a long log's page shows its first items and says so", async () => {
    const { bugTrajectoryLog } = await import("@/lib/submissions/downloads");
    await withTrajectory(false);
    expect(await bugTrajectoryLog(member, seqId, CHAIN, 2)).toEqual({ filename: `${seqId}-${CHAIN}-2.trajectory.log`, text: LOG2 });
    await expect(bugTrajectoryLog(null, seqId, CHAIN, 2)).rejects.toBeInstanceOf(NotFoundError);
    await expect(bugTrajectoryLog(member, seqId, CHAIN, 3)).rejects.toBeInstanceOf(NotFoundError);
    // a log stored before pages were: paged all the same
    const long = "##[chainswe] $ ls\n##[chainswe] exit 0 1ms\n".repeat(2 * TIMELINE_PAGE_ITEMS + 7);
    await t.db.trajectory.update({ where: { submissionId_continuousId_order: { submissionId: seqId, continuousId: CHAIN, order: 2 } }, data: { log: long, calls: 2 * TIMELINE_PAGE_ITEMS + 7, items: 2 * TIMELINE_PAGE_ITEMS + 7 } });
    const page = await failure.getFailurePage(member, seqId, CHAIN, 2);
    expect(page.trajectory).toMatchObject({ state: "visible", page: 1, pages: 3, items: 2 * TIMELINE_PAGE_ITEMS + 7, rawUrl: `/api/v1/submissions/${seqId}/trajectories/${CHAIN}/2` });
    expect(page.trajectory.state === "visible" && page.trajectory.timeline.calls).toHaveLength(TIMELINE_PAGE_ITEMS);
    const last = (await failure.getFailurePage(member, seqId, CHAIN, 2, 9)).trajectory;
    expect(last.state === "visible" && [last.page, last.timeline.calls.map((c) => c.index)]).toEqual([3, Array.from({ length: 7 }, (_, i) => 2 * TIMELINE_PAGE_ITEMS + i + 1)]);
  });

  it("a forged log of dense shortcut calls: its page shows one page of items, outputs cut, and the hits stored are capped", async () => {
    const { checkTrajectories } = await import("@/lib/submissions/trajectories");
    const { getChain } = await import("@/lib/dataset/data");
    const chain = (await getChain("v1", CHAIN))!;
    // outputs outside the BMP: a page's slice, cut by the database in code points, must still start at its first call
    const dense = "##[chainswe] $ git log --all\nout 🚀\n##[chainswe] exit 0 1ms\n".repeat(20_000) + `##[chainswe] $ cat big\n${"y".repeat(200_000)}\n##[chainswe] exit 0 1ms\n`;
    const checked = checkTrajectories({ files: [{ path: `${CHAIN}/2.log`, text: dense }], warnings: [] }, [chain], [CHAIN], "v1");
    const row = checked.rows[0]!;
    expect([row.shortcuts.length, row.shortcutHits, row.items, row.pages.length]).toEqual([MAX_STORED_HITS, 20_000, 20_001, Math.ceil(20_001 / TIMELINE_PAGE_ITEMS)]);
    await t.db.trajectory.deleteMany({ where: { submissionId: seqId } });
    await t.db.submission.update({ where: { id: seqId }, data: { trajectoriesPublic: true } });
    const { addTrajectories } = await import("@/lib/submissions/data");
    expect(await addTrajectories(seqId, async () => checked, true)).toBe(true);
    const view = (await failure.getFailurePage(null, seqId, CHAIN, 2)).trajectory;
    expect(view.state === "visible" && [view.pages, view.timeline.calls.length, view.shortcuts.length, view.shortcutHits]).toEqual([row.pages.length, TIMELINE_PAGE_ITEMS, MAX_STORED_HITS, 20_000]);
    const second = (await failure.getFailurePage(null, seqId, CHAIN, 2, 2)).trajectory;
    expect(second.state === "visible" && [second.timeline.calls[0]!.index, second.timeline.calls[0]!.command, second.timeline.calls[0]!.stdout, second.timeline.calls.length]).toEqual([
      TIMELINE_PAGE_ITEMS + 1,
      "git log --all",
      "out 🚀",
      TIMELINE_PAGE_ITEMS,
    ]);
    const tail = (await failure.getFailurePage(null, seqId, CHAIN, 2, row.pages.length)).trajectory;
    const big = tail.state === "visible" ? tail.timeline.calls.at(-1)! : null;
    expect([big?.command, big && big.stdout.length < 200_000, big?.stdout.endsWith("more characters: see the raw log")]).toEqual(["cat big", true, true]);
    // what the page hands the browser is bounded, not the log's size
    expect(JSON.stringify(view).length).toBeLessThan(100_000);
  });

  it("in Seq, names each earlier bug's patch and whether it is in the start state; in Oracle, none", async () => {
    await t.db.bugResult.updateMany({ where: { submissionId: seqId, continuousId: CHAIN, order: 2 }, data: { patchApplied: false, applyMethod: null } });
    const page = await failure.getFailurePage(member, seqId, CHAIN, 3);
    const methods = await t.db.bugResult.findFirstOrThrow({ where: { submissionId: seqId, continuousId: CHAIN, order: 1 }, select: { applyMethod: true } });
    expect(page.carried).toEqual([
      { order: 1, swebenchInstanceId: "chainswe-demo__moneyx-1", url: `${failurePageUrl(seqId, CHAIN, 1)}#patches-heading`, carried: "applied", applyMethod: methods.applyMethod },
      { order: 2, swebenchInstanceId: "chainswe-demo__moneyx-2", url: `${failurePageUrl(seqId, CHAIN, 2)}#patches-heading`, carried: "not_applied", applyMethod: null },
    ]);
    await t.db.bugResult.updateMany({ where: { submissionId: seqId, continuousId: CHAIN, order: 2 }, data: { patchApplied: true, applyMethod: methods.applyMethod } });
    expect((await failure.getFailurePage(member, seqId, CHAIN, 1)).carried).toEqual([]);
    expect((await failure.getFailurePage(member, oracleId, CHAIN, 3)).carried).toBeNull();
  });
});
