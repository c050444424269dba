import { describe, expect, it } from "vitest";
import type { GradedBug } from "@/core/schemas/results";
import { makeRun, type BugSpec } from "@/core/scoring/test-fixtures";
import { chainErrorBreakdown, chainErrorBreakdownSchema, chainErrors, chainErrorSchema, type ChainError } from "./index";

const CHAINS: [string, number][] = [
  ["A", 3],
  ["B", 3],
  ["C", 2],
  ["D", 2],
  ["E", 2],
  ["F", 2],
  ["G", 2],
];

const bug = (continuous_id: string, order: number, resolved: boolean, extra: Partial<GradedBug> = {}): BugSpec => ({
  continuous_id,
  order,
  resolved,
  ...extra,
});
const files = (gold: string[], test: string[], model: string[]) => ({ gold_files: gold, test_files: test, model_files: model });

/**
 * A: bug 1 resolved but also edits b.py (stray); bug 2 edits b.py → A#2 overshoot.
 *    A#3 touches only c.py, which nothing before strayed into or skipped → unattributed.
 * B: bug 1 resolved with x.py only, skipping gold y.py (weak: resolved, unshared) and z.py
 *    (strong: bug 2's gold file) → B#2 undershoot. B#3 fails under Oracle too: no chain error.
 * C: bug 1 unresolved, strays into r.py (bug 2's model file) and skips q.py, s.py → C#2 both.
 * D: D#1 is a Seq failure at position 1, D#2 resolved → nothing.  E: E#2 missing from Seq → nothing.
 * F: F#2 fails under Oracle too → not a chain error, but an unresolved downstream Seq bug.
 * G: G#1 missing from Seq (M = ∅, unresolved), gold g.py from the Oracle run → G#2 undershoot, strong.
 */
const seqBugs: BugSpec[] = [
  bug("A", 1, true, files(["a.py"], ["tests/test_a.py"], ["a.py", "b.py"])),
  bug("A", 2, false, { ...files(["b.py"], ["tests/test_b.py"], ["b.py"]), fingerprint: "broke_working_code" }),
  bug("A", 3, false, { ...files(["c.py"], ["tests/test_c.py"], ["c.py"]), fingerprint: "left_unfixed" }),
  bug("B", 1, true, files(["x.py", "y.py", "z.py"], [], ["x.py"])),
  bug("B", 2, false, { ...files(["z.py"], ["tests/test_z.py"], []), patch_applied: false, fingerprint: "no_usable_patch" }),
  bug("B", 3, false, { ...files(["y.py"], ["tests/test_y.py"], ["y.py", "w.py"]), fingerprint: "broke_working_code" }),
  bug("C", 1, false, { ...files(["p.py", "q.py", "s.py"], [], ["p.py", "r.py"]), fingerprint: "left_unfixed" }),
  bug("C", 2, false, { ...files(["q.py"], ["tests/test_q.py"], ["r.py", "q.py"]), fingerprint: "broke_working_code" }),
  bug("D", 1, false, { ...files(["m.py"], [], []), fingerprint: "no_usable_patch" }),
  bug("D", 2, true, files(["n.py"], [], ["n.py"])),
  bug("E", 1, true),
  bug("F", 1, true),
  bug("F", 2, false, { fingerprint: "left_unfixed" }),
  bug("G", 2, false, { ...files(["h.py"], [], ["h.py"]), fingerprint: "left_unfixed" }),
];

const oracleGrades: Record<string, boolean[]> = {
  A: [true, true, true],
  B: [true, true, false],
  C: [true, true],
  D: [true, true],
  E: [true, true],
  F: [true, false],
  G: [true, true],
};
const goldOf = (id: string, order: number): string[] =>
  id === "G" && order === 1 ? ["g.py"] : (seqBugs.find((b) => b.continuous_id === id && b.order === order)?.gold_files ?? []);
const oracleBugs: BugSpec[] = Object.entries(oracleGrades).flatMap(([id, rs]) =>
  rs.map((r, i) => bug(id, i + 1, r, { gold_files: goldOf(id, i + 1) })),
);

const seq = makeRun("S", "seq", CHAINS, seqBugs);
const oracle = makeRun("S", "oracle", CHAINS, oracleBugs);

const EXPECTED: ChainError[] = [
  {
    system: "S",
    continuous_id: "A",
    swebench_instance_id: "A-2",
    order: 2,
    seq_mode: "seq",
    fingerprint: "broke_working_code",
    cause: "overshoot",
    evidence: [{ prior_order: 1, file: "b.py", kind: "overshoot", strong: true }],
  },
  {
    system: "S",
    continuous_id: "A",
    swebench_instance_id: "A-3",
    order: 3,
    seq_mode: "seq",
    fingerprint: "left_unfixed",
    cause: "unattributed",
    evidence: [],
  },
  {
    system: "S",
    continuous_id: "B",
    swebench_instance_id: "B-2",
    order: 2,
    seq_mode: "seq",
    fingerprint: "no_usable_patch",
    cause: "undershoot",
    evidence: [
      { prior_order: 1, file: "y.py", kind: "undershoot", strong: false },
      { prior_order: 1, file: "z.py", kind: "undershoot", strong: true },
    ],
  },
  {
    system: "S",
    continuous_id: "C",
    swebench_instance_id: "C-2",
    order: 2,
    seq_mode: "seq",
    fingerprint: "broke_working_code",
    cause: "both",
    evidence: [
      { prior_order: 1, file: "r.py", kind: "overshoot", strong: true },
      { prior_order: 1, file: "q.py", kind: "undershoot", strong: true },
      { prior_order: 1, file: "s.py", kind: "undershoot", strong: true },
    ],
  },
  {
    system: "S",
    continuous_id: "G",
    swebench_instance_id: "G-2",
    order: 2,
    seq_mode: "seq",
    fingerprint: "left_unfixed",
    cause: "undershoot",
    evidence: [{ prior_order: 1, file: "g.py", kind: "undershoot", strong: true }],
  },
];

