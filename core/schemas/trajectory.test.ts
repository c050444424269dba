import { describe, expect, it } from "vitest";
import { trajectoryOutcomeSchema } from "./trajectory";

const written = {
  continuous_id: "x-chain",
  swebench_instance_id: "x-1",
  order: 1,
  mode: "seq",
  timed_out: false,
  exit_code: 0,
  wall_seconds: 2.5,
  patch_empty: false,
  patch_source: "tree",
  metrics: { turns: 3, cost_usd: 0.1 },
  warnings: [],
};

describe("trajectory outcome", () => {
  it("reads what the harness writes, a stopped turn's null exit code included", () => {
    expect(trajectoryOutcomeSchema.parse(written)).toEqual(written);
    expect(trajectoryOutcomeSchema.parse({ ...written, timed_out: true, exit_code: null }).exit_code).toBeNull();
  });

  it("keeps fields of later versions, in the outcome and in its metrics", () => {
    const later = { ...written, tool_calls: 7, metrics: { turns: 3, cache_tokens: 10 } };
    expect(trajectoryOutcomeSchema.parse(later)).toEqual(later);
  });

  it("refuses a wrong patch source, mode or metric", () => {
    expect(trajectoryOutcomeSchema.safeParse({ ...written, patch_source: "memory" }).success).toBe(false);
    expect(trajectoryOutcomeSchema.safeParse({ ...written, mode: "solo" }).success).toBe(false);
    expect(trajectoryOutcomeSchema.safeParse({ ...written, metrics: { turns: -1 } }).success).toBe(false);
    const { warnings: _w, ...noWarnings } = written;
    expect(trajectoryOutcomeSchema.safeParse(noWarnings).success).toBe(false);
  });
});
