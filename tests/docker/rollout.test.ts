/**
 * The rollout harness on the tiny repository, in real containers. The image
 * holds the repository's whole history (both gold fixes are later commits in
 * its /testbed/.git), so "no later fix reachable" is tested against a real leak.
 * Rollout then evaluate gives the expected grades; Seq+Mem's memory persists
 * across bugs and Oracle's does not; a hanging agent is stopped at the limit
 * with an empty patch; from inside, git shows no gold fix the start state lacks;
 * a patch file is the model patch, and in Seq the next start state holds it only if it applies;
 * the bug's log holds each $CHAINSWE_EXEC call as a marker block, the agent its full output.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { loadDataset, loadPredictions, type Dataset } from "@/evaluator/dataset";
import { evaluate, readResults } from "@/evaluator/replay";
import { rollout } from "@/evaluator/rollout";
import { DEMO_DATASET, ensureDemoImages } from "@/cli/demo";
import { staleDiff } from "@/demo/lib/edits";
import { defaultLimits, ensureRepoImage } from "@/evaluator/sandbox";
import type { Chain } from "@/core/schemas/dataset";
import type { Mode } from "@/core/schemas/prediction";
import { trajectoryOutcomeSchema } from "@/core/schemas/trajectory";
import { ownSandboxes } from "./engine";
import { BASE_IMAGE, buildTinyRepo } from "./tiny-repo";

const run = promisify(execFile);
const AGENTS = resolve("evaluator/rollout/agents/run.mjs");
const work = mkdtempSync(join(tmpdir(), "chainswe-rollout-test-"));
let chain: Chain;
let datasetPath: string;
let dataset: Dataset;

beforeAll(async () => {
  const tiny = await buildTinyRepo();
  const head = tiny.chain.bug_fixes.at(-1)!.commit_hash;
  const image = `chainswe-test/tiny-history:${head.slice(0, 12)}`;
  await ensureRepoImage({ base: BASE_IMAGE, repoDir: tiny.dir, commit: head, tag: image });
  chain = { ...tiny.chain, docker_image: image };
  datasetPath = join(work, "tiny.jsonl");
  writeFileSync(datasetPath, `${JSON.stringify(chain)}\n`);
  dataset = await loadDataset(datasetPath);
});

let runs = 0;
async function rollOut(mode: Mode, agentCommand: string, o: { timeLimitS?: number; chains?: Chain[]; dataset?: Dataset } = {}) {
  const out = join(work, `run-${++runs}.jsonl`);
  const trajectoriesDir = join(work, `run-${runs}.trajectories`);
  const summary = await rollout({
    dataset: o.dataset ?? dataset,
    mode,
    agentCommand,
    system: "rollout-test",
    out,
    trajectoriesDir,
    timeLimitS: o.timeLimitS ?? 60,
    chains: o.chains ?? dataset.chains,
    concurrency: 1,
    limits: defaultLimits(),
  });
  const lines = readFileSync(out, "utf8").trim().split("\n").map((l) => JSON.parse(l) as { swebench_instance_id: string; model_patch: string; turns?: number; wall_seconds?: number });
  return { out, trajectoriesDir, summary, lines };
}

async function grades(predictionsPath: string, mode: Mode) {
  const outDir = join(work, `eval-${++runs}`);
  await evaluate({ dataset, predictions: await loadPredictions(predictionsPath, dataset.chains), mode, outDir, system: "rollout-test", concurrency: 1, chainIds: null, limits: defaultLimits({ testTimeoutS: 60 }) });
  return (await readResults(outDir)).map((b) => [b.order, b.resolved, b.fingerprint]);
}

describe("rollout then evaluate", () => {
  it("gold through the CLI in Seq: a predictions file evaluate reads, every bug resolved", async () => {
    const out = join(work, "gold.seq.jsonl");
    const cli = await run("node", ["bin/chainswe.mjs", "rollout", "--dataset", datasetPath, "--mode", "seq", "--agent", `node ${AGENTS} gold --dataset ${datasetPath}`, "--out", out]);
    expect(cli.stdout).toMatch(/2 bug\(s\) in 1 chain\(s\) rolled out \(0 empty patch\(es\), 0 timed out\); 0 chain\(s\) with errors/);
    const lines = readFileSync(out, "utf8").trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => [l.swebench_instance_id, l.model_name_or_path, l.turns])).toEqual([
      ["tiny-1", "gold.seq", 1],
      ["tiny-2", "gold.seq", 1],
    ]);
    // the gold patches, but with the harness's 12-character blob ids
    const noIndex = (p: unknown) => String(p).replace(/^index .*\n/gm, "");
    expect(lines.map((l) => noIndex(l.model_patch))).toEqual(chain.bug_fixes.map((b) => noIndex(b.patch)));
    expect(await grades(out, "seq")).toEqual([
      [1, true, null],
      [2, true, null],
    ]);
    expect(existsSync(join(work, "gold.seq.trajectories", "tiny-chain", "2.json"))).toBe(true);
  });

  it("overshoot: fine in Oracle; in Seq its stray line breaks the next gold fix (no usable patch)", async () => {
    const agent = `node ${AGENTS} overshoot --dataset ${datasetPath} --file calc/ops.py`;
    const oracle = await rollOut("oracle", agent);
    const seq = await rollOut("seq", agent);
    expect(await grades(oracle.out, "oracle")).toEqual([
      [1, true, null],
      [2, true, null],
    ]);
    expect(seq.lines[1]!.model_patch).toBe("");
    expect(await grades(seq.out, "seq")).toEqual([
      [1, true, null],
      [2, false, "no_usable_patch"],
    ]);
    expect(await ownSandboxes("chainswe.rollout=1")).toEqual([]);
  });
});

/**
 * A bash agent that probes what it can see: the memory directory (counts and
 * appends), and, from inside the container, git history, reflogs, every object
 * and files outside the repository. It edits nothing but a note of what it saw.
 */
