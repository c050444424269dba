import { describe, expect, it } from "vitest";
import { chainErrorBreakdown, chainErrorBreakdownOf, chainErrors } from "@/core/analysis";
import { bugDay, bugWindowSchema, chainsInWindow, dayAfter } from "./window";
import { chainRecords, scoreChainRecords } from "./outcomes";
import { costPerSolvedChain, scoreOutcomes, scoreRun, scoreValues } from "./score-run";
import { scoreRunsInWindow } from "./window";
import { makeRun } from "./test-fixtures";

const dated = [
  { continuous_id: "early", dates: ["2023-01-05T10:00:00Z", "2023-02-01T23:59:59Z"] },
  { continuous_id: "straddle", dates: ["2023-03-30", "2023-04-02T00:00:00Z"] },
  { continuous_id: "late", dates: ["2023-06-01T08:00:00+02:00", "2023-06-03", "2023-07-01"] },
  { continuous_id: "undated", dates: ["2023-06-01", "sometime"] },
];

describe("chainsInWindow", () => {
  it("keeps every chain, dated or not, when no bound is set", () => {
    const k = chainsInWindow(dated, {});
    expect([...k.inside]).toEqual(["early", "straddle", "late", "undated"]);
    expect(k).toMatchObject({ chains: 4, bugs: 9, totalChains: 4, totalBugs: 9, undated: 0 });
  });

  it("keeps a chain only when all its bugs are inside, both ends inclusive, by UTC day", () => {
    // 2023-06-01T08:00+02:00 is 2023-06-01 06:00 UTC
    expect([...chainsInWindow(dated, { from: "2023-04-01" }).inside]).toEqual(["late"]);
    expect([...chainsInWindow(dated, { from: "2023-03-30" }).inside]).toEqual(["straddle", "late"]);
    expect([...chainsInWindow(dated, { until: "2023-02-01" }).inside]).toEqual(["early"]);
    expect([...chainsInWindow(dated, { until: "2023-01-31" }).inside]).toEqual([]);
    const k = chainsInWindow(dated, { from: "2023-01-01", until: "2023-07-01" });
    expect([...k.inside]).toEqual(["early", "straddle", "late"]);
    expect(k).toMatchObject({ chains: 3, bugs: 7, totalChains: 4, totalBugs: 9, undated: 1 });
  });

  it("reads bug dates as UTC days", () => {
    expect(bugDay("2023-10-02T23:30:00-02:00")).toBe("2023-10-03");
    expect(bugDay("2023-10-02")).toBe("2023-10-02");
    expect(bugDay("not a date")).toBeNull();
    expect(dayAfter("2024-02-28")).toBe("2024-02-29");
    expect(dayAfter("2024-12-31")).toBe("2025-01-01");
  });

  it("keeps nothing in a window that ends before it starts, and refuses a bound that is not a day", () => {
    expect(chainsInWindow(dated, { from: "2023-06-02", until: "2023-06-01" }).chains).toBe(0);
    expect(bugWindowSchema.safeParse({ from: "2024-13-01" }).error?.issues[0]?.path).toEqual(["from"]);
    expect(bugWindowSchema.parse({ from: "2024-01-31", until: "2024-01-31" })).toEqual({ from: "2024-01-31", until: "2024-01-31" });
  });
});

