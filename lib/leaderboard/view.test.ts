/** The leaderboard page's view: printed rows, the page's rows and the paper's, empty states. */
import { describe, expect, it } from "vitest";
import { reportedMainRows } from "@/lib/reference/paper";
import { leaderboardRow as row, leaderboardView as q } from "@/lib/testing/leaderboard-row";
import { PAGE_ROWS, displayRow, emptyReason, leaderboardPageView } from "@/lib/leaderboard/view";
import type { LeaderboardRow } from "@/lib/leaderboard/data";

describe("printed rows", () => {
  it("prints numbers as the paper does, with the change against Oracle beside them", () => {
    const d = displayRow(row({ name: "a", mode: "seq", perBug: 49, cost: 5.6, vs: -0.29 }));
    expect(d.perBug).toEqual({ value: "49.0", ci: "[44.9, 53.1]", vsOracle: "−29%", spread: null });
    expect(d.cost).toBe("$5.60");
    expect(d.peakContext).toBe("48.2k");
    expect(d.href).toBe(`/submissions/${d.id}`);
    expect(d.date).toBe("2025-03-01");
    expect(d.badges.map((b) => b.label)).toEqual(["reviewed"]);
    expect(displayRow(row({ name: "a" })).perBug.vsOracle).toBeNull();
    // a Seq row exactly as good as its Oracle row: no change, not a loss
    expect(displayRow(row({ name: "a", mode: "seq", vs: 0 })).perBug.vsOracle).toBe("±0%");
    // a single run: no pass^k, no spread
    expect([d.runs, d.passK, d.chain.spread]).toEqual([null, null, null]);
  });

  it("a row of repeated runs prints its spread and pass^k; verified and rule-breach badges say why", () => {
    const base = row({ name: "r", mode: "seq", chain: 60 });
    const runs = { k: 3, submissionIds: ["a", "b", "c"], perBug: { min: 62.5, max: 87.5 }, chain: { min: 40, max: 80 }, passK: { value: 40, ci: [0, 80] as [number, number] }, perPosition: [], byRun: [] };
    const d = displayRow({ ...base, runs, verified: true, breaches: [{ run: 2, field: "visible.hints", rule: "no_hints", action: "flag", message: "the agent saw hints" }] });
    expect(d.runs).toBe(3);
    expect(d.chain.spread).toBe("runs 40.0–80.0");
    expect(d.perBug.spread).toBe("runs 62.5–87.5");
    expect(d.passK).toEqual({ value: "40.0", ci: "[0.0, 80.0]", vsOracle: null });
    expect(d.badges.map((b) => b.label)).toEqual(["reviewed", "verified", "rule breach"]);
    expect(d.badges.at(-1)!.title).toBe("run 2: visible.hints: the agent saw hints");
    // cost per solved chain: $1 per chain at 60% solved
    expect(d.costPerSolved).toBe("$1.67");
  });

  it("shortcut flags: one badge counting the flagged bugs once each (not bug × kind), its title naming each run and kind", () => {
    // two bugs flagged for two kinds each: 2 bugs, not 4
    const flags = [{ run: 1, kind: "future_history" as const, bugs: 2 }, { run: 1, kind: "test_lists" as const, bugs: 2 }];
    const d = displayRow({ ...row({ name: "s", mode: "seq" }), shortcuts: flags, shortcutBugs: 2 });
    expect(d.badges.map((b) => [b.key, b.label])).toEqual([["reviewed", "reviewed"], ["shortcuts", "shortcut flags: 2 bugs"]]);
    expect(d.badges[1]!.title).toBe("The shortcut scan flagged the trajectories of 2 bugs (a bug flagged for two kinds counts once):\nrun 1: reads future history, 2 bugs\nrun 1: reads the test lists, 2 bugs");
    const one = displayRow({ ...row({ name: "s", mode: "seq" }), shortcuts: [{ run: 1, kind: "network", bugs: 1 }], shortcutBugs: 1, testEdits: { bugs: 1, flagged: true } });
    expect(one.badges.map((b) => b.label)).toEqual(["reviewed", "edits tests: 1 bug", "shortcut flags: 1 bug"]);
  });

  it("ranks by per-bug % among the rows the filters keep, equal scores sharing a place, whatever the sort", () => {
    const rows = [row({ name: "a", perBug: 100 }), row({ name: "b", perBug: 50 }), row({ name: "c", perBug: 100 }), row({ name: "d", perBug: 10 })];
    const board = { version: "v1", versions: ["v1"], rows };
    const v = leaderboardPageView(board, new Map(rows.map((r) => [r.submissionId, r])), q({ sort: "cost.asc" }), []);
    const ranks = Object.fromEntries(v.groups.flatMap((g) => g.rows).map((r) => [r.model, r.rank?.text]));
    expect(ranks).toEqual({ "a-model": "=1", "c-model": "=1", "b-model": "3", "d-model": "4" });
    expect(v.groups[0]!.rows.find((r) => r.model === "a-model")!.rank!.title).toMatch(/^Tied for place 1/);
  });
});

describe("the page's view", () => {
  const board = { version: "v1", versions: ["v1"], rows: [row({ name: "a" }), row({ name: "b", mode: "seq", vs: -0.1 })] };
  const all = (b: { rows: LeaderboardRow[] }) => new Map(b.rows.map((r) => [r.submissionId, r]));

  it("pins the version, and keeps reported rows out of the evaluated table", () => {
    const v = leaderboardPageView(board, all(board), q({ paper: "1" }), reportedMainRows());
    expect(v.query.version).toBe("v1");
    expect(v.groups.flatMap((g) => g.rows)).toHaveLength(2);
    expect(v.reported.flatMap((g) => g.rows)).toHaveLength(63);
    expect(v.reported.flatMap((g) => g.rows).every((r) => r.href === null && r.perBug.ci === null)).toBe(true);
    expect(v.options.models).toContain("GPT-5.5");
    expect(v.empty).toBeNull();
  });

  it("shows the first PAGE_ROWS rows unless asked for all", () => {
    const many = { ...board, rows: Array.from({ length: PAGE_ROWS + 5 }, (_, i) => row({ name: `s${i}` })) };
    expect(leaderboardPageView(many, all(many), q(), [])).toMatchObject({ shown: PAGE_ROWS, total: PAGE_ROWS + 5 });
    expect(leaderboardPageView(many, all(many), q({ all: "1" }), [])).toMatchObject({ shown: PAGE_ROWS + 5 });
    // a shown row must come complete (with its intervals)
    expect(() => leaderboardPageView(many, new Map(), q(), [])).toThrow(/not completed/);
  });

  it("says why a table is empty", () => {
    expect(emptyReason({ version: null, versions: [], rows: [] }, 0, q())).toMatch(/No dataset/);
    expect(emptyReason({ version: "v9", versions: ["v1"], rows: [] }, 0, q())).toMatch(/no dataset version v9/);
    expect(emptyReason({ version: "v1", versions: ["v1"], rows: [] }, 0, q())).toMatch(/No public evaluated submission on dataset v1 yet/);
    expect(leaderboardPageView(board, all(board), q({ mode: "seq_mem", config: "Summarize" }), []).empty).toBe(
      "No row matches these filters (mode Seq+Mem; configuration Summarize): 2 public row(s) on dataset v1 are filtered out.",
    );
  });
});
