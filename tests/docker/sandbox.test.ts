/**
 * The sandbox and replay on a tiny real repository, in real containers:
 * gold and empty replays, limits, the time limit, no network, cleanup on Ctrl-C.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { Dataset } from "@/evaluator/dataset";
import { evaluate, readResults } from "@/evaluator/replay";
import { ChainContainers, Sandbox, defaultLimits, docker, removeLiveSandboxes } from "@/evaluator/sandbox";
import type { Mode } from "@/core/schemas/prediction";
import { chainRecords } from "@/core/scoring";
import { OPS_V0, OPS_V1, buildTinyRepo, type TinyRepo } from "./tiny-repo";
import { waitFor } from "@/lib/testing/wait";
import { ownSandboxes } from "./engine";
import { useCountingServer } from "./counting-server";
import { patchFor, predictionsFor } from "./patches";

let tiny: TinyRepo;
beforeAll(async () => {
  tiny = await buildTinyRepo();
});

const datasetOf = (t: TinyRepo): Dataset => ({ path: "tiny.jsonl", sha256: "tiny", chains: [t.chain], warnings: [] });

const sandboxContainers = () => ownSandboxes();

async function run(mode: Mode, patches: Record<number, string>, timeoutS = 60, testEdits: "keep" | "strip" = "keep") {
  const outDir = mkdtempSync(join(tmpdir(), "chainswe-run-"));
  const summary = await evaluate({
    dataset: datasetOf(tiny),
    predictions: predictionsFor(tiny.chain, patches),
    mode,
    outDir,
    system: "test-system",
    concurrency: 1,
    chainIds: null,
    limits: defaultLimits({ testTimeoutS: timeoutS }),
    testEdits,
  });
  return { summary, bugs: await readResults(outDir), outDir };
}

const gold = () => Object.fromEntries(tiny.chain.bug_fixes.map((b) => [b.order, b.patch]));

describe("replay of a tiny chain", () => {
  it.each(["oracle", "seq"] as const)("resolves every bug with gold patches (%s)", async (mode) => {
    const { bugs } = await run(mode, gold());
    expect(bugs.map((b) => [b.order, b.resolved, b.patch_applied, b.apply_method])).toEqual([
      [1, true, true, "git_apply"],
      [2, true, true, "git_apply"],
    ]);
    expect(await sandboxContainers()).toEqual([]);
  });

  it("grades empty patches as no_usable_patch, and Seq keeps going", async () => {
    const { bugs } = await run("seq", {});
    expect(bugs.map((b) => [b.order, b.resolved, b.fingerprint])).toEqual([
      [1, false, "no_usable_patch"],
      [2, false, "no_usable_patch"],
    ]);
    // bug 2's test patch stayed applied on top of the unfixed state: test_cube fails
    expect(bugs[1]!.fail_to_pass.failure).toEqual(["tests/test_ops.py::test_cube"]);
  });

  it("carries the agent's own earlier patch in Seq but not in Oracle", async () => {
    // bug 1 unfixed by the agent; bug 2's patch is the gold one against G(1)
    const patches = { 2: tiny.chain.bug_fixes[1]!.patch };
    const seq = await run("seq", patches);
    const oracle = await run("oracle", patches);
    // Seq: mul is still broken, so test_mul (P2P of bug 2) fails on top of A(1)
    expect(seq.bugs[1]).toMatchObject({ resolved: false, fingerprint: "broke_working_code" });
    expect(oracle.bugs[1]).toMatchObject({ resolved: true, fingerprint: null });
  });
});

describe("test edits (SPEC §7)", () => {
  it("keep applies a patch's test edits; strip drops them before applying, names them discarded, and grades the rest", async () => {
    // bug 1: the gold fix, plus a new file under tests/ (a test path by the default globs)
    const extra = patchFor([{ path: "tests/test_extra.py", before: null, after: "def test_extra():\n    assert True\n" }]);
    const patches = { 1: `${tiny.chain.bug_fixes[0]!.patch}${extra}`, 2: tiny.chain.bug_fixes[1]!.patch };
    const kept = await run("seq", patches, 60, "keep");
    const stripped = await run("seq", patches, 60, "strip");
    expect(kept.bugs[0]).toMatchObject({ resolved: true, model_files: ["calc/ops.py", "tests/test_extra.py"] });
    expect(stripped.bugs[0]).toMatchObject({ resolved: true, model_files: ["calc/ops.py"], discarded_files: ["tests/test_extra.py"] });
    expect(stripped.bugs.map((b) => b.resolved)).toEqual([true, true]);
    // the log says what was stripped; the submitted patch is kept as it was sent
    const log = readFileSync(join(stripped.outDir, "logs", "tiny-chain", "1", "test_output.txt"), "utf8");
    expect(log).toContain(">>> test edits stripped before applying (policy strip): tests/test_extra.py");
    expect(readFileSync(join(stripped.outDir, "logs", "tiny-chain", "1", "model.patch"), "utf8")).toBe(patches[1]);
    // counted either way (the leaderboard's scores without test-editing patches read this)
    for (const r of [kept, stripped]) expect(chainRecords({ summary: r.summary, bugs: r.bugs })[0]!.test_edits).toEqual([1]);
  });
});

describe("sandbox limits", () => {
  it("creates containers with no network, bounded resources, no capabilities and no mounts", async () => {
    const limits = defaultLimits();
    const sandbox = await Sandbox.start(tiny.image, limits, { "chainswe.chain": "inspect" });
    try {
      const info = await sandbox.container.inspect();
      expect(info.HostConfig.NetworkMode).toBe("none");
      expect(info.HostConfig.Memory).toBe(limits.memoryBytes);
      expect(info.HostConfig.NanoCpus).toBe(limits.nanoCpus);
      expect(info.HostConfig.PidsLimit).toBe(limits.pids);
      expect(info.HostConfig.CapDrop).toEqual(["ALL"]);
      expect(info.Mounts).toEqual([]);
      const ifaces = await sandbox.exec("cat /proc/net/dev");
      expect(ifaces.output).toMatch(/\blo:/);
      expect(ifaces.output).not.toMatch(/\beth0:/);
    } finally {
      await sandbox.remove();
    }
    expect(await sandboxContainers()).toEqual([]);
  });

  it("a chain's states container weighs less on the CPU than its bugs' containers", async () => {
    const containers = new ChainContainers(tiny.image, defaultLimits(), { "chainswe.chain": "weights" });
    try {
      const [states, bug] = await Promise.all([containers.take("states"), containers.take()]);
      expect((await states.container.inspect()).HostConfig.CpuShares).toBeLessThan(1024);
      expect((await bug.container.inspect()).HostConfig.CpuShares ?? 0).toBe(0);
    } finally {
      await containers.remove();
    }
  });

  it("an image built here holds its repository's bytecode, and git sees a clean work tree without reading every file", async () => {
    const sandbox = await Sandbox.start(tiny.image, defaultLimits(), { "chainswe.chain": "image" });
    try {
      const r = await sandbox.exec(
        [
          "ls calc/__pycache__/",
          'echo "status:$(git status --porcelain --untracked-files=all)"',
          // an index entry written in the same second as its file is "racily clean" (git marks it with size 0)
          "git ls-files --debug calc/ops.py | grep -E '^  size:'",
        ].join("\n"),
      );
      expect(r.output).toMatch(/ops\.cpython-\d+\.pyc/);
      expect(r.output).toContain("status:\n");
      expect(r.output).toMatch(/size: [1-9]\d*/);
    } finally {
      await sandbox.remove();
    }
  });

  it("stops a patch with an infinite loop at the time limit; Seq still grades the rest", async () => {
    const loop = patchFor([{ path: "calc/ops.py", before: OPS_V0, after: OPS_V0.replace("def add(a, b):\n", "def add(a, b):\n    while True:\n        pass\n") }]);
    const { bugs } = await run("seq", { 1: loop, 2: tiny.chain.bug_fixes[1]!.patch }, 5);
    expect(bugs[0]).toMatchObject({ timed_out: true, resolved: false, fingerprint: "no_usable_patch", exit_code: null });
    // the loop stays in the agent state A(1), so bug 2's run hits the limit too — but is graded
    expect(bugs[1]).toMatchObject({ order: 2, timed_out: true, patch_applied: true, fingerprint: "no_usable_patch" });
    expect(await sandboxContainers()).toEqual([]);
    // a loop that were never stopped would outlast this bound: the test fails by its timeout, not by a timed assertion
  });
});