describe("scores over the chains a window keeps", () => {
  const chains: [string, number][] = [
    ["a", 3],
    ["b", 3],
    ["c", 2],
    ["d", 3],
  ];
  const bugs = [
    { continuous_id: "a", order: 1, resolved: true },
    { continuous_id: "a", order: 2, resolved: false },
    { continuous_id: "a", order: 3, resolved: true, cost_usd: 2 },
    { continuous_id: "b", order: 1, resolved: true },
    { continuous_id: "b", order: 2, resolved: true },
    { continuous_id: "b", order: 3, resolved: true },
    { continuous_id: "c", order: 1, resolved: false },
    { continuous_id: "d", order: 2, resolved: true },
  ];
  const seq = makeRun("s", "seq", chains, bugs);

  it("without intervals are the same values", () => {
    const outcomes = scoreChainRecords(chainRecords(seq), "strict", "seq");
    const full = scoreOutcomes(outcomes, { system: "s", mode: "seq" }, { positions: "all" });
    expect(scoreValues(outcomes, { system: "s", mode: "seq" }, { positions: "all" })).toEqual({
      ...full,
      per_bug: full.per_bug.value,
      chain: full.chain.value,
      per_position: full.per_position.map(({ ci: _, ...p }) => p),
      bootstrap: undefined,
    });
  });

  it("over every chain equal the run's own scores", () => {
    for (const scoring of ["strict", "lenient"] as const) {
      for (const positions of ["length3", "all"] as const) {
        const outcomes = scoreChainRecords(chainRecords(seq), scoring, "seq");
        expect(scoreOutcomes(outcomes, { system: "s", mode: "seq" }, { scoring, positions })).toEqual(scoreRun(seq, { scoring, positions }));
      }
    }
  });

  it("over a subset equal the scores of a run on a dataset of only those chains (intervals included)", () => {
    const kept = new Set(["a", "c", "d"]);
    const narrowed = makeRun(
      "s",
      "seq",
      chains.filter(([id]) => kept.has(id)),
      bugs.filter((b) => kept.has(b.continuous_id)),
    );
    for (const scoring of ["strict", "lenient"] as const) {
      const outcomes = scoreChainRecords(chainRecords(seq), scoring, "seq").filter((o) => kept.has(o.continuous_id));
      const windowed = scoreOutcomes(outcomes, { system: "s", mode: "seq" }, { scoring, positions: "all" });
      expect(windowed).toEqual(scoreRun(narrowed, { scoring, positions: "all" }));
    }
    const strict = scoreOutcomes(
      scoreChainRecords(chainRecords(seq), "strict", "seq").filter((o) => kept.has(o.continuous_id)),
      { system: "s", mode: "seq" },
      { positions: "all" },
    );
    // a: 1 resolved (strict stops at 2), c: 0, d: 0 (bug 1 missing)
    expect(strict.counts).toEqual({ chains: 3, bugs: 8, graded: 5, resolved: 1, chains_resolved: 0 });
    expect(strict.per_bug.value).toBeCloseTo(12.5);
    expect(strict.cost_per_chain).toBe(2);
  });

  it("several runs in a window: each as scored alone on the kept chains, a chain without a record counted ungraded", () => {
    const other = makeRun("t", "oracle", chains, bugs.map((b) => ({ ...b, resolved: !b.resolved })));
    const datedChains = chains.map(([id, n]) => ({ continuous_id: id, dates: Array.from({ length: n }, () => "2024-01-01") }));
    const inside = new Set(["d", "a"]);
    const [s, t] = scoreRunsInWindow(
      datedChains,
      inside,
      [
        { run: { system: "s", mode: "seq" }, runs: [chainRecords(seq).reverse()] },
        { run: { system: "t", mode: "oracle" }, runs: [chainRecords(other).filter((c) => c.continuous_id !== "d")] },
      ],
      { positions: "all" },
    );
    const only = (run: typeof seq) => ({ ...run, summary: { ...run.summary, dataset: { ...run.summary.dataset, chains: run.summary.dataset.chains.filter((c) => inside.has(c.continuous_id)) } } });
    expect(s).toEqual(scoreRun(only(seq), { positions: "all" }));
    expect(t).toEqual(scoreRun(only({ ...other, bugs: other.bugs.filter((b) => b.continuous_id !== "d") }), { positions: "all" }));
    expect(t!.counts).toMatchObject({ chains: 2, bugs: 6, graded: 3 });
  });

  it("chain-error breakdown over kept chains counts only their errors and unresolved bugs", () => {
    const oracle = makeRun("s", "oracle", chains, [
      ...bugs.map((b) => ({ ...b, resolved: true })),
      { continuous_id: "c", order: 2, resolved: true },
      { continuous_id: "d", order: 1, resolved: true },
      { continuous_id: "d", order: 3, resolved: true },
    ]);
    const errors = chainErrors(oracle, seq);
    expect(chainErrorBreakdownOf(errors, { system: "s", mode: "seq" }, chainRecords(seq))).toEqual(chainErrorBreakdown(errors, seq));
    const kept = new Set(["a", "b"]);
    const narrowed = chainErrorBreakdownOf(
      errors.filter((e) => kept.has(e.continuous_id)),
      { system: "s", mode: "seq" },
      chainRecords(seq).filter((c) => kept.has(c.continuous_id)),
    );
    // only a's bug 2 is a graded unresolved downstream bug among a and b, and a chain error
    expect(narrowed.overall).toMatchObject({ chain_errors: 1, unresolved_downstream: 1, rate: 100 });
  });
});