describe("chainErrors", () => {
  it("finds Oracle-resolved, Seq-unresolved downstream bugs with their evidence and cause", () => {
    const errors = chainErrors(oracle, seq);
    expect(errors).toEqual(EXPECTED);
    for (const e of errors) expect(chainErrorSchema.parse(e)).toEqual(e);
  });

  it("does not depend on the order of the input lines", () => {
    const shuffled = { ...seq, bugs: [...seq.bugs].reverse() };
    expect(chainErrors({ ...oracle, bugs: [...oracle.bugs].reverse() }, shuffled)).toEqual(EXPECTED);
  });

  it("labels Seq+Mem errors with their mode", () => {
    const mem = makeRun("S", "seq_mem", CHAINS, seqBugs);
    const errors = chainErrors(oracle, mem);
    expect(errors.map((e) => [e.continuous_id, e.order, e.seq_mode])).toEqual([
      ["A", 2, "seq_mem"],
      ["A", 3, "seq_mem"],
      ["B", 2, "seq_mem"],
      ["C", 2, "seq_mem"],
      ["G", 2, "seq_mem"],
    ]);
  });

  it("refuses pairs that are not one system's Oracle and Seq runs", () => {
    expect(() => chainErrors(seq, seq)).toThrow(/oracle run/);
    expect(() => chainErrors(oracle, oracle)).toThrow(/seq or seq_mem/);
    expect(() => chainErrors(oracle, makeRun("T", "seq", CHAINS, seqBugs))).toThrow(/one system/);
  });
});

const share = (count: number, pct: number | null) => ({ count, pct });

describe("chainErrorBreakdown", () => {
  const b = chainErrorBreakdown(chainErrors(oracle, seq), seq);

  it("counts chain errors against unresolved downstream Seq bugs per position and overall", () => {
    // position 2 unresolved: A, B, C, F, G (D resolved, E missing) → 4 errors / 5
    // position 3 unresolved: A, B → 1 error / 2; overall 5 / 7
    expect(b.positions.map((p) => [p.position, p.chain_errors, p.unresolved_downstream, p.rate])).toEqual([
      [2, 4, 5, 80],
      [3, 1, 2, 50],
    ]);
    expect([b.overall.chain_errors, b.overall.unresolved_downstream]).toEqual([5, 7]);
    expect(b.overall.rate).toBeCloseTo(500 / 7, 10);
    expect(chainErrorBreakdownSchema.parse(b)).toEqual(b);
  });

  it("splits causes and fingerprints in counts and percent of chain errors", () => {
    const [p2, p3] = b.positions;
    expect(p2?.causes).toEqual({ overshoot: share(1, 25), undershoot: share(2, 50), both: share(1, 25), unattributed: share(0, 0) });
    expect(p3?.causes).toEqual({ overshoot: share(0, 0), undershoot: share(0, 0), both: share(0, 0), unattributed: share(1, 100) });
    expect(b.overall.causes).toEqual({ overshoot: share(1, 20), undershoot: share(2, 40), both: share(1, 20), unattributed: share(1, 20) });
    expect(p2?.fingerprints).toEqual({
      broke_working_code: share(2, 50),
      left_unfixed: share(1, 25),
      no_usable_patch: share(1, 25),
      unknown: share(0, 0),
    });
    expect(b.overall.fingerprints).toEqual({
      broke_working_code: share(2, 40),
      left_unfixed: share(2, 40),
      no_usable_patch: share(1, 20),
      unknown: share(0, 0),
    });
  });

  it("counts only the errors of its own system and mode, with null rates when nothing failed", () => {
    const mem = makeRun("S", "seq_mem", [["A", 2]], [bug("A", 1, true), bug("A", 2, true)]);
    const m = chainErrorBreakdown(chainErrors(oracle, seq), mem);
    expect(m.seq_mode).toBe("seq_mem");
    expect(m.positions).toEqual([
      {
        position: 2,
        chain_errors: 0,
        unresolved_downstream: 0,
        rate: null,
        causes: { overshoot: share(0, null), undershoot: share(0, null), both: share(0, null), unattributed: share(0, null) },
        fingerprints: {
          broke_working_code: share(0, null),
          left_unfixed: share(0, null),
          no_usable_patch: share(0, null),
          unknown: share(0, null),
        },
      },
    ]);
  });
});
