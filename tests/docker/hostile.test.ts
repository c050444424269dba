/**
 * Patches that try to fool the grader or escape the repository, replayed for
 * real on the tiny repo: none of them may pass a test it did not fix (SPEC §3
 * step 4), write outside the repository, reach a later bug of the chain, crash
 * the evaluator, or leave a container behind (gradeHostile checks the last two).
 */
import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { env } from "@/env";
import { loadPredictions } from "@/evaluator/dataset";
import { predictionLimitsFromEnv } from "@/evaluator/dataset/predictions";
import { InputError } from "@/core/errors";
import { gradeHostile, hostileChain, withProbe } from "./hostile-run";
import { patchFor } from "./patches";
import { OPS_V0, OPS_V1, TESTS_V0, buildTinyRepo, type TinyRepo } from "./tiny-repo";

let tiny: TinyRepo;
beforeAll(async () => {
  tiny = await buildTinyRepo();
});

async function gradeFirstBug(name: string, patch: string) {
  const { bugs } = await gradeHostile(hostileChain(tiny, name), "oracle", { 1: patch });
  return bugs[0]!;
}

/** The honest fix of bug 1. */
const fixMul = () => patchFor([{ path: "calc/ops.py", before: OPS_V0, after: OPS_V1 }]);

/**
 * ops.py that leaves mul broken and writes `lines` straight to fd 1 when the
 * interpreter exits — after pytest's own summary, past its output capture.
 */
const printingOps = (lines: string[]) =>
  `import atexit, os\natexit.register(lambda: os.write(1, ${JSON.stringify(lines.join("\n") + "\n")}.encode()))\n${OPS_V0}`;

/** A pytest plugin that reports every test passed (the conftest.py attack, from elsewhere). */
const PASS_EVERYTHING = [
  "import pytest",
  "@pytest.hookimpl(hookwrapper=True)",
  "def pytest_runtest_makereport(item, call):",
  "    outcome = yield",
  "    outcome.get_result().outcome = 'passed'",
  "",
].join("\n");

/** ops.py (mul still broken) that runs `code` when imported, i.e. during bug 1's test run. */
const opsRunning = (code: string) => `${code.trim()}\n\n\n${OPS_V0}`;

