import { describe, expect, it } from "vitest";
import { heldOutScore } from "./held-out";

describe("heldOutScore (SPEC §8)", () => {
  it("a row that solves every public chain and no held-out chain: every draw alike, the gap flagged", () => {
    const s = heldOutScore([1, 1, 1, 1], [0, 0, 0]);
    expect(s).toEqual({ chains: 3, chain: { value: 0, ci: [0, 0] }, gap: { value: 100, ci: [100, 100] }, flagged: true });
  });

  /*
   * Worked by hand. Public [1, 1, 1, 0]: a resample of 4 draws k solved chains
   * with k ~ Binomial(4, 3/4), so its chain % is 0 with p = 1/256 ≈ 0.4%,
   * at most 25 with p = 13/256 ≈ 5.1%, and 100 with p = 81/256 ≈ 31.6%.
   * Held-out [0, 0]: always 0. So the gap's 2.5th percentile is 25 (0 holds
   * too little mass, ≤ 25 more than 2.5%) and its 97.5th is 100: the interval
   * [25, 100] excludes 0, flagged. The point gap is 75 − 0.
   */
  it("a gap whose interval excludes 0 (worked by hand)", () => {
    const s = heldOutScore([1, 1, 1, 0], [0, 0]);
    expect(s.gap).toEqual({ value: 75, ci: [25, 100] });
    expect(s.chain).toEqual({ value: 0, ci: [0, 0] });
    expect(s.flagged).toBe(true);
  });

  /*
   * Public [1, 0]: a resample's chain % is 0, 50 or 100 with p = 1/4, 1/2, 1/4.
   * Held-out [1, 1]: always 100. The gap is −100, −50 or 0, both ends with a
   * quarter of the draws: its interval is [−100, 0], which holds 0, so not
   * flagged, although the point gap is −50.
   */
  it("a gap whose interval holds 0 is not flagged (worked by hand)", () => {
    const s = heldOutScore([1, 0], [1, 1]);
    expect(s.gap).toEqual({ value: -50, ci: [-100, 0] });
    expect(s.flagged).toBe(false);
  });

  it("a row of several runs counts each chain by the share of its runs that solved it", () => {
    const s = heldOutScore([1, 0.5], [0.5, 0.5, 0.5]);
    expect(s.chain).toEqual({ value: 50, ci: [50, 50] });
    expect(s.gap.value).toBe(25);
  });

  it("is the same for the same input (seeded), and refuses an empty side", () => {
    expect(heldOutScore([1, 0, 1, 0, 1], [0, 1, 0])).toEqual(heldOutScore([1, 0, 1, 0, 1], [0, 1, 0]));
    expect(() => heldOutScore([], [1])).toThrow(RangeError);
    expect(() => heldOutScore([1], [])).toThrow(RangeError);
  });
});
