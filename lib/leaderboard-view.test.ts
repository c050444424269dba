/** The leaderboard's view logic: URL state both ways, filters, sorting, grouping, printed rows, reported rows, empty states. */
import { describe, expect, it } from "vitest";
import type { LeaderboardRow } from "@/lib/data/leaderboard";
import { reportedMainRows } from "@/lib/reference/paper";
import type { Mode } from "@/lib/schemas/prediction";
import {
  PAGE_ROWS,
  displayRow,
  emptyReason,
  filterRows,
  groupRows,
  leaderboardApiQuerySchema,
  leaderboardHref,
  leaderboardPageView,
  limitGroups,
  parseLeaderboardQuery,
  selectReportedRows,
  sortRows,
  type LeaderboardView,
} from "./leaderboard-view";

const q = (params: Record<string, string> = {}): LeaderboardView => parseLeaderboardQuery(params).query;

let n = 0;
function row(over: {
  name: string;
  model?: string;
  config?: string;
  mode?: Mode;
  perBug?: number;
  chain?: number;
  cost?: number | null;
  vs?: number | null;
  day?: string | null;
  openWeights?: boolean;
}): LeaderboardRow {
  const perBug = over.perBug ?? 50;
  return {
    submissionId: `s${++n}`,
    system: {
      id: over.name,
      name: over.name,
      model: over.model ?? `${over.name}-model`,
      scaffold: "scaffold",
      contextConfig: over.config ?? "Baseline",
      openWeights: over.openWeights ?? false,
      openScaffold: false,
      links: [],
    },
    team: { name: "Team", slug: "team" },
    mode: over.mode ?? "oracle",
    perBug: { value: perBug, ci: [perBug - 4.1, perBug + 4.1] },
    chain: { value: over.chain ?? 20, ci: [15, 25] },
    perPosition: [],
    costPerChain: over.cost === undefined ? 1 : over.cost,
    peakContext: 48_200,
    vsOracle: { perBug: over.vs ?? null, chain: null },
    counts: { chains: 5, bugs: 16, resolved: 8, chainsResolved: 1 },
    finishedAt: over.day === null ? null : new Date(`${over.day ?? "2025-03-01"}T12:00:00Z`),
    reviewed: true,
  };
}

describe("URL state", () => {
  it("parses defaults, and serializes a view to a canonical URL without them", () => {
    const d = q();
    expect(d).toMatchObject({ scoring: "strict", sort: "per_bug.desc", group: "none", paper: false, all: false });
    expect(leaderboardHref(d)).toBe("/");
    const v = q({ mode: "seq", config: "Sub-Agent", open_weights: "1", from: "2025-01-01", sort: "cost.asc", paper: "1", scoring: "lenient", version: "v1" });
    const href = leaderboardHref(v);
    expect(href).toBe("/?version=v1&scoring=lenient&mode=seq&config=Sub-Agent&open_weights=1&from=2025-01-01&sort=cost.asc&paper=1");
    // round trip: the URL reproduces the view
    expect(q(Object.fromEntries(new URL(href, "http://x").searchParams))).toEqual(v);
    expect(leaderboardHref(v, { sort: "date.desc", format: "csv" }, "/api/v1/leaderboard")).toContain("/api/v1/leaderboard?version=v1&");
    expect(leaderboardHref(v, { format: "csv" }, "/api")).toMatch(/&format=csv$/);
  });

  it("treats a form's empty values as absent, and open flags as three-way", () => {
    expect(q({ mode: "", config: "", open_weights: "", from: "" })).toEqual(q());
    expect(q({ open_weights: "0" }).open_weights).toBe(false);
    expect(leaderboardHref(q({ open_weights: "0" }))).toBe("/?open_weights=0");
    expect(q({ group: "config", paper: "on" })).toMatchObject({ group: "config", paper: true });
  });

  it("reports a bad value by field and keeps the rest", () => {
    const { query, problems } = parseLeaderboardQuery(new URLSearchParams("mode=turbo&sort=height.up&from=2025-13-01&config=Summarize"));
    expect(problems.map((p) => p.field).sort()).toEqual(["from", "mode", "sort"]);
    expect(problems.find((p) => p.field === "sort")?.message).toMatch(/per_bug/);
    expect(query).toMatchObject({ config: "Summarize", sort: "per_bug.desc" });
    expect(query.mode).toBeUndefined();
    expect(parseLeaderboardQuery({ format: "xml" }, leaderboardApiQuerySchema).problems[0]?.field).toBe("format");
    expect(parseLeaderboardQuery({ format: "csv" }, leaderboardApiQuerySchema).query.format).toBe("csv");
  });
});

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

describe("printed rows", () => {
  it("prints numbers as the paper does, with the change against Oracle beside them", () => {
    const d = displayRow(row({ name: "a", mode: "seq", perBug: 49, cost: 5.6, vs: -0.29 }));
    expect(d.perBug).toEqual({ value: "49.0", ci: "[44.9, 53.1]", vsOracle: "−29%" });
    expect(d.cost).toBe("$5.60");
    expect(d.peakContext).toBe("48.2k");
    expect(d.href).toBe(`/submissions/${d.id}`);
    expect(d.date).toBe("2025-03-01");
    expect(d.badges.map((b) => b.label)).toEqual(["reviewed"]);
    expect(displayRow(row({ name: "a" })).perBug.vsOracle).toBeNull();
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

describe("the page's view", () => {
  const board = { version: "v1", versions: ["v1"], rows: [row({ name: "a" }), row({ name: "b", mode: "seq", vs: -0.1 })] };

  it("pins the version, and keeps reported rows out of the evaluated table", () => {
    const v = leaderboardPageView(board, q({ paper: "1" }), reportedMainRows());
    expect(v.query.version).toBe("v1");
    expect(v.groups.flatMap((g) => g.rows)).toHaveLength(2);
    expect(v.reported.flatMap((g) => g.rows)).toHaveLength(63);
    expect(v.reported.flatMap((g) => g.rows).every((r) => r.href === null && r.perBug.ci === null)).toBe(true);
    expect(v.options.models).toContain("GPT-5.5");
    expect(v.empty).toBeNull();
  });

  it("shows the first PAGE_ROWS rows unless asked for all", () => {
    const many = { ...board, rows: Array.from({ length: PAGE_ROWS + 5 }, (_, i) => row({ name: `s${i}` })) };
    expect(leaderboardPageView(many, q(), [])).toMatchObject({ shown: PAGE_ROWS, total: PAGE_ROWS + 5 });
    expect(leaderboardPageView(many, q({ all: "1" }), [])).toMatchObject({ shown: PAGE_ROWS + 5 });
  });

  it("says why a table is empty", () => {
    expect(emptyReason({ version: null, versions: [], rows: [] }, 0, q())).toMatch(/No dataset/);
    expect(emptyReason({ version: "v9", versions: ["v1"], rows: [] }, 0, q())).toMatch(/no dataset version v9/);
    expect(emptyReason({ version: "v1", versions: ["v1"], rows: [] }, 0, q())).toMatch(/No public evaluated submission on dataset v1 yet/);
    expect(leaderboardPageView(board, q({ mode: "seq_mem", config: "Summarize" }), []).empty).toBe(
      "No row matches these filters (mode Seq+Mem; configuration Summarize): 2 public row(s) on dataset v1 are filtered out.",
    );
  });
});