describe("network isolation", () => {
  const server = useCountingServer("127.0.0.1");

  const connectingOps = () =>
    OPS_V1.replace(
      "def mul(a, b):\n",
      `def mul(a, b):\n    import socket\n    try:\n        socket.create_connection(("127.0.0.1", ${server.port()}), timeout=3).close()\n    except OSError:\n        return None\n`,
    );

  it("the same connection succeeds from a container on the host network (control)", async () => {
    const before = server.connections();
    const c = await docker().createContainer({
      Image: tiny.image,
      Cmd: ["python3", "-c", connectingOps() + "\nassert mul(3, 4) == 12\n"],
      HostConfig: { NetworkMode: "host" },
    });
    try {
      await c.start();
      const status = await c.wait();
      expect(status.StatusCode).toBe(0);
    } finally {
      await c.remove({ force: true });
    }
    expect(server.connections()).toBeGreaterThan(before);
  });

  it("fails inside the sandbox: a test that needs the network does not pass", async () => {
    const before = server.connections();
    const patch = patchFor([{ path: "calc/ops.py", before: OPS_V0, after: connectingOps() }]);
    const { bugs } = await run("oracle", { 1: patch });
    expect(bugs[0]).toMatchObject({ patch_applied: true, resolved: false, fingerprint: "left_unfixed" });
    expect(bugs[0]!.fail_to_pass.failure).toEqual(["tests/test_ops.py::test_mul"]);
    expect(server.connections()).toBe(before);
  });
});

