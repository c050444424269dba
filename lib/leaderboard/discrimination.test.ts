/**
 * Chains that still discriminate (SPEC §4) are computed by the ranking
 * refresh over the board's rows in its order, stored per version, scoring and
 * mode, and read less the chains the viewer may not see.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { completedSubmission, openTestDb } from "@/lib/testing/test-db";

let t: Awaited<ReturnType<typeof openTestDb>>;
let agg: typeof import("@/lib/leaderboard/aggregates");
let view: typeof import("@/lib/dataset/discrimination");

beforeAll(async () => {
  t = await openTestDb();
  agg = await import("@/lib/leaderboard/aggregates");
  view = await import("@/lib/dataset/discrimination");
});
afterAll(async () => t?.close());

const completed = (system: string, mode: "oracle" | "seq", unresolved: Record<string, number[]> = {}) =>
  completedSubmission(t, { system: { name: system, team: "disc" }, mode, unresolved });

describe("discrimination figures", () => {
  it("are stored by the refresh and read per scoring and mode, held-out chains left out", async () => {
    await completed("disc-top", "seq");
    await completed("disc-mid", "seq", { "inikit-chain-1": [3] });
    await completed("disc-low", "seq", { "inikit-chain-1": [1], "semverkit-chain-1": [2] });
    await completed("disc-oracle", "oracle", { "moneyx-chain-1": [2] });
    await agg.refreshAllAggregates();

    const strict = await view.getDiscriminationView("v1", new Set(), { scoring: "strict" });
    // Seq has the most rows
    expect(strict).toMatchObject({ version: "v1", scoring: "strict", mode: "seq", modes: ["oracle", "seq"], rows: 3, top_n: 10 });
    const chain = (id: string) => strict!.chains.find((c) => c.continuous_id === id)!;
    // inikit: solved by disc-top only; semverkit by top and mid; moneyx by all three
    expect(chain("inikit-chain-1")).toMatchObject({ solve_rate: 1 / 3, solved_by_all: false, solved_by_none: false, separates_top: true });
    expect(chain("semverkit-chain-1").solve_rate).toBeCloseTo(2 / 3, 12);
    expect(chain("moneyx-chain-1")).toMatchObject({ solve_rate: 1, solved_by_all: true, separates_top: false, point_biserial: null });
    expect(chain("inikit-chain-1").difficulty).toBeGreaterThan(chain("semverkit-chain-1").difficulty);
    expect(strict!.discriminating).toBe(2);
    expect(view.discriminationSummary(strict!)).toBe(`2 of ${strict!.chains.length} chains still discriminate among all three rows (fewer than ten)`);
    expect(strict!.fit.bugs).toMatchObject({ rows: 3, converged: true });

    // inikit bug 3: disc-mid failed it; disc-low resolved it after failing bug 1, which counts under lenient scoring only
    const bug = (v: typeof strict, order: number) => v!.bugs.find((b) => b.continuous_id === "inikit-chain-1" && b.order === order)!;
    const lenient = await view.getDiscriminationView("v1", new Set(), { scoring: "lenient", mode: "seq" });
    expect(bug(strict, 3).solve_rate).toBeCloseTo(1 / 3, 12);
    expect(bug(lenient, 3).solve_rate).toBeCloseTo(2 / 3, 12);
    expect(bug(strict, 1).solve_rate).toBeCloseTo(2 / 3, 12);
    expect(bug(strict, 1).point_biserial).not.toBeNull();

    const oracle = await view.getDiscriminationView("v1", new Set(["inikit-chain-1"]), { scoring: "strict", mode: "oracle" });
    expect(oracle).toMatchObject({ mode: "oracle", rows: 1 });
    expect(oracle!.chains.map((c) => c.continuous_id)).not.toContain("inikit-chain-1");
    expect(oracle!.bugs.some((b) => b.continuous_id === "inikit-chain-1")).toBe(false);
    expect(await view.getDiscriminationView("v1", new Set(), { scoring: "strict", mode: "seq_mem" })).toBeNull();

    const one = await view.chainDiscriminationViews("v1", "semverkit-chain-1", new Set());
    expect(one.map((d) => [d.mode, d.chains.map((c) => c.continuous_id), d.bugs.map((b) => b.order)])).toEqual([
      ["oracle", ["semverkit-chain-1"], [1, 2, 3]],
      ["seq", ["semverkit-chain-1"], [1, 2, 3]],
    ]);
    expect(await view.chainDiscriminationViews("v1", "semverkit-chain-1", new Set(["semverkit-chain-1"]))).toEqual([]);
  });
});
