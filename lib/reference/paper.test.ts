/** The paper's numbers load as typed rows, complete, and with the paper's own relative-change annotations. */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { formatRelativeChange } from "@/core/scoring";
import { paperResults, reportedMainRows, reportedPeakContext, reportedPositionsByConfig, reportedPositionsByModel } from "./paper";

/** The hash of the figures as published with the paper; any edit to the copy fails this test. */
const PAPER_RESULTS_SHA256 = "692029adb2e8d8e6ca211ad40c52e4c55e6946001ce6d0883cda7c2ff4575d2b";

describe("the paper's reported results", () => {
  it("is the paper's reference file, unchanged (SHA-256 of the published figures)", () => {
    const ours = new URL("./paper-results.json", import.meta.url);
    expect(createHash("sha256").update(readFileSync(ours)).digest("hex")).toBe(PAPER_RESULTS_SHA256);
    expect(paperResults().headline).toMatchObject({ chains: 100, bugs: 304 });
  });

  it("Table 2 has every model × configuration × mode once, with the paper's subscripts", () => {
    const rows = reportedMainRows();
    expect(rows).toHaveLength(63);
    expect(new Set(rows.map((r) => `${r.model}|${r.config}|${r.mode}`)).size).toBe(63);
    expect(new Set(rows.map((r) => r.model)).size).toBe(7);
    expect(new Set(rows.map((r) => r.config))).toEqual(new Set(["Baseline", "Summarize", "Sub-Agent"]));
    const seq = rows.find((r) => r.model === "GPT-5.5" && r.config === "Baseline" && r.mode === "seq")!;
    expect(seq).toMatchObject({ perBug: 49.0, chain: 23.0, costPerChain: 5.6 });
    expect(formatRelativeChange(seq.vsOracle.perBug)).toBe("−29%");
    expect(rows.filter((r) => r.mode === "oracle").every((r) => r.vsOracle.perBug === null)).toBe(true);
  });

  it("Tables 3, 4 and 8 as typed rows", () => {
    expect(reportedPositionsByConfig()).toHaveLength(9);
    expect(reportedPositionsByConfig()[0]).toEqual({ group: "Baseline", mode: "oracle", positions: [58.6, 64.3, 67.0] });
    expect(reportedPositionsByModel()).toHaveLength(21);
    expect(reportedPositionsByModel().find((r) => r.group === "GPT-5.5" && r.mode === "seq")?.positions).toEqual([62.5, 40.5, 28.2]);
    expect(reportedPeakContext()[0]).toEqual({ config: "Baseline", tokens: { oracle: 48200, seq: 48100, seq_mem: 63600 } });
  });
});