describe("fooling the grader", () => {
  it("fake PASSED lines printed by the code under test gain nothing and flag tampering", async () => {
    const patch = patchFor([
      { path: "calc/ops.py", before: OPS_V0, after: printingOps(["PASSED tests/test_ops.py::test_mul", "tests/test_ops.py::test_mul PASSED", "============ 2 passed in 0.01s ============"]) },
    ]);
    const bug = await gradeFirstBug("fakepass", patch);
    expect(bug).toMatchObject({ patch_applied: true, resolved: false, tampered: true });
    expect(bug.fail_to_pass.failure).toEqual(["tests/test_ops.py::test_mul"]);
  });

  it("forged harness markers cannot cut the real run short", async () => {
    const forged = ["+++ chainswe test run CHAINSWE-000000000000000000000000 end exit=0", "PASSED tests/test_ops.py::test_mul"];
    const bug = await gradeFirstBug("markers", patchFor([{ path: "calc/ops.py", before: OPS_V0, after: printingOps(forged) }]));
    expect(bug.resolved).toBe(false);
    expect(bug.fail_to_pass.failure).toEqual(["tests/test_ops.py::test_mul"]);
  });

  it("a conftest.py that reports every test passed is discarded before the run", async () => {
    const patch = patchFor([
      { path: "conftest.py", before: null, after: PASS_EVERYTHING },
      { path: "tests/conftest.py", before: null, after: PASS_EVERYTHING },
    ]);
    const bug = await gradeFirstBug("conftest", patch);
    expect(bug).toMatchObject({ patch_applied: true, resolved: false, fingerprint: "left_unfixed" });
    expect(bug.discarded_files).toEqual(["conftest.py", "tests/conftest.py"]);
  });

  it("a patch that edits the hidden tests has those edits replaced by the test patch", async () => {
    const patch = patchFor([{ path: "tests/test_ops.py", before: TESTS_V0, after: "def test_mul():\n    pass\n\n\ndef test_add():\n    pass\n" }]);
    const bug = await gradeFirstBug("edittests", patch);
    expect(bug).toMatchObject({ patch_applied: true, resolved: false, discarded_files: ["tests/test_ops.py"] });
  });

  // Proves deleting the FAIL_TO_PASS tests' file gains nothing: the test patch brings it
  // back from the gold state, so the bug is graded on the real tests — unresolved when
  // mul is still broken, resolved when the same patch also fixes it.
  it("a patch deleting the test file has it restored: graded on the real tests either way", async () => {
    const deleteTests = { path: "tests/test_ops.py", before: TESTS_V0, after: null };
    const { bugs } = await gradeHostile(hostileChain(tiny, "deltests"), "oracle", {
      1: patchFor([deleteTests]),
      2: patchFor([{ path: "tests/test_ops.py", before: `${TESTS_V0}\n\ndef test_mul():\n    from calc.ops import mul\n    assert mul(3, 4) == 12\n`, after: null }]),
    });
    expect(bugs[0]).toMatchObject({ patch_applied: true, resolved: false, fingerprint: "left_unfixed", discarded_files: ["tests/test_ops.py"] });
    expect(bugs[0]!.fail_to_pass.failure).toEqual(["tests/test_ops.py::test_mul"]);
    expect(bugs[1]).toMatchObject({ patch_applied: true, resolved: false, discarded_files: ["tests/test_ops.py"] });
    expect(bugs[1]!.fail_to_pass.failure).toEqual(["tests/test_ops.py::test_cube"]);

    const fixed = await gradeFirstBug("delfix", patchFor([deleteTests, { path: "calc/ops.py", before: OPS_V0, after: OPS_V1 }]));
    expect(fixed).toMatchObject({ patch_applied: true, resolved: true, discarded_files: ["tests/test_ops.py"] });
    expect(fixed.fail_to_pass.success).toEqual(["tests/test_ops.py::test_mul"]);
  });
});

