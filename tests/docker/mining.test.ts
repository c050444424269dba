/**
 * The mining pipeline end to end through the CLI, with the test re-execution filter in
 * Docker: instance files made from two demo repositories, one chain whose gold replay
 * passes and one whose FAIL_TO_PASS names a test that does not exist, then `select`
 * with the gold run as the Oracle directory. Two short chains (5 bugs in all).
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_DATASET, ensureDemoImages } from "@/cli/demo";
import { loadDataset } from "@/evaluator/dataset";
import { datasetStats } from "@/core/dataset/stats";
import { demoClones, demoInstance, writeInstanceFile } from "@/tests/mining/demo-instances";
import { ownSandboxes } from "./engine";

const run = promisify(execFile);
const CLI = "bin/chainswe.mjs";
const WRONG_TEST = "tests/test_span.py::test_that_does_not_exist";
let dir: string;

const jsonl = async (path: string) => (await readFile(path, "utf8")).split("\n").filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);

beforeAll(async () => {
  await ensureDemoImages(await loadDataset(DEMO_DATASET));
  dir = await mkdtemp(join(tmpdir(), "chainswe-mining-docker-"));
  await demoClones(dir);
  await writeInstanceFile(join(dir, "live.jsonl"), [1, 2, 3].map((k) => demoInstance("SWE-bench-Live", "inikit", k)));
  const [first, second] = [1, 2].map((k) => demoInstance("SWE-rebench", "dateranges", k));
  await writeInstanceFile(join(dir, "rebench.jsonl"), [first, { ...second, FAIL_TO_PASS: [...(second!.FAIL_TO_PASS as string[]), WRONG_TEST] }]);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("chainswe mine --verify and select", () => {
  it("keeps the chain whose gold replay passes, rejects the other with its reason, and selects by Oracle", async () => {
    const out = join(dir, "candidates.jsonl");
    const mined = await run("node", [CLI, "mine", "--instances", join(dir, "live.jsonl"), join(dir, "rebench.jsonl"), "--repos", join(dir, "repos"), "--out", out, "--verify", join(dir, "gold")]);
    expect(mined.stderr).toContain("re-execution: 1 kept, 1 rejected");
    const kept = await jsonl(out);
    expect(kept.map((c) => c.continuous_id)).toEqual(["chainswe-demo__inikit-1+3"]);
    const rejected = await jsonl(join(dir, "candidates.rejected.jsonl"));
    expect(rejected).toEqual([
      {
        continuous_id: "chainswe-demo__dateranges-1+2",
        reasons: [expect.stringMatching(new RegExp(`^bug 2 \\(chainswe-demo__dateranges-2\\) unresolved under gold: left_unfixed; failing: ${WRONG_TEST.replace(/[.[\]]/g, "\\$&")}$`))],
      },
    ]);
    // inikit 1-2 and 2-3 share no file; only the window of all three does (bugs 1 and 3)
    const dropped = await jsonl(join(dir, "candidates.dropped.jsonl"));
    expect(dropped.map((d) => d.id)).toEqual(["chainswe-demo__inikit-1+2", "chainswe-demo__inikit-2+2"]);

    const selectedPath = join(dir, "v1.jsonl");
    const selected = await run("node", [CLI, "select", out, "--out", selectedPath, "--oracle", join(dir, "gold")]);
    expect(selected.stdout).toMatch(/^1 chains, 3 bugs, 1 repositories, average length 3\n/);
    expect(selected.stdout).toContain("SWE-bench-Live\t1\t3");
    const dataset = await loadDataset(selectedPath);
    expect(dataset.chains.map((c) => c.continuous_id)).toEqual(["chainswe-demo__inikit-1+3"]);
    // the statistics as data: what `dataset import` would store for this file
    expect(JSON.parse(await readFile(join(dir, "v1.stats.json"), "utf8"))).toEqual(datasetStats(dataset.chains));
    expect(await ownSandboxes()).toEqual([]);
  });
});
