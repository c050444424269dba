/**
 * The dataset browser's numbers: one submission per public system × mode, own
 * grades, missing = unsolved, and exports that carry the same fields as CSV and JSON.
 */
import { describe, expect, it } from "vitest";
import { toCsv } from "@/lib/export/csv";
import { problemTitle, repositoryRows } from "@/lib/dataset/view";
import { bugSolveRates, chainSolveRates, formatSolveRate, positionSolveRates, shownRateKeys, standingSubmissions, type PublicOutcome, type RatesByMode } from "@/lib/dataset/solve-rates";
import { BUG_COLUMNS, } from "@/lib/dataset/export";
import { exportRecords } from "@/lib/export/table";
import { datasetVersionQuerySchema } from "@/lib/dataset/url";
import { parseQuery, parseViewQuery } from "@/lib/view-query";

const chains = [
  { continuousId: "a", length: 3 },
  { continuousId: "b", length: 3 },
  { continuousId: "c", length: 4 },
];

/** A submission covering every chain, unsolved where listed (chain → orders), missing where listed. */
function outcome(id: string, mode: PublicOutcome["mode"], unsolved: Record<string, number[]> = {}, missing: Record<string, number[]> = {}, covered = ["a", "b", "c"]): PublicOutcome {
  return {
    submissionId: id,
    systemId: `sys-${id}`,
    mode,
    finishedAt: new Date("2025-01-01"),
    chains: covered,
    verdicts: chains
      .filter((c) => covered.includes(c.continuousId))
      .flatMap((c) =>
        Array.from({ length: c.length }, (_, i) => i + 1)
          .filter((o) => !missing[c.continuousId]?.includes(o))
          .map((order) => ({ continuousId: c.continuousId, order, resolved: !unsolved[c.continuousId]?.includes(order) })),
      ),
  };
}

const pct = (r: RatesByMode, k: keyof RatesByMode) => [r[k].solved, r[k].attempts];

describe("standingSubmissions", () => {
  it("keeps the newest submission of each system × mode", () => {
    const base = { systemId: "s", mode: "seq" as const };
    const picked = standingSubmissions([
      { ...base, submissionId: "old", finishedAt: new Date("2025-01-01") },
      { ...base, submissionId: "new", finishedAt: new Date("2025-02-01") },
      { ...base, submissionId: "oracle", mode: "oracle" as const, finishedAt: new Date("2024-01-01") },
      { ...base, submissionId: "other", systemId: "t", finishedAt: null },
    ]);
    expect(picked.map((p) => p.submissionId)).toEqual(["new", "oracle", "other"]);
  });
});