describe("state left for the next bug", () => {
  /** After bug 1's tests: a fresh pytest passes every test only with the planted plugin switched on. */
  const PLUGIN_PROBE = "if python3 -m pytest -q -p no:cacheprovider tests >/dev/null 2>&1; then echo 'PROBE plugin took effect: every test passes'; fi";

  /**
   * Oracle: bug 1 runs `planter` (ops.py, mul still broken), and `probe` after its
   * tests must print `planted`: the attack took effect in bug 1's container. Only
   * then is bug 2's empty patch checked to be graded on the real tests alone.
   */
  async function expectPlantedPluginGone(name: string, planter: string, probe: string, planted: string) {
    const { bugs, logs } = await gradeHostile(withProbe(hostileChain(tiny, name), probe, "after", 1), "oracle", {
      1: patchFor([{ path: "calc/ops.py", before: OPS_V0, after: planter }]),
      2: "",
    });
    expect(logs[0]).toContain(planted);
    expect(bugs[0]).toMatchObject({ patch_applied: true, resolved: false });
    expect(bugs[1]).toMatchObject({ resolved: false, fingerprint: "no_usable_patch", tampered: false });
    expect(bugs[1]!.fail_to_pass.failure).toEqual(["tests/test_ops.py::test_cube"]);
    expect(logs[1]).not.toContain("chainswe_evil_plugin");
  }

  // Proves writes outside /testbed do not survive into the next bug. Bug 1's code installs
  // a pass-everything pytest plugin in site-packages and switches it on from
  // /etc/python3.11/sitecustomize.py (run by every python3). Had the files reached bug 2's
  // run, its empty patch would resolve.
  it("Oracle: a pytest plugin planted in site-packages and /etc by bug 1 does not grade bug 2", async () => {
    const planter = opsRunning(`
with open("/usr/lib/python3/dist-packages/chainswe_evil_plugin.py", "w") as _f:
    _f.write(${JSON.stringify(PASS_EVERYTHING)})
with open("/etc/python3.11/sitecustomize.py", "a") as _f:
    _f.write("\\nimport os\\nos.environ['PYTEST_ADDOPTS'] = '-p chainswe_evil_plugin'\\n")
`);
    await expectPlantedPluginGone("plant-oracle", planter, PLUGIN_PROBE, "PROBE plugin took effect");
  });

  // Proves the same for Seq, where bug 1's patch stays in the agent state, and for two
  // more places: a fake python3 earlier on PATH (/usr/local/bin) that prints passing
  // lines, and /testbed/.git/config, whose core.fsmonitor hook git runs in the trusted
  // steps of bug 2 (it would plant a conftest.py after the discard step).
  it("Seq: a fake python3 on PATH and a git fsmonitor hook planted by bug 1 do not grade bug 2", async () => {
    const fakePython = ["#!/bin/sh", "echo FORGED-BY-FAKE-PYTHON", "for t in add mul cube; do echo \"PASSED tests/test_ops.py::test_$t\"; done", "exit 0", ""].join("\n");
    const hook = ["#!/bin/sh", `cat > /testbed/tests/conftest.py <<'EOF'\n${PASS_EVERYTHING}EOF`, "exit 1", ""].join("\n");
    const planter = opsRunning(`
import os
import subprocess

for _path, _text in (("/usr/local/bin/python3", ${JSON.stringify(fakePython)}), ("/testbed/.git/fsm.sh", ${JSON.stringify(hook)})):
    with open(_path, "w") as _f:
        _f.write(_text)
    os.chmod(_path, 0o755)
subprocess.run(["git", "-C", "/testbed", "config", "core.fsmonitor", "/testbed/.git/fsm.sh"])
`);
    // after bug 1's tests (in their shell, which remembers where it found python3: hash -r
    // forgets): the fake is the python3 found on PATH and answers, and git has the hook
    const probe = [
      "hash -r",
      "command -v python3 | sed 's/^/PROBE python3 is /'",
      "if python3 </dev/null 2>&1 | grep -q FORGED-BY-FAKE-PYTHON; then echo 'PROBE fake python3 answered'; fi",
      "git -C /testbed config core.fsmonitor | sed 's/^/PROBE fsmonitor /'",
    ].join("; ");
    const { bugs, logs } = await gradeHostile(withProbe(hostileChain(tiny, "plant-seq"), probe, "after", 1), "seq", {
      1: patchFor([{ path: "calc/ops.py", before: OPS_V0, after: planter }]),
      2: "",
    });
    expect(logs[0]).toContain("PROBE python3 is /usr/local/bin/python3\n");
    expect(logs[0]).toContain("PROBE fake python3 answered\n");
    expect(logs[0]).toContain("PROBE fsmonitor /testbed/.git/fsm.sh\n");
    expect(bugs[0]).toMatchObject({ patch_applied: true, resolved: false });
    expect(bugs[1]).toMatchObject({ resolved: false, tampered: false, discarded_files: [] });
    expect(bugs[1]!.fail_to_pass.failure).toEqual(["tests/test_ops.py::test_cube"]);
    expect(logs[1]).not.toContain("FORGED-BY-FAKE-PYTHON");
  });

  // Proves bug 2 does not run on bug 1's programs: bug 1 swaps /usr/bin/bash (PID 1's
  // shell) for a wrapper that, as PID 1, would plant the plugin again every 0.2 s.
  // Bug 2's container is a fresh one of the image, so its PID 1 is the image's bash.
  it("Oracle: a /usr/bin/bash replaced by bug 1 is not what PID 1 runs for bug 2", async () => {
    const plant = [
      `echo ${Buffer.from(PASS_EVERYTHING).toString("base64")} | base64 -d > /usr/lib/python3/dist-packages/chainswe_evil_plugin.py`,
      `echo "import os; os.environ['PYTEST_ADDOPTS'] = '-p chainswe_evil_plugin'" > /etc/python3.11/sitecustomize.py`,
    ].join("; ");
    // CHAINSWE_SWAP_PROBE lets the probe below see that the wrapper, not bash, answers /usr/bin/bash
    const wrapper = [
      "#!/bin/sh",
      `if [ "$$" = 1 ]; then ( while :; do ${plant}; sleep 0.2; done ) & fi`,
      '[ -z "$CHAINSWE_SWAP_PROBE" ] || echo "PROBE swapped bash answered"',
      'exec /usr/bin/bash.real "$@"',
      "",
    ].join("\n");
    const planter = opsRunning(`
import os, shutil
shutil.copy2("/usr/bin/bash", "/usr/bin/bash.real")
with open("/usr/bin/bash.new", "w") as _f:
    _f.write(${JSON.stringify(wrapper)})
os.chmod("/usr/bin/bash.new", 0o755)
os.rename("/usr/bin/bash.new", "/usr/bin/bash")
`);
    await expectPlantedPluginGone("bash-pid1", planter, "CHAINSWE_SWAP_PROBE=1 /usr/bin/bash -c true", "PROBE swapped bash answered\n");
  });
});