const probeAgent = (probes: string) => `
  seen=$(ls "$CHAINSWE_MEMORY_DIR" | wc -l)
  touch "$CHAINSWE_MEMORY_DIR/bug-$CHAINSWE_ORDER"
  "$CHAINSWE_EXEC" 'git log --all --format="commit %H %s"; git reflog --all; git cat-file --batch-all-objects --batch; git fsck --lost-found 2>&1; ls -a /tmp /tmp/chainswe 2>&1; grep -rl "return a \\* b\\|def cube" /tmp /root /testbed /var/tmp 2>/dev/null' > ${probes}/$CHAINSWE_MODE-$CHAINSWE_ORDER.txt
  echo "seen $seen" | "$CHAINSWE_EXEC" 'cat > memory_note.txt'
`;

describe("what the agent sees", () => {
  it("memory persists across bugs in Seq+Mem only; no gold fix is reachable through git", async () => {
    const probes = mkdtempSync(join(work, "probes-"));
    const mem = await rollOut("seq_mem", probeAgent(probes));
    const oracle = await rollOut("oracle", probeAgent(probes));
    const notes = (lines: { model_patch: string }[]) => lines.map((l) => /^\+seen (\d+)$/m.exec(l.model_patch)?.[1]);
    expect(notes(mem.lines)).toEqual(["0", "1"]);
    expect(notes(oracle.lines)).toEqual(["0", "0"]);
    expect(existsSync(join(mem.trajectoriesDir, "tiny-chain", "memory", "bug-2"))).toBe(true);
    for (const name of ["seq_mem-1", "seq_mem-2", "oracle-1", "oracle-2"]) {
      const seen = readFileSync(join(probes, `${name}.txt`), "utf8");
      // one commit, the start state's; no gold fix of a later bug anywhere, nor bug 1's in a Seq state without it
      expect(seen.match(/^commit /gm), name).toHaveLength(1);
      expect(seen, name).toContain("commit ");
      expect(seen, name).toContain(" chainswe start state");
      expect(seen, name).not.toContain("def cube");
      expect(seen, name).not.toContain("fix mul");
      expect(seen, name).not.toContain("/tmp/chainswe:");
      if (name !== "oracle-2") expect(seen, name).not.toContain("return a * b");
    }
    // Oracle bug 2 starts from G(1): bug 1's fix is the start state, visible in the work tree only
    expect(readFileSync(join(probes, "oracle-2.txt"), "utf8")).toContain("/testbed/calc/ops.py");
  });
});

