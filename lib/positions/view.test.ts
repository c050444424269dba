/**
 * The per-position tables, checked by hand on small runs: per-configuration and
 * per-model means with the change vs Oracle, and the paper's tables as printed.
 */
import { describe, expect, it } from "vitest";
import { formatRelativeChange, type PositionRate } from "@/core/scoring";
import { reportedPositionsByConfig, reportedPositionsByModel } from "@/lib/reference/paper";
import type { Mode } from "@/core/schemas/prediction";
import { positionSeries, positionTable, reportedPositionTable, type PositionSource } from "@/lib/positions/view";

const rates = (...values: number[]): PositionRate[] => values.map((value, i) => ({ position: i + 1, value, ci: [0, 100], n: 4 }));
const source = (id: string, model: string, contextConfig: string, mode: Mode, ...values: number[]): PositionSource => ({
  submissionId: id,
  system: { model, contextConfig },
  mode,
  perPosition: rates(...values),
});

const SOURCES = [
  source("m1-base-o", "M1", "Baseline", "oracle", 60, 70, 80),
  source("m1-base-s", "M1", "Baseline", "seq", 60, 35, 20),
  source("m2-base-o", "M2", "Baseline", "oracle", 40, 50, 60),
  source("m2-base-s", "M2", "Baseline", "seq", 40, 25, 20),
  source("m1-sum-o", "M1", "Summarize", "oracle", 50, 50, 50),
  source("m1-sum-m", "M1", "Summarize", "seq_mem", 50, 25, 0),
];

describe("positionTable", () => {
  it("by configuration: the mean over models per mode, Oracle first, with the change vs the configuration's Oracle", () => {
    const t = positionTable(SOURCES, "config");
    expect(t.positions).toEqual([1, 2, 3]);
    expect(t.chainsAt).toEqual([4, 4, 4]);
    expect(t.groups.map((g) => g.key)).toEqual(["Baseline", "Summarize"]);
    const base = t.groups[0]!;
    expect(base.rows.map((r) => r.mode)).toEqual(["oracle", "seq"]);
    expect(base.rows[0]!.cells.map((c) => c.value)).toEqual([50, 60, 70]);
    expect(base.rows[1]!.cells.map((c) => c.value)).toEqual([50, 30, 20]);
    expect(base.rows[1]!.submissionIds).toEqual(["m1-base-s", "m2-base-s"]);
    // position 1 is unannotated, as in the paper; then (30 − 60) / 60 and (20 − 70) / 70
    expect(base.rows[1]!.cells.map((c) => c.vsOracle)).toEqual([null, -0.5, -50 / 70]);
    expect(base.rows[0]!.cells.every((c) => c.vsOracle === null)).toBe(true);
    expect(base.rows[0]!.cells[0]!.chains).toBe(4);
    const sum = t.groups[1]!;
    expect(sum.rows.map((r) => r.mode)).toEqual(["oracle", "seq_mem"]);
    expect(sum.rows[1]!.cells.map((c) => c.vsOracle)).toEqual([null, -0.5, -1]);
  });

  it("by model: the mean over configurations", () => {
    const t = positionTable(SOURCES, "model");
    expect(t.groups.map((g) => g.key)).toEqual(["M1", "M2"]);
    const m1 = t.groups[0]!;
    expect(m1.rows.map((r) => r.mode)).toEqual(["oracle", "seq", "seq_mem"]);
    expect(m1.rows[0]!.cells.map((c) => c.value)).toEqual([55, 60, 65]);
    expect(m1.rows[2]!.cells.map((c) => c.value)).toEqual([50, 25, 0]);
  });

  it("run-to-run spread: the mean of each system's lowest and highest run, a single run counting as both; none when every system ran once", () => {
    const repeated: PositionSource = {
      ...source("m3-base-s", "M3", "Baseline", "seq", 50, 30, 10),
      runs: { perPosition: [{ position: 1, min: 40, max: 60 }, { position: 2, min: 20, max: 40 }, { position: 3, min: 0, max: 30 }] },
    };
    const t = positionTable([...SOURCES, repeated], "config");
    const seq = t.groups[0]!.rows.find((r) => r.mode === "seq")!;
    // M1 60/35/20 and M2 40/25/20 ran once; M3's runs span 40–60, 20–40, 0–30
    expect(seq.cells.map((c) => c.runs)).toEqual([
      { min: (60 + 40 + 40) / 3, max: (60 + 40 + 60) / 3 },
      { min: (35 + 25 + 20) / 3, max: (35 + 25 + 40) / 3 },
      { min: (20 + 20 + 0) / 3, max: (20 + 20 + 30) / 3 },
    ]);
    for (const c of seq.cells) {
      expect(c.value).toBeGreaterThanOrEqual(c.runs!.min);
      expect(c.value).toBeLessThanOrEqual(c.runs!.max);
    }
    expect(t.groups[0]!.rows.find((r) => r.mode === "oracle")!.cells.every((c) => c.runs === null)).toBe(true);
  });

  it("no rows, no groups; and the chart series has one key per mode", () => {
    expect(positionTable([], "config")).toEqual({ by: "config", positions: [], chainsAt: [], groups: [] });
    const series = positionSeries(positionTable(SOURCES, "config").groups[0]!);
    expect(series.modes).toEqual(["oracle", "seq"]);
    expect(series.data).toEqual([
      { position: 1, oracle: 50, seq: 50 },
      { position: 2, oracle: 60, seq: 30 },
      { position: 3, oracle: 70, seq: 20 },
    ]);
  });
});

describe("reportedPositionTable", () => {
  it("the paper's Table 3 in its order, with the relative drops it prints", () => {
    const t = reportedPositionTable(reportedPositionsByConfig(), "config");
    expect(t.groups.map((g) => g.key)).toEqual(["Baseline", "Summarize", "Sub-Agent"]);
    expect(t.chainsAt).toEqual([97, 97, 97]);
    const seq = t.groups[0]!.rows.find((r) => r.mode === "seq")!;
    expect(seq.cells.map((c) => c.value)).toEqual([57.1, 39.3, 27.7]);
    expect(seq.cells.map((c) => formatRelativeChange(c.vsOracle))).toEqual(["—", "−39%", "−59%"]);
    expect(reportedPositionTable(reportedPositionsByModel(), "model").groups[0]!.key).toBe("GPT-5.5");
  });
});
