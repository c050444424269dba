import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  formatCost,
  formatInterval,
  formatPercent,
  formatRelativeChange,
  formatShare,
  formatTokens,
  formatWithChange,
  MODE_LABELS,
  relativeChange,
  renderTable,
} from "./index";

describe("relativeChange", () => {
  it("is (mode − oracle) / oracle as a fraction", () => {
    expect(relativeChange(49.0, 69.1)).toBeCloseTo(-0.29088, 5);
    expect(relativeChange(25, 23)).toBeCloseTo(0.086957, 5);
    expect(relativeChange(50, 50)).toBe(0);
  });

  it("is null when Oracle is 0 or either value is missing", () => {
    expect(relativeChange(10, 0)).toBeNull();
    expect(relativeChange(null, 50)).toBeNull();
    expect(relativeChange(10, null)).toBeNull();
  });
});

describe("formatRelativeChange", () => {
  it("prints the paper's whole-percent style with a unicode minus", () => {
    expect(formatRelativeChange(relativeChange(49.0, 69.1))).toBe("−29%");
    expect(formatRelativeChange(relativeChange(25.0, 23.0))).toBe("+9%");
    expect(formatRelativeChange(relativeChange(5.0, 10.0))).toBe("−50%");
    expect(formatRelativeChange(1)).toBe("+100%");
  });

  it("prints no change as −0% (the paper marks only increases with +) and null as —", () => {
    expect(formatRelativeChange(relativeChange(23.0, 23.0))).toBe("−0%");
    expect(formatRelativeChange(0.004)).toBe("+0%");
    expect(formatRelativeChange(null)).toBe("—");
  });

  it("rounds halves away from zero", () => {
    expect(formatRelativeChange(-0.125)).toBe("−13%");
    expect(formatRelativeChange(0.125)).toBe("+13%");
  });
});

/** Table 2 of the paper: model, config, mode, per-bug change, chain change (as printed). */
const TABLE2_CHANGES: [string, string, string, string, string][] = [
  ["GPT-5.5", "Baseline", "Seq", "−29%", "−12%"],
  ["GPT-5.5", "Summarize", "Seq", "−38%", "+9%"],
  ["GPT-5.5", "Sub-Agent", "Seq", "−44%", "−9%"],
  ["GPT-5.5", "Baseline", "Seq+Mem", "−31%", "−27%"],
  ["GPT-5.5", "Summarize", "Seq+Mem", "−27%", "−0%"],
  ["GPT-5.5", "Sub-Agent", "Seq+Mem", "−31%", "−5%"],
  ["GPT-5.4-mini", "Baseline", "Seq", "−32%", "−32%"],
  ["GPT-5.4-mini", "Summarize", "Seq", "−36%", "−19%"],
  ["GPT-5.4-mini", "Sub-Agent", "Seq", "−40%", "−0%"],
  ["GPT-5.4-mini", "Baseline", "Seq+Mem", "−32%", "−23%"],
  ["GPT-5.4-mini", "Summarize", "Seq+Mem", "−39%", "−31%"],
  ["GPT-5.4-mini", "Sub-Agent", "Seq+Mem", "−39%", "−10%"],
  ["GPT-5.4-nano", "Baseline", "Seq", "−30%", "−22%"],
  ["GPT-5.4-nano", "Summarize", "Seq", "−46%", "−27%"],
  ["GPT-5.4-nano", "Sub-Agent", "Seq", "−39%", "−0%"],
  ["GPT-5.4-nano", "Baseline", "Seq+Mem", "−32%", "−33%"],
  ["GPT-5.4-nano", "Summarize", "Seq+Mem", "−43%", "−18%"],
  ["GPT-5.4-nano", "Sub-Agent", "Seq+Mem", "−52%", "−25%"],
  ["Claude-Opus-4.7", "Baseline", "Seq", "−37%", "−18%"],
  ["Claude-Opus-4.7", "Summarize", "Seq", "−40%", "−17%"],
  ["Claude-Opus-4.7", "Sub-Agent", "Seq", "−40%", "−19%"],
  ["Claude-Opus-4.7", "Baseline", "Seq+Mem", "−39%", "−23%"],
  ["Claude-Opus-4.7", "Summarize", "Seq+Mem", "−37%", "−17%"],
  ["Claude-Opus-4.7", "Sub-Agent", "Seq+Mem", "−37%", "−10%"],
  ["Claude-Opus-4.5", "Baseline", "Seq", "−33%", "−10%"],
  ["Claude-Opus-4.5", "Summarize", "Seq", "−39%", "−25%"],
  ["Claude-Opus-4.5", "Sub-Agent", "Seq", "−38%", "−15%"],
  ["Claude-Opus-4.5", "Baseline", "Seq+Mem", "−41%", "−24%"],
  ["Claude-Opus-4.5", "Summarize", "Seq+Mem", "−40%", "−17%"],
  ["Claude-Opus-4.5", "Sub-Agent", "Seq+Mem", "−36%", "−0%"],
  ["DeepSeek-V4-Pro", "Baseline", "Seq", "−31%", "−50%"],
  ["DeepSeek-V4-Pro", "Summarize", "Seq", "−46%", "−31%"],
  ["DeepSeek-V4-Pro", "Sub-Agent", "Seq", "−48%", "−8%"],
  ["DeepSeek-V4-Pro", "Baseline", "Seq+Mem", "−33%", "−10%"],
  ["DeepSeek-V4-Pro", "Summarize", "Seq+Mem", "−48%", "−50%"],
  ["DeepSeek-V4-Pro", "Sub-Agent", "Seq+Mem", "−42%", "−8%"],
  ["Gemini-3.1-Pro", "Baseline", "Seq", "−41%", "−10%"],
  ["Gemini-3.1-Pro", "Summarize", "Seq", "−36%", "+5%"],
  ["Gemini-3.1-Pro", "Sub-Agent", "Seq", "−40%", "−5%"],
  ["Gemini-3.1-Pro", "Baseline", "Seq+Mem", "−39%", "−10%"],
  ["Gemini-3.1-Pro", "Summarize", "Seq+Mem", "−35%", "+11%"],
  ["Gemini-3.1-Pro", "Sub-Agent", "Seq+Mem", "−40%", "−5%"],
];