describe("patch file", () => {
  /** Bug 1: edits the tree but submits `patch` through CHAINSWE_PATCH_FILE; bug 2: notes the file bug 1 changed. */
  const patchFileAgent = (patch: string, note: string) => {
    const file = join(work, `${note}.diff`);
    writeFileSync(file, patch);
    return `if [ "$CHAINSWE_ORDER" = 1 ]; then "$CHAINSWE_EXEC" 'echo TREE_EDIT = 1 >> calc/ops.py'; cp ${file} "$CHAINSWE_PATCH_FILE";
      else "$CHAINSWE_EXEC" 'cat calc/ops.py' > ${join(work, `${note}.txt`)}; fi`;
  };

  it("its text is the model_patch, not the tree's diff; in Seq the next bug starts from it applied, or without it when it does not apply", async () => {
    const gold = chain.bug_fixes[0]!.patch;
    const stale = staleDiff(gold);
    const applies = await rollOut("seq", patchFileAgent(gold, "applies"));
    const fails = await rollOut("seq", patchFileAgent(stale, "fails"));
    expect(applies.lines.map((l) => l.model_patch)).toEqual([gold, ""]);
    expect(fails.lines.map((l) => l.model_patch)).toEqual([stale, ""]);
    const turn = JSON.parse(readFileSync(join(fails.trajectoriesDir, "tiny-chain", "1.json"), "utf8")) as Record<string, unknown>;
    expect(turn).toMatchObject({ patch_source: "patch_file", patch_empty: false, warnings: [] });
    // A(1): bug 1's submitted patch (if it applied) + its test patch; the tree edit is gone either way
    const seen = (note: string) => readFileSync(join(work, `${note}.txt`), "utf8");
    expect(seen("applies")).toContain("return a * b");
    expect(seen("fails")).toContain("return a + b  # bug 1: should multiply");
    for (const note of ["applies", "fails"]) {
      expect(seen(note)).not.toContain("TREE_EDIT");
      expect(seen(note)).not.toContain("local edit");
    }
  });
});

describe("time limit", () => {
  it("stops a hanging agent (host and container) at the limit and records an empty patch", async () => {
    const pidFile = join(work, "hang.pid");
    const agent = `echo $$ > ${pidFile}; echo "x = 1" | "$CHAINSWE_EXEC" 'cat > edited.py'; "$CHAINSWE_EXEC" 'sleep 600' & sleep 600`;
    const { lines, trajectoriesDir } = await rollOut("seq", agent, { timeLimitS: 3, chains: [{ ...chain, bug_fixes: chain.bug_fixes.slice(0, 1), swebench_instance_ids: ["tiny-1"] }] });
    expect(lines.map((l) => l.model_patch)).toEqual([""]);
    const turn = JSON.parse(readFileSync(join(trajectoriesDir, "tiny-chain", "1.json"), "utf8")) as { timed_out: boolean; patch_empty: boolean };
    expect(turn).toMatchObject({ timed_out: true, patch_empty: true });
    const pid = Number(readFileSync(pidFile, "utf8"));
    expect(() => process.kill(pid, 0)).toThrow();
    // an agent never stopped sleeps 600 s: the test fails by this timeout, not by a timed assertion
  });
});