describe("Ctrl-C", () => {
  it("the cleanup also removes containers the engine is still creating when it runs", async () => {
    // the race an interrupt can hit: a container started ahead of need is
    // still being created when the cleanup looks at what is live
    const starting = Sandbox.start(tiny.image, defaultLimits(), { "chainswe.use": "bug" });
    const outcome = starting.then(
      () => "started",
      (e: Error) => e.message,
    );
    await removeLiveSandboxes();
    expect(await sandboxContainers()).toEqual([]);
    // the creation went on to start a container that is gone: it fails, and says so
    expect(await outcome).toMatch(/cannot start a container/);
  });

  it("removes the running containers when the CLI is interrupted", async () => {
    const dir = mkdtempSync(join(tmpdir(), "chainswe-sigint-"));
    const loop = patchFor([{ path: "calc/ops.py", before: OPS_V0, after: OPS_V0.replace("def add(a, b):\n", "def add(a, b):\n    while True:\n        pass\n") }]);
    writeFileSync(join(dir, "dataset.jsonl"), `${JSON.stringify(tiny.chain)}\n`);
    writeFileSync(join(dir, "preds.jsonl"), `${JSON.stringify({ continuous_id: "tiny-chain", swebench_instance_id: "tiny-1", model_patch: loop, model_name_or_path: "looper" })}\n`);
    const child = spawn(process.execPath, ["bin/chainswe.mjs", "evaluate", "--dataset", join(dir, "dataset.jsonl"), "--predictions", join(dir, "preds.jsonl"), "--mode", "seq", "--out", join(dir, "out"), "--timeout", "300"], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr!.on("data", (c: Buffer) => (stderr += c.toString()));
    const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
    // the states' container, then bug 1's (where the test loops) and bug 2's started ahead
    await waitFor("bug 1's container to run", async () => (await ownSandboxes("chainswe.use=bug")).length >= 1, { timeoutMs: 180_000 });
    child.kill("SIGINT");
    const code = await exited;
    expect(code, stderr).toBe(130);
    expect(await sandboxContainers()).toEqual([]);
  });
});
