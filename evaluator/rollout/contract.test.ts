import { describe, expect, it } from "vitest";
import type { Bug, Chain } from "@/lib/schemas/dataset";
import { agentEnv, execWrapperScript, parseMetrics, parsePatchFile, pathSegment, predictionLine, recordedPatch, type TurnOutcome } from "./contract";

const bug = { order: 2, swebench_instance_id: "x-2", problem_statement: "p", patch: "", test_patch: "" } as unknown as Bug;
const chain = { continuous_id: "x-chain", bug_fixes: [bug, bug, bug] } as unknown as Chain;
const outcome = (o: Partial<TurnOutcome>): TurnOutcome => ({ timedOut: false, exitCode: 0, wallSeconds: 1.234, diff: "diff --git a/f b/f\n", patchSource: "tree", metrics: {}, ...o });

describe("agent contract", () => {
  it("names the issue, exec wrapper, memory, metrics file, limit and bug", () => {
    const env = agentEnv({ chain, bug, mode: "seq_mem", issueFile: "/i", execPath: "/e", containerId: "c1", memoryDir: "/m", metricsFile: "/f", patchFile: "/p", timeLimitS: 30 });
    expect(env).toMatchObject({
      CHAINSWE_ISSUE_FILE: "/i",
      CHAINSWE_EXEC: "/e",
      CHAINSWE_CONTAINER: "c1",
      CHAINSWE_REPO_DIR: "/testbed",
      CHAINSWE_MEMORY_DIR: "/m",
      CHAINSWE_METRICS_FILE: "/f",
      CHAINSWE_PATCH_FILE: "/p",
      CHAINSWE_TIME_LIMIT_S: "30",
      CHAINSWE_MODE: "seq_mem",
      CHAINSWE_CHAIN_ID: "x-chain",
      CHAINSWE_ORDER: "2",
      CHAINSWE_CHAIN_LENGTH: "3",
    });
  });

  it("the exec wrapper runs bash in /testbed of that container", () => {
    expect(execWrapperScript("abc'd")).toContain(`docker exec -i -w /testbed 'abc'\\''d' bash -c "$*"`);
  });

  it("reads metrics; bad or unknown content is a warning, not an error", () => {
    expect(parseMetrics(null, "m.json")).toEqual({ metrics: {}, warnings: [] });
    expect(parseMetrics('{"cost_usd":0.5,"turns":3}', "m.json").metrics).toEqual({ cost_usd: 0.5, turns: 3 });
    expect(parseMetrics("{", "m.json").warnings[0]).toMatch(/^m\.json: not JSON/);
    expect(parseMetrics('{"turns":-1}', "m.json").warnings[0]).toMatch(/field turns/);
    expect(parseMetrics('{"turns":1,"mood":"ok"}', "m.json")).toEqual({ metrics: { turns: 1 }, warnings: ["m.json: unknown field(s) ignored: mood"] });
  });

  it("takes a patch file as a prediction's model_patch: absent, a diff, empty, not a diff, over the limit", () => {
    const diff = "diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-x\n+y\n";
    expect(parsePatchFile(null, "p.diff")).toEqual({ patch: null, warnings: [] });
    expect(parsePatchFile({ size: diff.length, text: diff }, "p.diff", 1024)).toEqual({ patch: diff, warnings: [] });
    expect(parsePatchFile({ size: 0, text: "" }, "p.diff")).toEqual({ patch: "", warnings: [] });
    expect(parsePatchFile({ size: 9, text: "I fixed it" }, "p.diff")).toEqual({ patch: "", warnings: ["p.diff: not a unified diff (or empty); empty patch recorded"] });
    expect(parsePatchFile({ size: diff.length, text: diff }, "p.diff", 20)).toEqual({ patch: "", warnings: [`p.diff: is ${diff.length} bytes, over the 20 bytes limit per patch; empty patch recorded`] });
    expect(parsePatchFile({ size: 5_000_000, text: null }, "p.diff", 2048 * 1024).warnings[0]).toMatch(/^p\.diff: is .* over the .* limit per patch; empty patch recorded$/);
  });

  it("records an empty patch for a turn stopped at the limit or without a diff", () => {
    expect(recordedPatch(outcome({}))).toBe("diff --git a/f b/f\n");
    expect(recordedPatch(outcome({ timedOut: true }))).toBe("");
    expect(recordedPatch(outcome({ diff: null }))).toBe("");
  });

  it("writes a prediction line with the agent's metrics and the measured wall time", () => {
    const line = predictionLine("sys", chain, bug, outcome({ metrics: { turns: 4, cost_usd: 0.1 } }));
    expect(line).toEqual({ continuous_id: "x-chain", swebench_instance_id: "x-2", model_patch: "diff --git a/f b/f\n", model_name_or_path: "sys", cost_usd: 0.1, turns: 4, wall_seconds: 1.2 });
  });

  it("turns chain ids into distinct path segments", () => {
    expect(pathSegment("a-chain.1")).toBe("a-chain.1");
    expect(pathSegment("a/b")).not.toBe(pathSegment("a_b"));
    expect(pathSegment("..")).not.toBe("..");
  });
});
