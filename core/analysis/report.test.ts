import { describe, expect, it } from "vitest";
import type { GradedBug } from "@/core/schemas/results";
import { grades, makeRun } from "@/core/scoring/test-fixtures";
import { buildReport, reportSchema, type ModeReport, type Report } from "./report";
import { formatReportTables } from "./report-text";

const CHAINS: [string, number][] = [
  ["c1", 3],
  ["c2", 3],
  ["c3", 2],
];
const c1Files: Partial<GradedBug>[] = [
  // bug 1 resolved, skips gold d.py (weak undershoot) and strays into b.py, which bug 2 fixes (overshoot)
  { gold_files: ["a.py", "d.py"], model_files: ["a.py", "b.py"], cost_usd: 1, peak_context_tokens: 1000 },
  { gold_files: ["b.py"], model_files: ["b.py"], cost_usd: 2, peak_context_tokens: 3000, fingerprint: "broke_working_code" },
  { cost_usd: 0.5, peak_context_tokens: 2000 },
];
const c2Cost: Partial<GradedBug>[] = [
  { cost_usd: 1, peak_context_tokens: 500 },
  { cost_usd: 1, peak_context_tokens: 500 },
  { cost_usd: 1, peak_context_tokens: 800 },
];
/** Seq c1 ✓✗✓, c2 ✓✓✓, c3 ✗✓: strict 4/8 = 50.0, lenient 6/8 = 75.0, chain 1/3; cost 3.25, peak 1900 */
const seqSpecs = [
  ...grades("c1", [true, false, true], c1Files),
  ...grades("c2", [true, true, true], c2Cost),
  ...grades("c3", [false, true]),
];
/** Oracle c1 ✓✓✓, c2 ✓✓✗, c3 ✓✓: 7/8 = 87.5, chain 2/3 */
const oracleSpecs = [
  ...grades("c1", [true, true, true], [{ gold_files: ["a.py", "d.py"] }, { gold_files: ["b.py"] }]),
  ...grades("c2", [true, true, false]),
  ...grades("c3", [true, true]),
];

const runs = [
  makeRun("S", "seq", CHAINS, seqSpecs),
  makeRun("S", "oracle", CHAINS, oracleSpecs),
  makeRun("S", "seq_mem", CHAINS, seqSpecs),
  makeRun("T", "seq", CHAINS, grades("c1", [true, true, true])),
];
const OPTS = { draws: 500 };
const report = buildReport(runs, OPTS);
const entry = (r: Report, system: string, mode: string): ModeReport => {
  const found = r.systems.find((s) => s.system === system)?.modes.find((m) => m.mode === mode);
  if (!found) throw new Error(`no ${system} ${mode}`);
  return found;
};

describe("buildReport", () => {
  it("validates against its schema and groups runs by system, modes in oracle/seq/seq_mem order", () => {
    expect(reportSchema.parse(report)).toEqual(report);
    expect(report.systems.map((s) => [s.system, s.modes.map((m) => m.mode)])).toEqual([
      ["S", ["oracle", "seq", "seq_mem"]],
      ["T", ["seq"]],
    ]);
    expect(report.bootstrap).toEqual({ seed: 0, draws: 500, level: 0.95 });
    expect(report.positions).toBe("length3");
  });

  it("carries strict and lenient scores, cost and peak context", () => {
    const seq = entry(report, "S", "seq");
    expect([seq.strict.per_bug.value, seq.lenient.per_bug.value]).toEqual([50, 75]);
    expect(seq.strict.cost_per_chain).toBe(3.25);
    expect(seq.strict.peak_context_tokens).toBe(1900);
    const oracle = entry(report, "S", "oracle");
    expect(oracle.lenient).toEqual({ ...oracle.strict, scoring: "lenient" });
    expect(oracle.strict.per_bug.value).toBe(87.5);
  });

  it("gives relative changes vs the same system's Oracle per scoring", () => {
    const rel = entry(report, "S", "seq").relative_to_oracle;
    // strict (50 − 87.5)/87.5 = −3/7; lenient (75 − 87.5)/87.5 = −1/7; chain (33.3 − 66.7)/66.7 = −1/2
    expect(rel?.strict.per_bug).toBeCloseTo(-3 / 7, 12);
    expect(rel?.lenient.per_bug).toBeCloseTo(-1 / 7, 12);
    expect(rel?.strict.chain).toBeCloseTo(-0.5, 12);
    // length-3 chains c1, c2 — Oracle 100/100/50; Seq strict 100/50/50, lenient 100/50/100
    expect(rel?.strict.per_position).toEqual([
      { position: 1, value: 0 },
      { position: 2, value: -0.5 },
      { position: 3, value: 0 },
    ]);
    expect(rel?.lenient.per_position.map((p) => p.value)).toEqual([0, -0.5, 1]);
    expect(entry(report, "S", "oracle").relative_to_oracle).toBeNull();
    expect(entry(report, "T", "seq").relative_to_oracle).toBeNull();
  });

  it("pairs each sequential mode with Oracle on the same chains", () => {
    const paired = entry(report, "S", "seq").paired_vs_oracle;
    expect(paired?.difference.value).toBe(-37.5);
    expect([paired?.wins, paired?.losses, paired?.ties]).toEqual([1, 2, 0]);
    expect(entry(report, "T", "seq").paired_vs_oracle).toBeNull();
  });

  it("lists chain errors for every system with Oracle and a sequential run", () => {
    const error = {
      system: "S",
      continuous_id: "c1",
      swebench_instance_id: "c1-2",
      order: 2,
      fingerprint: "broke_working_code",
      cause: "both",
      evidence: [
        { prior_order: 1, file: "b.py", kind: "overshoot", strong: true },
        { prior_order: 1, file: "d.py", kind: "undershoot", strong: false },
      ],
    };
    expect(report.chain_errors).toEqual([
      { ...error, seq_mode: "seq" },
      { ...error, seq_mode: "seq_mem" },
    ]);
    expect(report.chain_error_breakdowns.map((b) => [b.system, b.seq_mode])).toEqual([
      ["S", "seq"],
      ["S", "seq_mem"],
    ]);
    // unresolved downstream Seq bugs: c1#2 only (c3#1 is position 1)
    const [b] = report.chain_error_breakdowns;
    expect(b?.positions.map((p) => [p.position, p.chain_errors, p.unresolved_downstream, p.rate])).toEqual([
      [2, 1, 1, 100],
      [3, 0, 0, null],
    ]);
  });

  it("is deterministic for a seed and honours the position set", () => {
    expect(buildReport(runs, OPTS)).toEqual(report);
    const all = buildReport(runs, { ...OPTS, positions: "all", seed: 9 });
    expect(all.bootstrap.seed).toBe(9);
    expect(entry(all, "S", "seq").strict.per_position.map((p) => p.n)).toEqual([3, 3, 2]);
  });

  it("refuses two runs of one system in one mode", () => {
    expect(() => buildReport([...runs, makeRun("T", "seq", CHAINS, [])])).toThrow(/two seq runs for system T/);
  });
});

