/**
 * The per-position, chain-error and comparison views (lib/positions/data.ts,
 * analysis.ts, compare.ts, on one set of submissions) against a real database:
 * only public analyses whose Oracle is public too count, filters narrow them,
 * the comparison is pairedComparison's on both submissions' stored results, and
 * a submission the viewer may not read is not found.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { budgetCurveOfRun, pairedComparison } from "@/core/scoring";
import { analysisQuerySchema } from "@/lib/analysis/url";
import { positionsQuerySchema } from "@/lib/positions/url";
import { compareQuerySchema } from "@/lib/compare/url";
import { FieldError, NotFoundError } from "@/core/errors";
import { DEMO_GOLD_SEQ, completedSubmission, openTestDb } from "@/lib/testing/test-db";
import { parseQuery } from "@/lib/view-query";

let t: Awaited<ReturnType<typeof openTestDb>>;
let an: typeof import("@/lib/analysis/data");
let positions: typeof import("@/lib/positions/data");
let compare: typeof import("@/lib/compare/data");

beforeAll(async () => {
  t = await openTestDb();
  an = await import("@/lib/analysis/data");
  positions = await import("@/lib/positions/data");
  compare = await import("@/lib/compare/data");
});
afterAll(async () => t?.close());

/** A completed submission, aggregates refreshed; bugs listed as unresolved (chain → orders) fail, touching a stray file. */
const completed = (system: string, mode: "oracle" | "seq", unresolved: Record<string, number[]> = {}, visibility = "public") =>
  completedSubmission(t, { system: { name: system, team: "an" }, mode, unresolved, failAs: { fingerprint: "broke_working_code", model_files: ["stray.py"] }, visibility, aggregates: true });

const ids = {} as Record<"aOracle" | "aSeq" | "bOracle" | "bSeq" | "cOracle" | "cSeq", string>;

