/**
 * Rank tiers (SPEC §4) are computed by the aggregate refresh, stored per
 * version and read with the board: each mode's rows ranked on their own, the
 * sign test against the row above as worked by hand, and no tiers for a mode
 * whose rows changed since (until the next refresh), nor under a window.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { completedSubmission, openTestDb } from "@/lib/testing/test-db";

let t: Awaited<ReturnType<typeof openTestDb>>;
let agg: typeof import("@/lib/leaderboard/aggregates");
let lb: typeof import("@/lib/leaderboard/data");

beforeAll(async () => {
  t = await openTestDb();
  agg = await import("@/lib/leaderboard/aggregates");
  lb = await import("@/lib/leaderboard/data");
});
afterAll(async () => t?.close());

const completed = (system: string, mode: "oracle" | "seq", unresolved: Record<string, number[]> = {}, visibility = "public") =>
  completedSubmission(t, { system: { name: system, team: "tiers" }, mode, unresolved, visibility });

describe("rank tiers on the leaderboard", () => {
  it("are stored by the refresh, per mode, with the sign test against the row above", async () => {
    const top = await completed("tier-top", "seq");
    // two chains worse than tier-top: 2 discordant chains of 5, p = 2·¼ = 0.5
    const low = await completed("tier-low", "seq", { "inikit-chain-1": [1], "semverkit-chain-1": [2] });
    const oracle = await completed("tier-top", "oracle", { "inikit-chain-1": [1] });
    await completed("tier-private", "seq", {}, "private");
    for (const id of [top, low]) await agg.refreshAggregates(id, { ranking: false });
    await agg.refreshAggregates(oracle);

    const board = await lb.getLeaderboard({ version: "v1" });
    const tier = (id: string) => board.rows.find((r) => r.submissionId === id)!.tier;
    expect(tier(top)).toMatchObject({ tier: 1, p_vs_above: null, p_vs_above_holm: null, tier_leader: top, p_vs_tier_leader: null, rank_stability: 1 });
    // two Seq rows: one comparison, against the leader (the row above), the correction changes nothing
    expect(tier(low)).toMatchObject({ tier_leader: top });
    expect(tier(low)!.p_vs_tier_leader).toBeCloseTo(0.5, 12);
    expect(tier(low)!.p_vs_tier_leader_adjusted).toBeCloseTo(0.5, 12);
    expect(tier(low)!.tier).toBe(1);
    expect(tier(low)!.p_vs_above).toBeCloseTo(0.5, 12);
    // one comparison among the Seq rows: Holm changes nothing
    expect(tier(low)!.p_vs_above_holm).toBeCloseTo(0.5, 12);
    expect(tier(low)!.rank_stability).toBeGreaterThan(0);
    expect(tier(low)!.rank_stability).toBeLessThan(1);
    // the Oracle row is ranked alone
    expect(tier(oracle)).toMatchObject({ tier: 1, p_vs_above: null });

    const stored = await t.db.versionRanking.findFirstOrThrow({ where: { datasetVersion: { version: "v1" } } });
    const strict = JSON.parse(stored.tiers).strict as { submission_id: string; mode: string }[];
    expect(strict.filter((r) => r.mode === "seq").map((r) => r.submission_id)).toEqual([top, low]);
    expect(strict.filter((r) => r.mode === "oracle").map((r) => r.submission_id)).toEqual([oracle]);
  });

  it("are dropped for a mode whose rows changed since, and come back with the next refresh", async () => {
    const added = await completed("tier-new", "seq", { "inikit-chain-1": [1, 2, 3] });
    await agg.refreshAggregates(added, { ranking: false });
    const stale = await lb.getLeaderboard({ version: "v1" });
    expect(stale.rows.filter((r) => r.mode === "seq").map((r) => r.tier)).toEqual([null, null, null]);
    expect(stale.rows.find((r) => r.mode === "oracle")!.tier).not.toBeNull();

    await agg.refreshAllAggregates();
    const fresh = await lb.getLeaderboard({ version: "v1" });
    expect(fresh.rows.filter((r) => r.mode === "seq").every((r) => r.tier !== null)).toBe(true);
    expect(fresh.rows.find((r) => r.submissionId === added)!.tier!.p_vs_above).toBeCloseTo(1, 12);
  });

  it("are not shown under a bug-date window or without test edits, which rank other chains", async () => {
    const windowed = await lb.getLeaderboard({ version: "v1", window: { from: "2000-01-01", until: "2000-01-02" } });
    expect(windowed.rows.every((r) => r.tier === null)).toBe(true);
    const withoutEdits = await lb.getLeaderboard({ version: "v1", test_edits: "without" });
    expect(withoutEdits.rows.every((r) => r.tier === null)).toBe(true);
  });
});
