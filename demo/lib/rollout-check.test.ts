import { describe, expect, it } from "vitest";
import { rolloutDifferences } from "./rollout-check";

const line = (id: string, patch: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ continuous_id: "c", swebench_instance_id: id, model_patch: patch, model_name_or_path: "s", turns: 3, ...extra });

describe("rolloutDifferences", () => {
  it("agrees when only the measured wall time differs", () => {
    const shipped = `${line("a", "p")}\n${line("b", "")}\n`;
    const rolled = `${line("a", "p", { wall_seconds: 1.5 })}\n${line("b", "", { wall_seconds: 0.2 })}\n`;
    expect(rolloutDifferences(rolled, shipped)).toEqual([]);
  });

  it("names lines that differ, are missing or are extra", () => {
    const shipped = `${line("a", "p")}\n${line("b", "")}\n`;
    const rolled = `${line("a", "q")}\n${line("c", "")}\n`;
    expect(rolloutDifferences(rolled, shipped)).toEqual(["a: differs", "b: not rolled out", "c: not shipped"]);
  });
});
