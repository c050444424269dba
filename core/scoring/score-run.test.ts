import { describe, expect, it } from "vitest";
import { runScoresSchema, scoreRun } from "./index";
import { grades, gradedBug, makeRun } from "./test-fixtures";

const CHAINS: [string, number][] = [
  ["c1", 3],
  ["c2", 3],
  ["c3", 2],
];

/**
 * Seq grades (own): c1 = ✓✗✓, c2 = ✓✓✓, c3 = ✗✓ — 8 bugs.
 * Lenient: 6/8 = 75.0%. Strict: c1 ✓✗✗, c2 ✓✓✓, c3 ✗✗ → 4/8 = 50.0%. Chain: c2 only → 1/3.
 * Cost: c1 1.0+2.0+0.5 = 3.5, c2 3 × 1.0 = 3.0, c3 none → mean 3.25.
 * Peak: c1 max 3000, c2 max 800, c3 none → mean 1900.
 */
const seq = makeRun("S", "seq", CHAINS, [
  ...grades("c1", [true, false, true], [
    { cost_usd: 1, peak_context_tokens: 1000 },
    { cost_usd: 2, peak_context_tokens: 3000 },
    { cost_usd: 0.5, peak_context_tokens: 2000 },
  ]),
  ...grades("c2", [true, true, true], [
    { cost_usd: 1, peak_context_tokens: 500 },
    { cost_usd: 1, peak_context_tokens: 500 },
    { cost_usd: 1, peak_context_tokens: 800 },
  ]),
  ...grades("c3", [false, true]),
]);

const FAST = { draws: 400 };

describe("scoreRun", () => {
  it("scores strict by default: a Seq bug counts only after an unbroken prefix", () => {
    const s = scoreRun(seq, FAST);
    expect(s.scoring).toBe("strict");
    expect(s.per_bug.value).toBe(50);
    expect(s.chain.value).toBeCloseTo(100 / 3, 10);
    expect(s.counts).toEqual({ chains: 3, bugs: 8, graded: 8, resolved: 4, chains_resolved: 1 });
    expect(runScoresSchema.parse(s)).toEqual(s);
  });

  it("scores each bug on its own when lenient", () => {
    const s = scoreRun(seq, { ...FAST, scoring: "lenient" });
    expect(s.per_bug.value).toBe(75);
    expect(s.chain.value).toBeCloseTo(100 / 3, 10);
    expect(s.counts.resolved).toBe(6);
  });

  it("leaves Oracle untouched by strict/lenient", () => {
    const oracle = { ...seq, summary: { ...seq.summary, mode: "oracle" as const } };
    oracle.bugs = seq.bugs.map((b) => ({ ...b, mode: "oracle" as const }));
    expect(scoreRun(oracle, FAST).per_bug.value).toBe(75);
    expect(scoreRun(oracle, { ...FAST, scoring: "lenient" }).per_bug.value).toBe(75);
  });

  it("gives per-position rates over the length-3 chains by default", () => {
    // c1, c2 only. strict: p1 2/2, p2 1/2, p3 1/2; lenient p3 2/2
    const strict = scoreRun(seq, FAST).per_position;
    expect(strict.map((p) => [p.position, p.value, p.n])).toEqual([
      [1, 100, 2],
      [2, 50, 2],
      [3, 50, 2],
    ]);
    const lenient = scoreRun(seq, { ...FAST, scoring: "lenient" }).per_position;
    expect(lenient.map((p) => p.value)).toEqual([100, 50, 100]);
  });

  it("gives per-position rates over all chains on request", () => {
    // strict: p1 ✓✓✗ 2/3, p2 ✗✓✗ 1/3, p3 (c1, c2) ✗✓ 1/2; lenient: p2 ✗✓✓ 2/3, p3 ✓✓ 2/2
    const strict = scoreRun(seq, { ...FAST, positions: "all" }).per_position;
    expect(strict.map((p) => p.n)).toEqual([3, 3, 2]);
    expect(strict[0]?.value).toBeCloseTo(200 / 3, 10);
    expect(strict[1]?.value).toBeCloseTo(100 / 3, 10);
    expect(strict[2]?.value).toBe(50);
    const lenient = scoreRun(seq, { ...FAST, positions: "all", scoring: "lenient" }).per_position;
    expect(lenient[1]?.value).toBeCloseTo(200 / 3, 10);
    expect(lenient[2]?.value).toBe(100);
  });

  it("averages cost and peak context over the chains that report them", () => {
    const s = scoreRun(seq, FAST);
    expect(s.cost_per_chain).toBe(3.25);
    expect(s.peak_context_tokens).toBe(1900);
  });

  it("reports null cost and peak context when no bug carries them", () => {
    const bare = makeRun("S", "seq", CHAINS, grades("c3", [true, true]));
    const s = scoreRun(bare, FAST);
    expect(s.cost_per_chain).toBeNull();
    expect(s.peak_context_tokens).toBeNull();
    expect(s.effort_per_chain).toEqual({ input_tokens: null, output_tokens: null, steps: null, wall_seconds: null });
  });

  it("averages tokens, steps and wall time per chain, each over the chains that report it", () => {
    // c1: input 100+200 (bug 3 none), steps 3+4+5, wall 10; c2: input 50, output 7 per bug, no steps; c3: nothing
    const run = makeRun("S", "seq", CHAINS, [
      ...grades("c1", [true, true, true], [{ input_tokens: 100, turns: 3, wall_seconds: 10 }, { input_tokens: 200, turns: 4 }, { turns: 5 }]),
      ...grades("c2", [true, false, true], [{ input_tokens: 50, output_tokens: 7 }, { output_tokens: 7 }, { output_tokens: 7 }]),
      ...grades("c3", [false, true]),
    ]);
    // input: (300 + 50) / 2 chains; output: 21 / 1; steps: 12 / 1; wall: 10 / 1
    expect(scoreRun(run, FAST).effort_per_chain).toEqual({ input_tokens: 175, output_tokens: 21, steps: 12, wall_seconds: 10 });
  });

  it("counts missing bugs as unresolved against the whole dataset", () => {
    const partial = { ...seq, bugs: seq.bugs.filter((b) => !(b.continuous_id === "c3" && b.order === 2)) };
    const s = scoreRun(partial, { ...FAST, scoring: "lenient" });
    expect(s.per_bug.value).toBe(62.5); // 5/8
    expect(s.counts).toEqual({ chains: 3, bugs: 8, graded: 7, resolved: 5, chains_resolved: 1 });
  });

  it("ignores other modes and unknown chains, and lets a later line win", () => {
    const noisy = {
      ...seq,
      bugs: [
        ...seq.bugs,
        gradedBug("oracle", "S", { continuous_id: "c1", order: 2, resolved: true }),
        gradedBug("seq", "S", { continuous_id: "zz", order: 1, resolved: true }),
        gradedBug("seq", "S", { continuous_id: "c3", order: 1, resolved: true }),
      ],
    };
    const s = scoreRun(noisy, { ...FAST, scoring: "lenient" });
    expect(s.per_bug.value).toBe(87.5); // 7/8: c3#1 now resolved
    expect(s.counts.graded).toBe(8);
  });

  it("refuses a dataset with no chains and a bad bootstrap size", () => {
    expect(() => scoreRun(makeRun("S", "seq", [], []))).toThrow(/no chains/);
    expect(() => scoreRun(seq, { draws: 0 })).toThrow(/draws/);
  });
});