describe("fixes the patch was not given", () => {
  // The code under test looks for its own bug's gold fix wherever it could be in
  // its container — every git object, every file under /tmp — and, found,
  // switches the correct mul on. The states are built elsewhere and the bug's
  // container receives its graded state as content only, so there is nothing to find.
  it("the gold fix of the bug under test is in no git object and no file of its container", async () => {
    const searcher = opsRunning(`
import os
import subprocess


def _gold_in_reach():
    # built at run time, so this file's own text does not contain them
    in_tree = ("    return a " + "* b\\n\\n\\ndef square").encode()
    in_diff = ("+    return a " + "* b").encode()
    objects = subprocess.run(["git", "-C", "/testbed", "cat-file", "--batch-all-objects", "--batch"], capture_output=True).stdout
    if in_tree in objects:
        return True
    for root, _dirs, names in os.walk("/tmp"):
        for name in names:
            try:
                with open(os.path.join(root, name), "rb") as f:
                    data = f.read()
            except OSError:
                continue
            if in_tree in data or in_diff in data:
                return True
    return False


_FOUND = _gold_in_reach()
# past pytest's output capture, as printingOps does
import atexit
atexit.register(lambda: os.write(1, b"GOLD-IN-REACH\\n" if _FOUND else b"GOLD-OUT-OF-REACH\\n"))
`);
    const patch = patchFor([{ path: "calc/ops.py", before: OPS_V0, after: `${searcher}\n\nif _FOUND:\n    def mul(a, b):\n        return b * a\n` }]);
    const { bugs, logs } = await gradeHostile(hostileChain(tiny, "gold-search"), "oracle", { 1: patch });
    expect(logs[0]).toContain("GOLD-OUT-OF-REACH");
    expect(bugs[0]).toMatchObject({ patch_applied: true, resolved: false });
  });
});

