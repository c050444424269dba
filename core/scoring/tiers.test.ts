import { describe, expect, it } from "vitest";
import { rankTiers } from "./tiers";
import { resampleMatrix } from "./bootstrap";

/** A row of single-bug chains: `ones` chains resolved (and solved) first, the rest not. */
const row = (id: string, ones: number, chains: number) => {
  const v = Array.from({ length: chains }, (_, i) => (i < ones ? 1 : 0));
  return { id, resolved: v, solved: v };
};

describe("rankTiers", () => {
  it("a hand-worked ranking: A far ahead of B, B level with C within chance", () => {
    // A vs B: 10 chains for A, none for B → p = 2/2^10; B vs C: one chain → p = 1.
    // against the leader A, Holm over two: 2·2/1024 < 0.05 starts tier 2 at B, its leader; C vs B (×1) stays in it.
    const tiers = rankTiers([row("C", 1, 12), row("A", 12, 12), row("B", 2, 12)], { draws: 200 });
    expect(tiers.map((t) => [t.id, t.rank, t.tier])).toEqual([
      ["A", 1, 1],
      ["B", 2, 2],
      ["C", 3, 2],
    ]);
    expect(tiers[0]!.p_vs_above).toBeNull();
    expect(tiers[1]!.p_vs_above).toBeCloseTo(2 / 1024, 15);
    expect(tiers[1]!.p_vs_above_holm).toBeCloseTo(4 / 1024, 15);
    expect(tiers[2]!.p_vs_above).toBe(1);
    expect(tiers.map((t) => t.tier_leader)).toEqual(["A", "B", "B"]);
    expect(tiers[2]!.p_vs_tier_leader).toBe(1);
  });

  it("a separation that survives alone but not the correction keeps one tier", () => {
    // 6 of 6 discordant chains: p = 2/64 = 0.03125 < 0.05, but ×2 = 0.0625 with a second comparison
    const tiers = rankTiers([row("A", 6, 6), row("B", 0, 6), row("C", 0, 6)], { draws: 50 });
    expect(tiers[1]!.p_vs_above).toBeCloseTo(0.03125, 15);
    expect(tiers[1]!.p_vs_above_holm).toBeCloseTo(0.0625, 15);
    expect(tiers.map((t) => t.tier)).toEqual([1, 1, 1]);
    // B and C are level on every chain: the same rank
    expect(tiers.map((t) => t.rank)).toEqual([1, 2, 2]);
  });

  it("a tier cannot drift: A ≈ B and B ≈ C, but C is tested against A, its tier's leader", () => {
    // A 12 of 12, B 6, C 0. A vs B: 6 discordant, p = 2/64, Holm ×2 (none opened yet) = 0.0625: one tier.
    // B vs C alike; but A vs C: 12 discordant, p = 2/4096, ×2 = 1/1024 < 0.05: C leads tier 2.
    const tiers = rankTiers([row("A", 12, 12), row("B", 6, 12), row("C", 0, 12)], { draws: 20 });
    expect(tiers.map((t) => [t.id, t.tier, t.tier_leader])).toEqual([
      ["A", 1, "A"],
      ["B", 1, "A"],
      ["C", 2, "C"],
    ]);
    expect(tiers[0]).toMatchObject({ p_vs_tier_leader: null, p_vs_tier_leader_adjusted: null });
    expect(tiers[1]!.p_vs_tier_leader).toBeCloseTo(2 / 64, 15);
    expect(tiers[1]!.p_vs_tier_leader_adjusted).toBeCloseTo(4 / 64, 15);
    expect(tiers[2]!.p_vs_tier_leader).toBeCloseTo(2 / 4096, 15);
    expect(tiers[2]!.p_vs_tier_leader_adjusted).toBeCloseTo(4 / 4096, 15);
    // the adjacent tests alone (Holm over both) would have kept all three in one tier
    expect(tiers[2]!.p_vs_above).toBeCloseTo(2 / 64, 15);
    expect(tiers[2]!.p_vs_above_holm).toBeCloseTo(4 / 64, 15);
  });

  it("Holm, not Bonferroni: once a tier opens, the next comparison is corrected over one fewer", () => {
    // A 18 of 18, B 6, C 0. B vs A: 12 discordant, p = 2/4096, ×2 < 0.05: B leads tier 2 (one opened).
    // C vs B: 6 discordant, p = 2/64 = 0.03125, ×(2 − 1) < 0.05: C leads tier 3 (Bonferroni's ×2 = 0.0625 would not).
    const tiers = rankTiers([row("C", 0, 18), row("A", 18, 18), row("B", 6, 18)], { draws: 20 });
    expect(tiers.map((t) => [t.id, t.tier, t.tier_leader])).toEqual([
      ["A", 1, "A"],
      ["B", 2, "B"],
      ["C", 3, "C"],
    ]);
    expect(tiers[1]!.p_vs_tier_leader_adjusted).toBeCloseTo(4 / 4096, 15);
    expect(tiers[2]!.p_vs_tier_leader).toBeCloseTo(2 / 64, 15);
    expect(tiers[2]!.p_vs_tier_leader_adjusted).toBeCloseTo(2 / 64, 15);
  });

  it("ranks by resolved bugs, then solved chains", () => {
    const a = { id: "a", resolved: [2, 0], solved: [0, 0] };
    const b = { id: "b", resolved: [1, 1], solved: [0, 1] };
    const c = { id: "c", resolved: [1, 1], solved: [1, 0] };
    expect(rankTiers([a, b, c], { draws: 10 }).map((t) => [t.id, t.rank])).toEqual([
      ["b", 1],
      ["c", 1],
      ["a", 3],
    ]);
  });

  it("rank stability counts the resamples that keep the rank, checked against the draws themselves", () => {
    // X solves chain 0, Y chain 1: level on all chains (both rank 1); a resample of
    // chains {1, 1} puts Y ahead, {0, 0} puts X ahead, a mixed one keeps them level.
    const draws = 400;
    const tiers = rankTiers([{ id: "X", resolved: [1, 0], solved: [1, 0] }, { id: "Y", resolved: [0, 1], solved: [0, 1] }], { seed: 7, draws });
    const m = resampleMatrix(2, { seed: 7, draws });
    let both0 = 0;
    let both1 = 0;
    for (let d = 0; d < draws; d++) {
      if (m[2 * d] === 0 && m[2 * d + 1] === 0) both0++;
      if (m[2 * d] === 1 && m[2 * d + 1] === 1) both1++;
    }
    const byId = new Map(tiers.map((t) => [t.id, t]));
    expect(byId.get("X")!.rank_stability).toBe((draws - both1) / draws);
    expect(byId.get("Y")!.rank_stability).toBe((draws - both0) / draws);
    // roughly ¾ each, as the four equally likely resamples say
    expect(byId.get("X")!.rank_stability).toBeGreaterThan(0.6);
    expect(byId.get("X")!.rank_stability).toBeLessThan(0.9);
  });

  it("is deterministic for a seed, and a far-ahead row always keeps its rank", () => {
    const rows = [row("A", 30, 30), row("B", 3, 30), row("C", 2, 30)];
    expect(rankTiers(rows, { seed: 3, draws: 300 })).toEqual(rankTiers(rows, { seed: 3, draws: 300 }));
    expect(rankTiers(rows, { draws: 300 })[0]!.rank_stability).toBe(1);
  });

  it("means over repeated runs are level when equal up to rounding", () => {
    const a = { id: "a", resolved: [0.1, 0.2], solved: [0, 0] };
    const b = { id: "b", resolved: [0.2, 0.1], solved: [0, 0] };
    expect(rankTiers([a, b], { draws: 5 }).map((t) => t.rank)).toEqual([1, 1]);
  });

  it("refuses rows of different chain counts, naming the row", () => {
    expect(() => rankTiers([row("a", 1, 3), row("b", 1, 4)])).toThrow(/row b has 4 chains/);
  });

  it("an empty ranking has no tiers", () => {
    expect(rankTiers([])).toEqual([]);
  });
});