describe("solve rates", () => {
  const outcomes = [
    outcome("o1", "oracle", { a: [2] }),
    outcome("s1", "seq", { a: [2, 3] }, { b: [3] }),
    // attempted only chain a: chains b and c are not in its denominators
    outcome("s2", "seq", {}, {}, ["a"]),
  ];

  it("per bug: own grades, missing results unsolved, only attempted chains counted", () => {
    const rates = bugSolveRates(chains, outcomes);
    const a = rates.get("a")!;
    expect(pct(a[0]!, "all")).toEqual([3, 3]);
    expect(pct(a[1]!, "all")).toEqual([1, 3]);
    expect(pct(a[1]!, "oracle")).toEqual([0, 1]);
    expect(pct(a[1]!, "seq")).toEqual([1, 2]);
    // own grade: bug 3 counts for o1 although bug 2 failed
    expect(pct(a[2]!, "oracle")).toEqual([1, 1]);
    const b = rates.get("b")!;
    expect(pct(b[2]!, "seq")).toEqual([0, 1]);
    expect(b[2]!.seq_mem).toEqual({ solved: 0, attempts: 0, pct: null });
    expect(a[1]!.all.pct).toBeCloseTo(100 / 3, 9);
  });

  it("per chain: solved only when every bug is", () => {
    const rates = chainSolveRates(chains, outcomes);
    expect(pct(rates.get("a")!, "all")).toEqual([1, 3]);
    expect(pct(rates.get("b")!, "all")).toEqual([1, 2]);
    expect(pct(rates.get("c")!, "seq")).toEqual([1, 1]);
  });

  it("per position over length-3 chains by default, or all chains", () => {
    const three = positionSolveRates(chains, outcomes, "length3");
    expect(three.map((r) => r.position)).toEqual([1, 2, 3]);
    expect(three[1]!.chains).toBe(2);
    // position 2: a (o1 ✗, s1 ✗, s2 ✓), b (o1 ✓, s1 ✓)
    expect(pct(three[1]!.rates, "all")).toEqual([3, 5]);
    const all = positionSolveRates(chains, outcomes, "all");
    expect(all.map((r) => [r.position, r.chains])).toEqual([
      [1, 3],
      [2, 3],
      [3, 3],
      [4, 1],
    ]);
    expect(pct(all[3]!.rates, "all")).toEqual([2, 2]);
    expect(positionSolveRates([], outcomes, "all")).toEqual([]);
  });

  it("shows the modes some standing submission is in", () => {
    expect(shownRateKeys({ oracle: 2, seq: 1, seq_mem: 0 })).toEqual(["all", "oracle", "seq"]);
    expect(shownRateKeys({ oracle: 0, seq: 0, seq_mem: 0 })).toEqual(["all", "oracle", "seq", "seq_mem"]);
  });

  it("formats a rate with its counts", () => {
    expect(formatSolveRate({ solved: 5, attempts: 8, pct: 62.5 })).toBe("62.5% (5/8)");
    expect(formatSolveRate({ solved: 0, attempts: 0, pct: null })).toBe("—");
  });
});

describe("tables and queries", () => {
  it("repositories by name with chain and bug counts", () => {
    expect(
      repositoryRows([
        { repo: "z/b", length: 3 },
        { repo: "a/x", length: 4 },
        { repo: "z/b", length: 2 },
      ]),
    ).toEqual([
      { repo: "a/x", chains: 1, bugs: 4 },
      { repo: "z/b", chains: 2, bugs: 5 },
    ]);
  });

  it("the JSON export has the CSV's columns, by key", () => {
    const solved = bugSolveRates(chains, [outcome("o1", "oracle")]).get("a")![0]!;
    const row = {
      continuousId: "a",
      order: 1,
      swebenchInstanceId: "x__y-1",
      date: "2024-01-01",
      commitHash: "abc",
      problemStatement: 'say "hi", <b>now</b>\nplease',
      goldFiles: ["x/a.py", "x/b.py"],
      testFiles: ["tests/t.py"],
      failToPass: 2,
      passToPass: 5,
      solved,
      outcomes: [],
    };
    const [record] = exportRecords(BUG_COLUMNS, [row]);
    expect(record).toMatchObject({ continuous_id: "a", order: 1, gold_files: "x/a.py x/b.py", solved_oracle_solved: 1, solved_seq_pct: null });
    expect(Object.keys(record!)).toHaveLength(BUG_COLUMNS.length);
    const csv = toCsv(BUG_COLUMNS, [row]);
    expect(csv.split("\n")[0]).toContain("problem statement");
    expect(csv).toContain('"say ""hi"", <b>now</b>\nplease"');
  });

  it("query schemas: defaults, and the first value of a repeated key", () => {
    expect(parseQuery(datasetVersionQuerySchema, new URLSearchParams("positions=all&positions=length3"))).toEqual({
      format: "json",
      table: "chains",
      positions: "all",
    });
    expect(() => parseQuery(datasetVersionQuerySchema, new URLSearchParams("format=xml"))).toThrow(/format/);
    // a page keeps the good values and drops the bad one
    expect(parseViewQuery(datasetVersionQuerySchema, { table: "positions", positions: "nine", repo: "" }).query).toEqual({ format: "json", table: "positions", positions: "length3" });
  });

  it("a problem statement's title is its first line, shortened", () => {
    expect(problemTitle("\n  Crash on <script> \nmore")).toBe("Crash on <script>");
    expect(problemTitle("x".repeat(200), 10)).toBe("xxxxxxxxx…");
    expect(problemTitle("")).toBe("(no problem statement)");
  });
});
