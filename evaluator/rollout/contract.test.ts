import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Bug, Chain } from "@/core/schemas/dataset";
import { pathSegment } from "@/core/trajectory/layout";
import { agentEnv, execWrapperScript, parseMetrics, parsePatchFile, predictionLine, recordedPatch, stepLine, type TurnOutcome } from "./contract";

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

  it("the exec wrapper runs bash in /testbed of that container and appends to the quoted log path", () => {
    const script = execWrapperScript("abc'd", "/t/it's $(rm -rf x) `y`.log");
    expect(script).toContain(`docker exec -i -w /testbed 'abc'\\''d' bash -c "$cmd"`);
    expect(script).toContain(`log='/t/it'\\''s $(rm -rf x) \`y\`.log'`);
    expect(script).toContain('} >>"$log"');
  });

  it("a step line is the marker, `step` and a one-line title", () => {
    expect(stepLine("Edit a.py")).toBe("##[chainswe] step Edit a.py");
    expect(stepLine(" Edit\n a.py \r\n")).toBe("##[chainswe] step Edit a.py");
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

/**
 * The wrapper run for real with bash, a stand-in `docker` on PATH that runs the
 * command on the host: what the log gets and what the caller gets back.
 */
describe("exec wrapper, run", () => {
  const dir = mkdtempSync(join(tmpdir(), "chainswe-exec-"));
  const bin = join(dir, "bin");
  mkdirSync(bin);
  // docker exec -i -w /testbed <id> bash -c <command>
  writeFileSync(join(bin, "docker"), `#!/bin/bash\n[ "$1 $2 $3 $4" = "exec -i -w /testbed" ] || exit 99\nprintf '%s' "$5" > ${JSON.stringify(join(dir, "container"))}\nshift 5\nexec "$@"\n`, { mode: 0o755 });
  const logDir = join(dir, "it's $(touch pwned) a log");
  mkdirSync(logDir);
  const log = join(logDir, "1.log");
  const wrapper = join(dir, "exec");
  writeFileSync(wrapper, execWrapperScript("c'1", log), { mode: 0o755 });
  const call = (command: string, input = "") => {
    const r = spawnSync(wrapper, [command], { input, env: { ...process.env, PATH: `${bin}:${process.env.PATH}` }, cwd: dir, maxBuffer: 1 << 24 });
    return { status: r.status, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
  };
  /** the log's new text since `before` characters, durations replaced */
  const logSince = (before: number) => readFileSync(log, "utf8").slice(before).replace(/ \d+ms/g, " Nms");
  const size = () => readFileSync(log, "utf8").length;

  it("logs a two-line command with stdout, stderr and its non-zero exit as one block; the caller gets them unchanged", () => {
    writeFileSync(log, "agent text\n");
    const r = call("echo out; echo err >&2\nexit 3");
    expect(r).toEqual({ status: 3, stdout: "out\n", stderr: "err\n" });
    expect(logSince(0)).toBe("agent text\n##[chainswe] $ echo out; echo err >&2\n##[chainswe] > exit 3\nout\n##[chainswe] stderr\nerr\n##[chainswe] exit 3 Nms\n");
    expect(readFileSync(join(dir, "container"), "utf8")).toBe("c'1");
    expect(existsSync(join(dir, "pwned"))).toBe(false);
  });

  it("passes stdin through; ends a section without a final newline with one; no stderr section when it is empty", () => {
    const before = size();
    const r = call("cat; printf x", "in\n");
    expect(r).toEqual({ status: 0, stdout: "in\nx", stderr: "" });
    expect(logSince(before)).toBe("##[chainswe] $ cat; printf x\nin\nx\n##[chainswe] exit 0 Nms\n");
  });

  it("a command's final newline makes no extra line; empty output none either", () => {
    const before = size();
    expect(call("true\n\nfalse\n").status).toBe(1);
    expect(logSince(before)).toBe("##[chainswe] $ true\n##[chainswe] > \n##[chainswe] > false\n##[chainswe] exit 1 Nms\n");
  });

  it("keeps 64 KiB of each stream in the log and says how much it cut; the caller gets all of it", () => {
    const before = size();
    const r = call("head -c 70000 /dev/zero | tr '\\0' a; head -c 66000 /dev/zero | tr '\\0' b >&2");
    expect(r.status).toBe(0);
    expect(r.stdout).toBe("a".repeat(70000));
    expect(r.stderr).toBe("b".repeat(66000));
    const cut = 70000 - 65536 + (66000 - 65536);
    expect(logSince(before)).toBe(`##[chainswe] $ head -c 70000 /dev/zero | tr '\\0' a; head -c 66000 /dev/zero | tr '\\0' b >&2\n${"a".repeat(65536)}\n##[chainswe] stderr\n${"b".repeat(65536)}\n##[chainswe] exit 0 Nms [${cut} bytes not logged]\n`);
  });
});