describe("formatReportTables", () => {
  const text = formatReportTables(report);

  it("renders Table 2 style rows with relative change, interval, cost and peak context, strict and lenient labelled", () => {
    expect(text).toContain("Scores (Table 2 style) — Seq scoring strict");
    expect(text).toContain("Scores (Table 2 style) — Seq scoring lenient");
    expect(text).toMatch(/^S\s+Oracle\s+87\.5\s+\[[\d., ]+\]\s+66\.7\s+\[[\d., ]+\]\s+—\s+—$/m);
    expect(text).toMatch(/^S\s+Seq\s+50\.0 −43%\s+\[[\d., ]+\]\s+33\.3 −50%\s+\[[\d., ]+\]\s+\$3\.25\s+1\.9k$/m);
    expect(text).toMatch(/^S\s+Seq\s+75\.0 −14%\s+\[/m);
    expect(text).toMatch(/^S\s+Seq\+Mem\s+50\.0 −43%\s+\[/m);
    expect(text).toMatch(/^T\s+Seq\s+37\.5\s+\[[\d., ]+\]\s+33\.3\s+\[[\d., ]+\]\s+—\s+—$/m);
  });

  it("renders Tables 3–4 style per-position rows (position 1 unannotated, as in the paper)", () => {
    expect(text).toContain("Per-position resolution % (Tables 3–4 style, length-3 chains");
    expect(text).toMatch(/^S\s+Seq\s+2\s+100\.0\s+\[[\d., ]+\]\s+50\.0 −50%\s+\[[\d., ]+\]\s+50\.0 −0%\s+\[/m);
    expect(text).toMatch(/^S\s+Seq\s+2\s+100\.0\s+\[[\d., ]+\]\s+50\.0 −50%\s+\[[\d., ]+\]\s+100\.0 \+100%\s+\[/m);
  });

  it("renders the paired comparison, the chain-error breakdown and the evidence", () => {
    expect(text).toMatch(/^S\s+Seq\s+3\s+−37\.5\s+\[[−\d., ]+\]\s+1\/2\/0$/m);
    expect(text).toContain("Chain errors — S, Seq vs Oracle");
    expect(text).toContain("Chain errors — S, Seq+Mem vs Oracle");
    expect(text).toMatch(
      /^2\s+1\s+1\s+100\.0\s+0 \(0\.0%\)\s+0 \(0\.0%\)\s+1 \(100\.0%\)\s+0 \(0\.0%\)\s+1 \(100\.0%\)\s+0 \(0\.0%\)\s+0 \(0\.0%\)$/m,
    );
    expect(text).toMatch(/^3\s+0\s+0\s+—\s+0 \(—\)/m);
    expect(text).toContain("S  Seq  c1 #2  broke_working_code  both  evidence: #1 b.py (overshoot); #1 d.py (undershoot, weak)");
  });
});