describe("trajectory log", () => {
  it("holds each exec call as a marker block (a two-line command, stdout, stderr, its exit; big output cut); the agent gets everything", async () => {
    const dir = mkdtempSync(join(work, "calls-"));
    const script = join(dir, "agent.sh");
    writeFileSync(
      script,
      [
        `d=${JSON.stringify(dir)}`,
        'echo "##[chainswe] step Probe the wrapper"',
        "echo calling it twice",
        '"$CHAINSWE_EXEC" "echo out; echo err >&2',
        'exit 3" >"$d/small.out" 2>"$d/small.err"',
        'echo $? >"$d/small.status"',
        `"$CHAINSWE_EXEC" 'head -c 70000 /dev/zero | tr "\\0" a; head -c 66000 /dev/zero | tr "\\0" b >&2' >"$d/big.out" 2>"$d/big.err"`,
        'echo $? >"$d/big.status"',
        "echo done",
        "",
      ].join("\n"),
    );
    const one = { ...chain, bug_fixes: chain.bug_fixes.slice(0, 1), swebench_instance_ids: ["tiny-1"] };
    const { trajectoriesDir } = await rollOut("seq", `bash ${script}`, { chains: [one] });
    const seen = (name: string) => readFileSync(join(dir, name), "utf8");
    expect([seen("small.out"), seen("small.err"), seen("small.status")]).toEqual(["out\n", "err\n", "3\n"]);
    expect([seen("big.out"), seen("big.err"), seen("big.status")]).toEqual(["a".repeat(70000), "b".repeat(66000), "0\n"]);
    const log = readFileSync(join(trajectoriesDir, "tiny-chain", "1.log"), "utf8");
    const ms = /^##\[chainswe\] exit \d+ (\d+)ms/gm;
    expect([...log.matchAll(ms)]).toHaveLength(2);
    expect(log.replace(ms, (m, t: string) => m.replace(`${t}ms`, "Nms"))).toBe(
      [
        "##[chainswe] step Probe the wrapper",
        "calling it twice",
        "##[chainswe] $ echo out; echo err >&2",
        "##[chainswe] > exit 3",
        "out",
        "##[chainswe] stderr",
        "err",
        "##[chainswe] exit 3 Nms",
        `##[chainswe] $ head -c 70000 /dev/zero | tr "\\0" a; head -c 66000 /dev/zero | tr "\\0" b >&2`,
        "a".repeat(65536),
        "##[chainswe] stderr",
        "b".repeat(65536),
        `##[chainswe] exit 0 Nms [${70000 - 65536 + (66000 - 65536)} bytes not logged]`,
        "done",
        "",
      ].join("\n"),
    );
    const outcome = trajectoryOutcomeSchema.parse(JSON.parse(readFileSync(join(trajectoriesDir, "tiny-chain", "1.json"), "utf8")));
    expect(outcome).toMatchObject({ continuous_id: "tiny-chain", order: 1, mode: "seq", exit_code: 0, timed_out: false, patch_empty: true, patch_source: "tree" });
  });
});

describe("the demo", () => {
  let demo: Dataset;
  let inikit: Chain;
  beforeAll(async () => {
    demo = await loadDataset(DEMO_DATASET);
    inikit = demo.chains.find((c) => c.continuous_id === "inikit-chain-1")!;
    await ensureDemoImages({ ...demo, chains: [inikit] });
  });
  const shipped = (file: string) =>
    readFileSync(file, "utf8")
      .trim()
      .split("\n")
      .filter((l) => (JSON.parse(l) as { continuous_id: string }).continuous_id === inikit.continuous_id);

  it("a demo system acting through the contract reproduces its shipped Seq lines byte for byte (but the measured wall time)", async () => {
    const agent = `node ${resolve("demo/agent.mjs")} demo --dataset ${DEMO_DATASET} --system demo-drifter`;
    const { out, trajectoriesDir } = await rollOut("seq", agent, { dataset: demo, chains: [inikit] });
    const mine = readFileSync(out, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.stringify({ ...(JSON.parse(l) as object), model_name_or_path: "demo-drifter", wall_seconds: undefined }));
    expect(mine).toEqual(shipped("demo/predictions/demo-drifter.seq.jsonl"));
    // its trajectory: steps, and the edits as logged calls
    const log = readFileSync(join(trajectoriesDir, "inikit-chain-1", "1.log"), "utf8");
    expect(log.match(/^##\[chainswe\] step .*$/gm)).toEqual(["##[chainswe] step Read the issue", "##[chainswe] step Apply the fix", "##[chainswe] step Edit inikit/values.py", "##[chainswe] step Run the tests", "##[chainswe] step Submit"]);
    expect(log).toMatch(/^##\[chainswe\] \$ git apply --exclude='inikit\/writer\.py'\n##\[chainswe\] exit 0 \d+ms$/m);
  });
});
