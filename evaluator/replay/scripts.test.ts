/**
 * The replay's bash-script builders as text: quoting, tagged-output parsing and
 * the shape of the bug script (SPEC §3 steps 1–2). scripts.replay.test.ts runs
 * the same scripts with bash against a real git repository.
 */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { bugScript, goldStatesScript, MODEL_DIFF, q, taggedLines, TEST_DIFF, testScript, type BugScriptInput } from "./scripts";

const TOKEN = "CHAINSWE-00112233445566778899aabb";
const G1 = "8c967919b0afe5684163361ebeed2b8196f12f79";
const A1 = "5e0c3f1d2b4a69788796a5b4c3d2e1f0a9b8c7d6";

/** What bash makes of `printf %s <q(s)>`. */
function echoed(s: string): string {
  const run = spawnSync("bash", ["-c", `printf %s ${q(s)}`], { encoding: "utf8" });
  expect(run.status).toBe(0);
  return run.stdout;
}

describe("q", () => {
  it.each([
    ["plain", "tests/test_convert.py"],
    ["empty", ""],
    ["spaces", "docs/user guide/install notes.md"],
    ["single quotes", "it's 'quoted'"],
    ["only a quote", "'"],
    ["the escape sequence itself", `'\\''`],
    ["double quotes and expansions", '"$HOME" ${PATH} $(id) `id` !! *'],
    ["backslashes", "a\\b\\\\c\\n"],
    ["newlines and tabs", "line 1\nline 2\tend\n"],
    ["a command injection attempt", "x'; touch /tmp/pwned; echo '"],
    ["non-ASCII", "tést/ünïcode ✓.py"],
  ])("round-trips %s through bash", (_name, s) => {
    expect(echoed(s)).toBe(s);
  });

  it("wraps in single quotes and rewrites each ' as '\\''", () => {
    expect(q("a'b")).toBe(`'a'\\''b'`);
  });
});

describe("taggedLines", () => {
  it("splits each tagged line into key and rest", () => {
    const out = [`${TOKEN} METHOD git_apply`, `${TOKEN} DISCARDED sub dir/conftest.py`, `${TOKEN} STATE ${A1}`, `${TOKEN} TESTPATCH_FAILED`].join("\n");
    expect(taggedLines(out, TOKEN)).toEqual([
      { key: "METHOD", rest: "git_apply" },
      { key: "DISCARDED", rest: "sub dir/conftest.py" },
      { key: "STATE", rest: A1 },
      { key: "TESTPATCH_FAILED", rest: "" },
    ]);
  });

  it("ignores lines that do not start with exactly the token and a space", () => {
    const out = [
      ">>> git apply --verbose /tmp/chainswe/model.diff",
      `Checking patch ${TOKEN} STATE forged...`,
      ` ${TOKEN} STATE indented`,
      `${TOKEN}0 STATE longer-token`,
      `${TOKEN.slice(0, -1)} STATE shorter-token`,
      `chainswe-00112233445566778899aabb STATE lower-case`,
      `${TOKEN}`,
      `${TOKEN}\tSTATE tab`,
      `${TOKEN} METHOD patch`,
      "",
    ].join("\n");
    expect(taggedLines(out, TOKEN)).toEqual([{ key: "METHOD", rest: "patch" }]);
  });
});

