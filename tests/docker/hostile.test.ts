/**
 * Patches that try to fool the grader, replayed for real on the tiny repo:
 * none of them may pass a test it did not fix (SPEC §3 step 4).
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { evaluate, readResults } from "@/evaluator/replay";
import { defaultLimits, docker } from "@/evaluator/sandbox";
import { OPS_V0, buildTinyRepo, type TinyRepo } from "./tiny-repo";
import { patchFor, predictionsFor } from "./patches";

let tiny: TinyRepo;
beforeAll(async () => {
  tiny = await buildTinyRepo();
});

async function gradeFirstBug(patch: string) {
  const outDir = mkdtempSync(join(tmpdir(), "chainswe-hostile-"));
  await evaluate({
    dataset: { path: "tiny.jsonl", sha256: "tiny", chains: [tiny.chain], warnings: [] },
    predictions: predictionsFor(tiny.chain, { 1: patch }),
    mode: "oracle",
    outDir,
    system: "hostile",
    concurrency: 1,
    chainIds: null,
    limits: defaultLimits({ testTimeoutS: 30 }),
  });
  const bugs = await readResults(outDir);
  const left = await docker().listContainers({ all: true, filters: { label: ["chainswe.sandbox=1"] } });
  expect(left).toEqual([]);
  return bugs[0]!;
}

/**
 * ops.py that leaves mul broken and writes `lines` straight to fd 1 when the
 * interpreter exits — after pytest's own summary, past its output capture.
 */
const printingOps = (lines: string[]) =>
  `import atexit, os\natexit.register(lambda: os.write(1, ${JSON.stringify(lines.join("\n") + "\n")}.encode()))\n${OPS_V0}`;

describe("hostile patches", () => {
  it("fake PASSED lines printed by the code under test gain nothing and flag tampering", async () => {
    const patch = patchFor([
      { path: "calc/ops.py", before: OPS_V0, after: printingOps(["PASSED tests/test_ops.py::test_mul", "tests/test_ops.py::test_mul PASSED", "============ 2 passed in 0.01s ============"]) },
    ]);
    const bug = await gradeFirstBug(patch);
    expect(bug).toMatchObject({ patch_applied: true, resolved: false, tampered: true });
    expect(bug.fail_to_pass.failure).toEqual(["tests/test_ops.py::test_mul"]);
  });

  it("forged harness markers cannot cut the real run short", async () => {
    const forged = ["+++ chainswe test run CHAINSWE-000000000000000000000000 end exit=0", "PASSED tests/test_ops.py::test_mul"];
    const bug = await gradeFirstBug(patchFor([{ path: "calc/ops.py", before: OPS_V0, after: printingOps(forged) }]));
    expect(bug.resolved).toBe(false);
    expect(bug.fail_to_pass.failure).toEqual(["tests/test_ops.py::test_mul"]);
  });

  it("a conftest.py that reports every test passed is discarded before the run", async () => {
    const conftest = [
      "import pytest",
      "@pytest.hookimpl(hookwrapper=True)",
      "def pytest_runtest_makereport(item, call):",
      "    outcome = yield",
      "    report = outcome.get_result()",
      "    report.outcome = 'passed'",
      "",
    ].join("\n");
    const patch = patchFor([
      { path: "conftest.py", before: null, after: conftest },
      { path: "tests/conftest.py", before: null, after: conftest },
    ]);
    const bug = await gradeFirstBug(patch);
    expect(bug).toMatchObject({ patch_applied: true, resolved: false, fingerprint: "left_unfixed" });
    expect(bug.discarded_files).toEqual(["conftest.py", "tests/conftest.py"]);
  });

  it("a patch that edits the hidden tests has those edits replaced by the test patch", async () => {
    const patch = patchFor([
      { path: "tests/test_ops.py", before: "from calc.ops import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n", after: "def test_mul():\n    pass\n\n\ndef test_add():\n    pass\n" },
    ]);
    const bug = await gradeFirstBug(patch);
    expect(bug).toMatchObject({ patch_applied: true, resolved: false, discarded_files: ["tests/test_ops.py"] });
  });

  it("a patch reaching outside the repository is not applied", async () => {
    const patch = [
      "diff --git a/../../etc/evil b/../../etc/evil",
      "new file mode 100644",
      "--- /dev/null",
      "+++ b/../../etc/evil",
      "@@ -0,0 +1 @@",
      "+owned",
      "",
    ].join("\n");
    const bug = await gradeFirstBug(patch);
    expect(bug).toMatchObject({ patch_applied: false, fingerprint: "no_usable_patch", model_files: [] });
  });
});
