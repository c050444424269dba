/** Which leaderboard rows a view shows, in which order: filters, sorting, grouping, limits, the paper's reported rows. */
import { describe, expect, it } from "vitest";
import type { LeaderboardRow } from "@/lib/leaderboard/data";
import { reportedMainRows } from "@/lib/reference/paper";
import { leaderboardRow as row, leaderboardView as q } from "@/lib/testing/leaderboard-row";
import { filterRows, groupRows, limitGroups, selectReportedRows, sortRows } from "@/lib/leaderboard/rows";

describe("filter, sort, group", () => {
  const rows = [
    row({ name: "a", mode: "oracle", perBug: 70, cost: 6, day: "2025-01-10", openWeights: true }),
    row({ name: "a", mode: "seq", perBug: 49, cost: 5.6, vs: -0.29, day: "2025-02-10", openWeights: true }),
    row({ name: "b", config: "Summarize", mode: "seq", perBug: 42.4, cost: null, vs: -0.38, day: "2025-03-10" }),
    row({ name: "c", config: "Sub-Agent", mode: "seq_mem", perBug: 49, cost: 0.3, day: null }),
  ];
  const names = (rs: LeaderboardRow[]) => rs.map((r) => `${r.system.name}/${r.mode}`);

  it("filters by mode, configuration, model, open flags and an inclusive date range", () => {
    expect(names(filterRows(rows, q({ mode: "seq" })))).toEqual(["a/seq", "b/seq"]);
    expect(names(filterRows(rows, q({ config: "Summarize" })))).toEqual(["b/seq"]);
    expect(names(filterRows(rows, q({ model: "c-model" })))).toEqual(["c/seq_mem"]);
    expect(names(filterRows(rows, q({ open_weights: "1" })))).toEqual(["a/oracle", "a/seq"]);
    expect(names(filterRows(rows, q({ open_weights: "0" })))).toEqual(["b/seq", "c/seq_mem"]);
    expect(names(filterRows(rows, q({ from: "2025-02-10", to: "2025-03-10" })))).toEqual(["a/seq", "b/seq"]);
    // a row with no finishing date cannot be in a date range
    expect(names(filterRows(rows, q({ to: "2030-01-01" })))).not.toContain("c/seq_mem");
  });

  it("sorts either way with missing values last, and breaks ties the same way every time", () => {
    expect(names(sortRows(rows, { key: "per_bug", dir: "desc" }))).toEqual(["a/oracle", "a/seq", "c/seq_mem", "b/seq"]);
    expect(names(sortRows(rows, { key: "per_bug", dir: "asc" }))).toEqual(["b/seq", "a/seq", "c/seq_mem", "a/oracle"]);
    expect(names(sortRows(rows, { key: "cost", dir: "asc" }))).toEqual(["c/seq_mem", "a/seq", "a/oracle", "b/seq"]);
    expect(names(sortRows(rows, { key: "cost", dir: "desc" }))).toEqual(["a/oracle", "a/seq", "c/seq_mem", "b/seq"]);
    expect(names(sortRows(rows, { key: "vs_oracle", dir: "asc" }))).toEqual(["b/seq", "a/seq", "a/oracle", "c/seq_mem"]);
    expect(names(sortRows(rows, { key: "date", dir: "desc" }))).toEqual(["b/seq", "a/seq", "a/oracle", "c/seq_mem"]);
    expect(names(sortRows([...rows].reverse(), { key: "config", dir: "asc" }))).toEqual(names(sortRows(rows, { key: "config", dir: "asc" })));
  });

  it("groups by configuration in the paper's order, keeping the sort inside each group", () => {
    const groups = groupRows(sortRows(rows, { key: "per_bug", dir: "asc" }), "config", (r) => r.system.contextConfig);
    expect(groups.map((g) => [g.key, names(g.rows)])).toEqual([
      ["Baseline", ["a/seq", "a/oracle"]],
      ["Summarize", ["b/seq"]],
      ["Sub-Agent", ["c/seq_mem"]],
    ]);
    expect(groupRows([], "none", () => "")).toEqual([]);
  });

  it("limits the rows shown across groups", () => {
    const groups = [
      { key: "x", rows: [1, 2, 3] },
      { key: "y", rows: [4, 5] },
    ];
    expect(limitGroups(groups, 4)).toEqual({ groups: [{ key: "x", rows: [1, 2, 3] }, { key: "y", rows: [4] }], shown: 4, total: 5 });
    expect(limitGroups(groups, null).shown).toBe(5);
  });
});

describe("the paper's reported rows", () => {
  const paper = reportedMainRows();
  it("are off by default, filtered like the rest, in the paper's order whatever the sort", () => {
    expect(selectReportedRows(paper, q()).rows).toEqual([]);
    const shown = selectReportedRows(paper, q({ paper: "1", sort: "per_bug.asc" })).rows.flatMap((g) => g.rows);
    expect(shown).toHaveLength(63);
    expect(shown.slice(0, 3).map((r) => `${r.model} ${r.config} ${r.mode}`)).toEqual(["GPT-5.5 Baseline oracle", "GPT-5.5 Baseline seq", "GPT-5.5 Baseline seq_mem"]);
    const seqSub = selectReportedRows(paper, q({ paper: "1", mode: "seq", config: "Sub-Agent" })).rows.flatMap((g) => g.rows);
    expect(seqSub).toHaveLength(7);
  });

  it("are hidden, with the reason, by filters they have no facts for", () => {
    const r = selectReportedRows(paper, q({ paper: "1", open_weights: "1" }));
    expect(r.rows).toEqual([]);
    expect(r.hiddenBecause).toMatch(/no open-weights/);
  });
});