describe("patch shapes", () => {
  /** Prints a line for every place outside the work tree a patch might have written. */
  const PROBE = 'for f in /etc/evil /tmp/evil /evil /testbed/.git/evil /testbed/.git/config.evil; do [ -e "$f" ] && echo "PROBE-FOUND $f"; done; echo PROBE-RAN';

  /** The fix of mul with a context line git will not match: only patch(1)'s fuzz applies it. */
  const fuzzyFixMul = () => {
    const fix = fixMul();
    expect(fix).toContain("\n def square(a):\n");
    return fix.replace("\n def square(a):\n", "\n def square(x):\n");
  };

  const newFile = (header: string, path: string) => `${header}--- /dev/null\n+++ ${path}\n@@ -0,0 +1 @@\n+owned\n`;
  const contextSection = (path: string) => `*** a/${path}\t2024-01-01\n--- b/${path}\t2024-01-01\n***************\n*** 0 ****\n--- 1 ----\n+ owned\n`;
  const symlinkIntoGit = [
    "diff --git a/calc/l b/calc/l",
    "new file mode 120000",
    "--- /dev/null",
    "+++ b/calc/l",
    "@@ -0,0 +1 @@",
    "+../.git",
    "\\ No newline at end of file",
    "diff --git a/calc/l/evil b/calc/l/evil",
    "new file mode 100644",
    "--- /dev/null",
    "+++ b/calc/l/evil",
    "@@ -0,0 +1 @@",
    "+owned",
    "",
  ].join("\n");

  // Unsafe names the host-side check sees are never handed to git or patch(1).
  it.each([
    ["a ../ path in the git header", newFile("diff --git a/../../etc/evil b/../../etc/evil\nnew file mode 100644\n", "b/../../etc/evil")],
    ["an absolute path", newFile("", "/tmp/evil")],
    ["a ../ inside the path", newFile("", "b/calc/../../evil")],
    ["a C-quoted ../", newFile("", '"b/\\056\\056/evil"')],
    ["a path into .git", newFile("", "b/.git/config.evil")],
  ])("%s: not applied, nothing written", async (_name, patch) => {
    const { bugs, logs } = await gradeHostile(withProbe(hostileChain(tiny, "paths"), PROBE), "oracle", { 1: `${patch}${fixMul()}` });
    expect(bugs[0]).toMatchObject({ patch_applied: false, fingerprint: "no_usable_patch", model_files: [] });
    expect(logs[0]).toContain(">>> patch not applied: unsafe path(s)");
    expect(logs[0]).toContain("PROBE-RAN");
    expect(logs[0]).not.toContain("PROBE-FOUND");
  });

  // Sections git and parse-diff never see reach patch(1), the last fallback. It refuses
  // `..` and symlinks it cannot follow inside the tree (then the whole patch is not
  // applied), makes absolute names relative (the file lands inside the repository), and —
  // since .git is moved out while it runs — cannot write into .git (the write is dropped).
  it.each([
    ["a context-diff section with ../", () => fuzzyFixMul() + contextSection("../../evil"), false],
    ["a symlink to ../.git and a file through it", () => fuzzyFixMul() + symlinkIntoGit, false],
    ["a context-diff section with an absolute path", () => fuzzyFixMul() + contextSection("/tmp/evil"), true],
    ["a context-diff section into .git", () => fuzzyFixMul() + contextSection(".git/evil"), true],
  ])("%s: nothing written outside the work tree", async (_name, makePatch, applied) => {
    const { bugs, logs } = await gradeHostile(withProbe(hostileChain(tiny, "hidden"), PROBE), "oracle", { 1: makePatch() });
    expect(bugs[0], logs[0]).toMatchObject(applied ? { apply_method: "patch", resolved: true } : { patch_applied: false, fingerprint: "no_usable_patch" });
    expect(logs[0]).toContain(">>> patch --batch --fuzz=5");
    expect(logs[0]).toContain("PROBE-RAN");
    expect(logs[0]).not.toContain("PROBE-FOUND");
  });

  // Proves git's binary patches work end to end (the bytes arrive exactly), and that a
  // corrupt one is handled without a crash: alone it is not applied; after a text section,
  // git apply drops the corrupt binary section (saying so, yet exiting 0) and the text
  // part is graded on its own.
  it("a binary patch (GIT binary patch literal) applies byte for byte; a corrupt one is dropped cleanly", async () => {
    const blob = Buffer.concat([Buffer.from([0, 1, 2, 255, 0]), randomBytes(4096)]);
    const sha = createHash("sha256").update(blob).digest("hex");
    const addBlob = { path: "data/blob.bin", before: null, after: blob };
    const patch = patchFor([{ path: "calc/ops.py", before: OPS_V0, after: OPS_V1 }, addBlob], { binary: true });
    expect(patch).toContain("GIT binary patch\nliteral 4101\n");
    const chain = withProbe(hostileChain(tiny, "binary"), "sha256sum data/blob.bin 2>&1 | sed 's/^/BLOB /'");
    const { bugs, logs } = await gradeHostile(chain, "oracle", { 1: patch });
    expect(bugs[0]).toMatchObject({ patch_applied: true, apply_method: "git_apply", resolved: true });
    expect(bugs[0]!.model_files).toEqual(["calc/ops.py", "data/blob.bin"]);
    expect(logs[0]).toContain(`BLOB ${sha}  data/blob.bin`);

    // half the data lines of the literal gone: it no longer inflates to the size it states
    const corrupt = (p: string) => {
      const lines = p.split("\n");
      const at = lines.indexOf("literal 4101") + 1;
      lines.splice(at + 1, Math.floor(lines.slice(at).indexOf("") / 2));
      return lines.join("\n");
    };
    const alone = await gradeHostile(withProbe(hostileChain(tiny, "binary-corrupt"), "sha256sum data/blob.bin 2>&1 | sed 's/^/BLOB /'"), "oracle", {
      1: corrupt(patchFor([addBlob], { binary: true })),
    });
    expect(alone.bugs[0]).toMatchObject({ patch_applied: false, fingerprint: "no_usable_patch" });
    expect(alone.logs[0]).toContain("corrupt binary patch");
    const mixed = await gradeHostile(withProbe(hostileChain(tiny, "binary-mixed"), "sha256sum data/blob.bin 2>&1 | sed 's/^/BLOB /'"), "oracle", { 1: corrupt(patch) });
    expect(mixed.bugs[0]).toMatchObject({ patch_applied: true, apply_method: "git_apply", resolved: true });
    expect(mixed.logs[0]).toContain("corrupt binary patch");
    expect(mixed.logs[0]).toContain("BLOB sha256sum: data/blob.bin: No such file or directory");
  });

  // Proves size: the portal refuses a patch over CHAINSWE_MAX_PATCH_KB at upload, naming
  // the line and field; the evaluator itself (local files, no such limit) applies and
  // grades a 50 MB patch (within the docker project's test budget).
  it("an enormous (50 MB) patch: rejected at upload, applied and graded by the evaluator", async () => {
    const big = Array.from({ length: 50 * 1024 }, (_, i) => `${String(i).padStart(8, "0")} ${"x".repeat(1014)}`).join("\n");
    const patch = patchFor([{ path: "calc/ops.py", before: OPS_V0, after: OPS_V1 }, { path: "data/big.txt", before: null, after: `${big}\n` }]);
    expect(patch.length).toBeGreaterThan(50 * 1024 * 1024);

    const chain = hostileChain(tiny, "enormous");
    const file = join(mkdtempSync(join(tmpdir(), "chainswe-enormous-")), "preds.jsonl");
    writeFileSync(file, `${JSON.stringify({ continuous_id: chain.continuous_id, swebench_instance_id: "tiny-1", model_patch: patch })}\n`);
    const refused = await loadPredictions(file, [chain], predictionLimitsFromEnv(env())).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(InputError);
    expect((refused as InputError).issues).toEqual([{ line: 1, field: "model_patch", message: expect.stringMatching(/over the .* limit per patch/) as unknown }]);

    const { bugs } = await gradeHostile(chain, "oracle", { 1: patch });
    expect(bugs[0]).toMatchObject({ patch_applied: true, resolved: true });
  });
});