describe("analysis views", () => {
  beforeAll(async () => {
    ids.aOracle = await completed("sys-a", "oracle");
    ids.aSeq = await completed("sys-a", "seq", { "inikit-chain-1": [2], "moneyx-chain-1": [3] });
    // an Oracle that is private: its system's public Seq analysis is not shown
    ids.bOracle = await completed("sys-b", "oracle", {}, "private");
    ids.bSeq = await completed("sys-b", "seq", { "inikit-chain-1": [2] });
    // a private Seq: not shown either
    ids.cOracle = await completed("sys-c", "oracle");
    ids.cSeq = await completed("sys-c", "seq", { "inikit-chain-1": [3] }, "private");
  });

  it("chain errors: public Seq analyses against public Oracles only, summed; filters narrow them", async () => {
    const v = await an.getChainErrorView(parseQuery(analysisQuerySchema, { version: "v1" }));
    expect(v.systems.map((s) => s.name)).toEqual(["sys-a"]);
    expect(v.analyses.map((a) => [a.seqSubmissionId, a.oracleSubmissionId])).toEqual([[ids.aSeq, ids.aOracle]]);
    expect(v.combined.overall.chain_errors).toBe(2);
    expect(v.combined.positions.map((p) => [p.position, p.chain_errors])).toEqual([
      [2, 1],
      [3, 1],
      [4, 0],
    ]);
    expect(v.errors.map((e) => [e.continuous_id, e.order, e.seqSubmissionId, e.team])).toEqual([
      ["inikit-chain-1", 2, ids.aSeq, "an"],
      ["moneyx-chain-1", 3, ids.aSeq, "an"],
    ]);
    const narrowed = await an.getChainErrorView(parseQuery(analysisQuerySchema, { version: "v1", position: "3" }));
    expect(narrowed.errors.map((e) => e.continuous_id)).toEqual(["moneyx-chain-1"]);
    expect(narrowed.errorsTotal).toBe(2);
    expect(narrowed.combined.overall.chain_errors).toBe(2);
    const sysA = v.systems[0]!.id;
    expect((await an.getChainErrorView({ version: "v1", system: [sysA], mode: "seq" })).analyses).toHaveLength(1);
    expect((await an.getChainErrorView({ version: "v1", system: ["nope"] })).analyses).toHaveLength(0);
    const memOnly = await an.getChainErrorView({ version: "v1", system: [], mode: "seq_mem" });
    expect(memOnly.analyses).toEqual([]);
    expect(memOnly.combined.overall.rate).toBeNull();
    expect((await an.getChainErrorView({ version: "nope", system: [] })).analyses).toEqual([]);
  });

  it("chain errors under a bug-date window: only the kept chains' errors, rates against their unresolved bugs", async () => {
    // inikit's bugs are dated before 2023-04-01, moneyx's after
    const later = await an.getChainErrorView(parseQuery(analysisQuerySchema, { version: "v1", bug_from: "2023-04-01" }));
    expect(later.window).toMatchObject({ from: "2023-04-01", chains: 4, totalChains: 5 });
    expect(later.errors.map((e) => [e.continuous_id, e.order])).toEqual([["moneyx-chain-1", 3]]);
    expect(later.combined.overall).toMatchObject({ chain_errors: 1, unresolved_downstream: 1, rate: 100 });
    expect(later.combined.positions.map((p) => [p.position, p.chain_errors])).toEqual([
      [2, 0],
      [3, 1],
      [4, 0],
    ]);
    const early = await an.getChainErrorView(parseQuery(analysisQuerySchema, { version: "v1", bug_until: "2023-03-31" }));
    expect(early.errors.map((e) => e.continuous_id)).toEqual(["inikit-chain-1"]);
    expect(early.combined.positions.map((p) => p.position)).toEqual([2, 3]);
    expect((await an.getChainErrorView(parseQuery(analysisQuerySchema, { version: "v1" }))).window).toBeNull();
    // the per-position view is the leaderboard's rows under the same window
    const pos = await positions.getPositionsView(parseQuery(positionsQuerySchema, { version: "v1", bug_until: "2023-03-31" }));
    expect(pos.window).toMatchObject({ chains: 1, bugs: 3 });
    expect(pos.byConfig.groups[0]!.rows.find((r) => r.mode === "seq")!.cells.map((c) => c.chains)).toEqual([1, 1, 1]);
  });

  it("per position: the public leaderboard rows by configuration and by model", async () => {
    const v = await positions.getPositionsView(parseQuery(positionsQuerySchema, { version: "v1" }));
    // sys-a oracle + seq, sys-b seq, sys-c oracle
    expect(v.rows).toBe(4);
    expect(v.byConfig.positions).toEqual([1, 2, 3]);
    expect(v.byModel.groups.map((g) => g.key)).toEqual(v.models);
    const all = await positions.getPositionsView(parseQuery(positionsQuerySchema, { version: "v1", positions: "all" }));
    expect(all.byConfig.positions).toEqual([1, 2, 3, 4]);
    expect(v.reported).toBeNull();
    const withPaper = await positions.getPositionsView(parseQuery(positionsQuerySchema, { version: "v1", paper: "1" }));
    expect(withPaper.reported?.byConfig.groups.map((g) => g.key)).toEqual(["Baseline", "Summarize", "Sub-Agent"]);
    // reported rows never enter the evaluated tables
    expect(withPaper.byConfig).toEqual(v.byConfig);
    const seqRow = v.byConfig.groups[0]!.rows.find((r) => r.mode === "seq")!;
    expect(seqRow.submissionIds.sort()).toEqual([ids.aSeq, ids.bSeq].sort());
  });

  it("comparison: pairedComparison on both stored results; private ones only for those who may read them", async () => {
    const c = await compare.getComparison(null, parseQuery(compareQuerySchema, { a: ids.aOracle, b: ids.aSeq }));
    expect(c.version).toBe("v1");
    const { runResultsForSubmission } = await import("@/lib/submissions/run-results");
    const expected = pairedComparison((await runResultsForSubmission(ids.aOracle))!, (await runResultsForSubmission(ids.aSeq))!);
    expect(c.paired).toEqual(expected);
    expect(c.paired!.difference.value).toBeGreaterThan(0);
    expect(c.chains.filter((r) => r.winner === "a")).toHaveLength(expected.wins);
    expect(c.options.map((o) => o.submissionId)).toContain(ids.aSeq);
    expect(c.scatter.points.find((p) => p.submissionId === ids.aOracle)?.picked).toBe("a");
    // a budget curve per visible row, budgetCurveOfRun's on its stored results
    expect(c.budget.map((s) => s.submissionId)).toEqual(c.rows.map((r) => r.submissionId));
    const steps = await compare.getComparison(null, parseQuery(compareQuerySchema, { a: ids.aOracle, b: ids.aSeq, effort: "steps", scoring: "lenient" }));
    expect(steps.budget.find((s) => s.submissionId === ids.aSeq)).toMatchObject({ picked: "b", curve: budgetCurveOfRun((await runResultsForSubmission(ids.aSeq))!, "steps", "lenient") });

    await expect(compare.getComparison(null, { a: ids.aSeq, b: ids.bOracle, scoring: "strict", effort: "cost_usd" })).rejects.toThrow(NotFoundError);
    const reviewer = await t.db.user.create({ data: { username: "rev-an", isReviewer: true } });
    const { viewerById } = await import("@/lib/accounts/users");
    const asReviewer = await compare.getComparison(await viewerById(reviewer.id), { a: ids.bSeq, b: ids.bOracle, scoring: "lenient", effort: "cost_usd" });
    expect(asReviewer.paired?.scoring).toBe("lenient");
    expect(asReviewer.options.find((o) => o.submissionId === ids.bOracle)?.visibility).toBe("private");

    const { id: queued } = await t.submissions.createSubmission({ systemName: "sys-d", teamName: "an", datasetVersion: "v1", mode: "seq", predictions: DEMO_GOLD_SEQ });
    await t.db.submission.update({ where: { id: queued }, data: { visibility: "public" } });
    await expect(compare.getComparison(null, { a: queued, scoring: "strict", effort: "cost_usd" })).rejects.toThrow(FieldError);
  });
});
