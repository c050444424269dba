import { describe, expect, it } from "vitest";
import { discriminationFlags, discriminationSummary, discriminationView } from "@/lib/dataset/discrimination";
import type { ModeDiscrimination } from "@/lib/leaderboard/discrimination";

const item = { solve_rate: 0.5, point_biserial: 0.4, difficulty: 0, solved_by_all: false, solved_by_none: false, separates_top: true };
const fit = { rows: 0, items: 0, iterations: 3, converged: true, max_gradient: 0, log_posterior: 0 };
const figures = (mode: ModeDiscrimination["mode"], rows: number): ModeDiscrimination => ({
  mode,
  rows,
  top_n: 10,
  chains: [
    { ...item, continuous_id: "a" },
    { ...item, continuous_id: "b", separates_top: false },
  ],
  bugs: [
    { ...item, continuous_id: "a", order: 1 },
    { ...item, continuous_id: "b", order: 1 },
  ],
  fit: { bugs: fit, chains: fit },
});
const stored = { figures: { strict: [figures("oracle", 4), figures("seq", 12)], lenient: [] }, computedAt: new Date("2026-12-06T00:00:00Z") };

describe("discriminationView", () => {
  it("shows the mode with the most rows unless one is asked for, held-out chains and their bugs left out", () => {
    const v = discriminationView("v1", stored, new Set(["a"]), { scoring: "strict" })!;
    expect(v).toMatchObject({ mode: "seq", modes: ["oracle", "seq"], rows: 12, discriminating: 0 });
    expect(v.chains.map((c) => c.continuous_id)).toEqual(["b"]);
    expect(v.bugs.map((b) => b.continuous_id)).toEqual(["b"]);
    expect(discriminationView("v1", stored, new Set(), { scoring: "strict", mode: "oracle" })!.rows).toBe(4);
    expect(discriminationView("v1", stored, new Set(), { scoring: "strict", mode: "seq_mem" })).toBeNull();
    expect(discriminationView("v1", stored, new Set(), { scoring: "lenient" })).toBeNull();
    expect(discriminationView("v1", null, new Set(), { scoring: "strict" })).toBeNull();
  });

  it("says how many chains discriminate among the top ten rows, or among all when fewer", () => {
    expect(discriminationSummary({ discriminating: 1, chains: [item, item], rows: 12, top_n: 10 })).toBe("1 of 2 chains still discriminate among the top ten rows");
    expect(discriminationSummary({ discriminating: 1, chains: [item, item], rows: 10, top_n: 10 })).toBe("1 of 2 chains still discriminate among the top ten rows");
    expect(discriminationSummary({ discriminating: 2, chains: [item, item], rows: 8, top_n: 10 })).toBe("2 of 2 chains still discriminate among all eight rows (fewer than ten)");
    expect(discriminationSummary({ discriminating: 0, chains: [item], rows: 1, top_n: 10 })).toBe("0 of 1 chains still discriminate among all one row (fewer than ten)");
  });

  it("names an item's flags", () => {
    expect(discriminationFlags({ solved_by_all: true, solved_by_none: false, separates_top: false }, 10)).toEqual(["solved by all", "does not separate the top 10"]);
    expect(discriminationFlags(item, 10)).toEqual([]);
  });
});