describe("scoreRun bootstrap", () => {
  it("is deterministic for a seed and records it", () => {
    const a = scoreRun(seq, { seed: 7 });
    const b = scoreRun(seq, { seed: 7 });
    expect(a).toEqual(b);
    expect(a.bootstrap).toEqual({ seed: 7, draws: 2000 });
    expect(scoreRun(seq).bootstrap).toEqual({ seed: 0, draws: 2000 });
  });

  it("brackets every point estimate within [0, 100]", () => {
    for (const scoring of ["strict", "lenient"] as const) {
      const s = scoreRun(seq, { scoring, positions: "all" });
      for (const e of [s.per_bug, s.chain, ...s.per_position]) {
        expect(e.ci[0]).toBeLessThanOrEqual(e.value);
        expect(e.ci[1]).toBeGreaterThanOrEqual(e.value);
        expect(e.ci[0]).toBeGreaterThanOrEqual(0);
        expect(e.ci[1]).toBeLessThanOrEqual(100);
      }
    }
  });

  it("has width when chains differ", () => {
    const s = scoreRun(seq, { scoring: "lenient" });
    expect(s.per_bug.ci[1] - s.per_bug.ci[0]).toBeGreaterThan(0);
    expect(s.chain.ci).toEqual([0, 100]); // one chain in three: resamples span none to all
  });

  it("collapses to a point when every chain is identical", () => {
    const same = makeRun(
      "S",
      "seq",
      [
        ["a", 3],
        ["b", 3],
        ["c", 3],
        ["d", 3],
      ],
      ["a", "b", "c", "d"].flatMap((id) => grades(id, [true, false, true])),
    );
    const s = scoreRun(same, { scoring: "lenient", seed: 3 });
    expect(s.per_bug).toEqual({ value: 200 / 3, ci: [200 / 3, 200 / 3] });
    expect(s.chain).toEqual({ value: 0, ci: [0, 0] });
    expect(s.per_position.map((p) => [p.value, p.ci])).toEqual([
      [100, [100, 100]],
      [0, [0, 0]],
      [100, [100, 100]],
    ]);
  });
});