describe("the paper's Table 2 relative changes", () => {
  it("reproduces GPT-5.5 Baseline (69.1 → 49.0 per bug, 26.0 → 23.0 chain)", () => {
    expect(formatRelativeChange(relativeChange(49.0, 69.1))).toBe("−29%");
    expect(formatRelativeChange(relativeChange(23.0, 26.0))).toBe("−12%");
  });

  const path = fileURLToPath(new URL("../../lib/reference/paper-results.json", import.meta.url));
  it("reproduces every Seq and Seq+Mem annotation from paper-results.json", () => {
    type Entry = { model: string; config: string; mode: string; per_bug_pct: number; chain_pct: number };
    const entries = (JSON.parse(readFileSync(path, "utf8")) as { table2_main: Entry[] }).table2_main;
    const find = (model: string, config: string, mode: string) => {
      const e = entries.find((x) => x.model === model && x.config === config && x.mode === mode);
      if (!e) throw new Error(`no ${model} ${config} ${mode} in paper-results.json`);
      return e;
    };
    expect(entries.filter((e) => e.mode !== "Oracle")).toHaveLength(TABLE2_CHANGES.length);
    for (const [model, config, mode, perBug, chain] of TABLE2_CHANGES) {
      const row = find(model, config, mode);
      const oracle = find(model, config, "Oracle");
      const got = [
        formatRelativeChange(relativeChange(row.per_bug_pct, oracle.per_bug_pct)),
        formatRelativeChange(relativeChange(row.chain_pct, oracle.chain_pct)),
      ];
      expect([model, config, mode, ...got]).toEqual([model, config, mode, perBug, chain]);
    }
  });
});

describe("number formats", () => {
  it("prints percents with one decimal, costs in dollars, tokens in thousands, — when missing", () => {
    expect(formatPercent(49)).toBe("49.0");
    expect(formatPercent(100 / 3)).toBe("33.3");
    expect(formatPercent(-3.2)).toBe("−3.2");
    expect(formatPercent(-0.01)).toBe("0.0");
    expect(formatPercent(null)).toBe("—");
    expect(formatInterval([45.12, 53])).toBe("[45.1, 53.0]");
    expect(formatInterval(null)).toBe("—");
    expect(formatCost(5.6)).toBe("$5.60");
    expect(formatCost(null)).toBe("—");
    expect(formatTokens(48_200)).toBe("48.2k");
    expect(formatTokens(null)).toBe("—");
    expect(formatShare(3, 75)).toBe("3 (75.0%)");
    expect(formatShare(0, null)).toBe("0 (—)");
    expect(formatWithChange(49.0, relativeChange(49.0, 69.1))).toBe("49.0 −29%");
    expect(formatWithChange(69.1, null)).toBe("69.1");
    expect(formatWithChange(null, undefined)).toBe("—");
    expect(MODE_LABELS).toEqual({ oracle: "Oracle", seq: "Seq", seq_mem: "Seq+Mem" });
  });

  it("renders an aligned plain-text table", () => {
    expect(renderTable(["System", "Per-bug %"], [["A", "49.0"], ["Longer", "7.5"]])).toBe(
      ["System  Per-bug %", "------  ---------", "A            49.0", "Longer        7.5"].join("\n"),
    );
  });
});