describe("a row of repeated runs (SPEC §7)", () => {
  const chains: [string, number][] = [
    ["a", 2],
    ["b", 3],
    ["c", 1],
  ];
  const solve = (ids: [string, number][]) => ids.map(([continuous_id, order]) => ({ continuous_id, order, resolved: true }));
  // run 1 solves a and c; run 2 solves a and half of b; run 3 solves a, b and c
  const runs = [
    makeRun("s", "seq", chains, [...solve([["a", 1], ["a", 2], ["c", 1]]), { continuous_id: "b", order: 1, resolved: false }]),
    makeRun("s", "seq", chains, solve([["a", 1], ["a", 2], ["b", 1], ["b", 3]])),
    makeRun("s", "seq", chains, solve([["a", 1], ["a", 2], ["b", 1], ["b", 2], ["b", 3], ["c", 1]])),
  ];
  const dated = chains.map(([id, n]) => ({ continuous_id: id, dates: Array.from({ length: n }, () => "2024-01-01") }));

  it("means over the runs, their spread, each run's own values, and pass^k", () => {
    const [row] = scoreRunsInWindow(dated, new Set(["a", "b", "c"]), [{ run: { system: "s", mode: "seq" }, runs: runs.map(chainRecords) }], { positions: "all" });
    const alone = runs.map((r) => scoreRun(r, { positions: "all" }));
    // strict: run 1 resolves 3 of 6 bugs, run 2 resolves 3 (b stops at 1), run 3 all 6
    expect(alone.map((s) => s.per_bug.value)).toEqual([50, 50, 100]);
    expect(row!.per_bug.value).toBeCloseTo((50 + 50 + 100) / 3, 12);
    expect(row!.chain.value).toBeCloseTo((200 / 3 + 100 / 3 + 100) / 3, 12);
    expect(row!.runs).toMatchObject({
      k: 3,
      per_bug: { min: 50, max: 100 },
      chain: { min: 100 / 3, max: 100 },
      by_run: alone.map((s) => ({ per_bug: s.per_bug.value, chain: s.chain.value })),
    });
    // only chain a is solved in all three runs
    expect(row!.runs!.pass_k.value).toBeCloseTo(100 / 3, 12);
    expect(row!.runs!.per_position).toEqual([
      { position: 1, min: 200 / 3, max: 100 },
      { position: 2, min: 50, max: 100 },
      { position: 3, min: 0, max: 100 },
    ]);
    // counts sum over the runs: the population stays the dataset's
    expect(row!.counts).toEqual({ chains: 3, bugs: 6, graded: 4 + 4 + 6, resolved: 12, chains_resolved: 6 });
  });

  it("a window rescores every run over the kept chains", () => {
    const [row] = scoreRunsInWindow(dated, new Set(["b"]), [{ run: { system: "s", mode: "seq" }, runs: runs.map(chainRecords) }], { positions: "all" });
    expect(row!.runs!.by_run.map((r) => r.chain)).toEqual([0, 0, 100]);
    expect(row!.runs!.pass_k.value).toBe(0);
    expect(row!.per_bug.value).toBeCloseTo((0 + 100 / 3 + 100) / 3, 12);
  });
});

describe("costPerSolvedChain", () => {
  it("is the cost per chain over the chain solve rate: total cost / chains solved when every chain reports a cost", () => {
    // 4 chains costing 2 each, 1 solved: $8 for one solved chain
    expect(costPerSolvedChain({ cost_per_chain: 2, chain: 25 })).toBe(8);
    expect(costPerSolvedChain({ cost_per_chain: 2, chain: 0 })).toBeNull();
    expect(costPerSolvedChain({ cost_per_chain: null, chain: 50 })).toBeNull();
  });
});