describe("bugScript", () => {
  const input: BugScriptInput = {
    token: TOKEN,
    start: A1,
    goldPrev: G1,
    hasModelPatch: true,
    testFiles: [
      { from: "tests/test_convert.py", to: "tests/test_convert.py" },
      { from: null, to: "tests/data/it's here.txt" },
    ],
    patchPaths: ["units/convert.py", "tests/test_convert.py", "tests/data/it's here.txt"],
  };
  const script = bugScript(input);
  const at = (needle: string) => {
    const i = script.indexOf(needle);
    expect(i, `script lacks ${needle}`).toBeGreaterThanOrEqual(0);
    return i;
  };

  it("works in /testbed and starts from a clean start state", () => {
    expect(script.split("\n")[0]).toBe("cd /testbed");
    expect(at(`START='${A1}'`)).toBeLessThan(at('else reset_to "$START"; fi\n'));
  });

  it("tries the apply methods in the SPEC (SWE-bench) order, resetting after each failure", () => {
    const gitApply = at(`if git apply --verbose ${MODEL_DIFF}; then method=git_apply; else reset_to "$START"; fi`);
    const reject = at(`if git apply --verbose --reject ${MODEL_DIFF}; then method=git_apply_reject; else reset_to "$START"; fi`);
    const patch = at(`if outside_git patch --batch --fuzz=5 -p1 --no-backup-if-mismatch -i ${MODEL_DIFF}; then method=patch; else reset_to "$START"; fi`);
    expect(gitApply).toBeLessThan(reject);
    expect(reject).toBeLessThan(patch);
    expect(patch).toBeLessThan(at(`echo "${TOKEN} METHOD $method"`));
    expect(at("command -v patch >/dev/null 2>&1")).toBeLessThan(patch);
    expect(script).toContain(`echo ">>> patch is not in the image; skipped"`);
  });

  it("discards runner configuration, then restores test files from the gold state, then applies the test patch", () => {
    const discard = at("conftest.py|pytest.ini|tox.ini) restore_from \"$START\"");
    // files the test patch modifies come back from G(k-1); files it creates are removed
    const restore1 = at(`git checkout -q '${G1}' -- 'tests/test_convert.py'`);
    const restore2 = at(`rm -rf -- 'tests/data/it'\\''s here.txt'`);
    const testPatch = at(`git apply --verbose ${TEST_DIFF} || { echo "${TOKEN} TESTPATCH_FAILED"; exit 0; }`);
    expect(discard).toBeLessThan(restore1);
    expect(restore1).toBeLessThan(restore2);
    expect(restore2).toBeLessThan(testPatch);
    expect(testPatch).toBeLessThan(at(`echo "${TOKEN} STATE $commit"`));
    expect(script).not.toContain(`'${A1}' --`);
  });

  it("without a model patch, tries nothing and reports METHOD none", () => {
    const none = bugScript({ ...input, hasModelPatch: false });
    expect(none).toContain(`echo "${TOKEN} METHOD none"`);
    expect(none).not.toContain(MODEL_DIFF);
    expect(none).toContain(`git apply --verbose ${TEST_DIFF}`);
  });

  it("is valid bash", () => {
    const check = spawnSync("bash", ["-n"], { input: script, encoding: "utf8" });
    expect(check.stderr).toBe("");
    expect(check.status).toBe(0);
  });
});

describe("goldStatesScript and testScript", () => {
  it("applies test patch k then gold patch k for each k to an index of its own, reporting G0..Gn", () => {
    const s = goldStatesScript(TOKEN, "760428209dc4cb70249fc28d98fd921840d35bd8", 2);
    const gi = "GIT_INDEX_FILE=/tmp/chainswe/gold.index";
    const order = [
      "G0=$(git rev-parse -q --verify '760428209dc4cb70249fc28d98fd921840d35bd8^{commit}')",
      `echo "${TOKEN} G0 $G0"`,
      `${gi} git read-tree "$G0"`,
      `${gi} git apply --cached --verbose /tmp/chainswe/gold/1.test.diff /tmp/chainswe/gold/1.fix.diff`,
      `echo "${TOKEN} G1 $G1"`,
      `${gi} git apply --cached --verbose /tmp/chainswe/gold/2.test.diff /tmp/chainswe/gold/2.fix.diff`,
      `echo "${TOKEN} G2 $G2"`,
    ].map((needle) => s.indexOf(needle));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(spawnSync("bash", ["-n"], { input: s }).status).toBe(0);
  });

  it("runs the test commands in order from the repository root", () => {
    expect(testScript(["pip install -e .", "pytest -rA tests/test_convert.py"])).toBe("cd /testbed\npip install -e .\npytest -rA tests/test_convert.py");
  });
});
