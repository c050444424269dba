/**
 * Runs the replay's real bash scripts (goldStatesScript, bugScript) on the host
 * against a temporary git repository: the fixture chain's base tree
 * (tests/fixtures/inputs/units-base-tree.json) at its exact base_commit.
 * The scripts' fixed paths are rewritten to temp dirs — `cd /testbed` to the
 * repository, /tmp/chainswe to a private work dir — so parallel runs never meet.
 * Tests share one repository and run in order; every bug script resets to its
 * start state first.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseUnifiedDiff, touchedFiles } from "@/core/diff";
import type { Chain } from "@/core/schemas/dataset";
import { chainSchema } from "@/core/schemas/dataset";
import { bugScript, chainStatesScript, goldDiffPath, goldFixPath, goldStatesScript, gradedStateScript, MODEL_DIFF, q, replayModelPath, STATE_DIFF, STATE_PATHS, stateFrameTag, statePathsPath, stateDiffPath, taggedLines, TEST_DIFF, WORK_DIR } from "./scripts";
import { OutputFrames } from "@/evaluator/sandbox/output";

const FIXTURES = new URL("../../tests/fixtures/inputs/", import.meta.url);
const BASE_TREE = JSON.parse(readFileSync(new URL("units-base-tree.json", FIXTURES), "utf8")) as Record<string, string>;
const [CHAIN_1, CHAIN_2] = readFileSync(new URL("units-chains.jsonl", FIXTURES), "utf8")
  .trim()
  .split("\n")
  .map((l) => chainSchema.parse(JSON.parse(l))) as [Chain, Chain];
const bug = (chain: Chain, order: number) => {
  const b = chain.bug_fixes[order - 1];
  if (!b) throw new Error(`no bug ${order}`);
  return b;
};

const TOKEN = "CHAINSWE-0badc0ffee0badc0ffee0bad";
const HAS_PATCH = spawnSync("bash", ["-c", "command -v patch"]).status === 0;
/** Appended to the name of a test that needs GNU patch on the host, so a skip says why. */
const NEEDS_PATCH = HAS_PATCH ? "" : " (skipped: GNU patch is not installed on this host; scripts/setup.sh installs it)";

const ENV = {
  ...process.env,
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_CONFIG_SYSTEM: "/dev/null",
  GIT_AUTHOR_NAME: "Acme Dev",
  GIT_AUTHOR_EMAIL: "dev@acme.example",
  GIT_COMMITTER_NAME: "Acme Dev",
  GIT_COMMITTER_EMAIL: "dev@acme.example",
  GIT_AUTHOR_DATE: "2023-03-01T09:00:00Z",
  GIT_COMMITTER_DATE: "2023-03-01T09:00:00Z",
};

let root: string;
let repo: string;
let work: string;
/** Gold states G0..G2 of chain 1, as built by goldStatesScript. */
let G: string[] = [];

function git(...args: string[]): string {
  return execFileSync("git", args, { cwd: repo, env: ENV, encoding: "utf8" }).trim();
}

/** File content at a commit, or null if the commit lacks it. */
function fileAt(commit: string, path: string): string | null {
  const run = spawnSync("git", ["show", `${commit}:${path}`], { cwd: repo, env: ENV, encoding: "utf8" });
  return run.status === 0 ? run.stdout : null;
}

function filesAt(commit: string): string[] {
  return git("ls-tree", "-r", "--name-only", commit).split("\n");
}

function writeFiles(dir: string, files: Record<string, string | null>): void {
  for (const [path, content] of Object.entries(files)) {
    if (content === null) rmSync(join(dir, path), { force: true });
    else {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), content);
    }
  }
}

/** Runs a script with its fixed paths rewritten to this test's temp dirs. */
/** Runs a script here as the harness reads its output: the states' frames taken out (OutputFrames). */
function run(script: string, env: NodeJS.ProcessEnv = ENV): { output: string; status: number | null; frames: Map<string, Buffer[]> } {
  const local = script.replaceAll("cd /testbed", `cd ${q(repo)}`).replaceAll(WORK_DIR, work);
  const r = spawnSync("bash", ["-c", local], { env });
  const frames = new OutputFrames(TOKEN);
  const output = Buffer.concat([frames.push(r.stdout), frames.end()]).toString("utf8") + r.stderr.toString("utf8");
  return { output, status: r.status, frames: frames.frames };
}

/** A real `git diff` of the given edits made on top of a commit (null deletes). */
function diffOn(commit: string, edits: Record<string, string | null>): string {
  git("checkout", "-q", "-f", "--detach", commit);
  git("clean", "-fdq");
  writeFiles(repo, edits);
  git("add", "-A");
  const diff = execFileSync("git", ["diff", "--cached", commit], { cwd: repo, env: ENV, encoding: "utf8" });
  git("reset", "-q", "--hard", commit);
  return diff;
}

/** Replaces exactly one occurrence, failing loudly if the text moved. */
function edit(text: string, from: string, to: string): string {
  expect(text.split(from)).toHaveLength(2);
  return text.replace(from, to);
}

type BugRun = { output: string; status: number | null; method?: string; discarded: string[]; state?: string; failed: boolean };

/** Writes the model and test diffs where the script reads them and runs bugScript. */
function runBug(o: { start: string; goldPrev: string; modelPatch: string | null; testPatch: string; env?: NodeJS.ProcessEnv }): BugRun {
  writeFiles(work, {
    [MODEL_DIFF.slice(WORK_DIR.length + 1)]: o.modelPatch ?? "",
    [TEST_DIFF.slice(WORK_DIR.length + 1)]: o.testPatch,
  });
  const script = bugScript({
    token: TOKEN,
    start: o.start,
    goldPrev: o.goldPrev,
    hasModelPatch: o.modelPatch !== null,
    testFiles: parseUnifiedDiff(o.testPatch) ?? [],
    patchPaths: [...new Set([...touchedFiles(o.modelPatch ?? ""), ...touchedFiles(o.testPatch)])],
  });
  const r = run(script, o.env);
  const tags = taggedLines(r.output, TOKEN);
  return {
    ...r,
    method: tags.find((t) => t.key === "METHOD")?.rest,
    discarded: tags.filter((t) => t.key === "DISCARDED").map((t) => t.rest),
    state: tags.find((t) => t.key === "STATE")?.rest,
    failed: tags.some((t) => t.key === "TESTPATCH_FAILED"),
  };
}

/** The ">>> ..." attempt lines the script printed, in order, with the script's own paths. */
const attempts = (output: string) =>
  output
    .split("\n")
    .filter((l) => l.startsWith(">>> "))
    .map((l) => l.replaceAll(work, WORK_DIR));

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "cswe-replay-"));
  repo = join(root, "testbed");
  work = join(root, "work");
  mkdirSync(repo);
  mkdirSync(work);
  git("init", "-q", "-b", "main");
  writeFiles(repo, BASE_TREE);
  git("add", "-A");
  git("commit", "-q", "-m", "Initial units package");
  const files: Record<string, string> = {};
  for (const b of CHAIN_1.bug_fixes) {
    files[goldDiffPath(b.order).slice(WORK_DIR.length + 1)] = b.test_patch;
    files[goldFixPath(b.order).slice(WORK_DIR.length + 1)] = b.patch;
  }
  writeFiles(work, files);
  const built = run(goldStatesScript(TOKEN, CHAIN_1.base_commit, 2));
  const tags = taggedLines(built.output, TOKEN);
  G = [0, 1, 2].map((k) => tags.find((t) => t.key === `G${k}`)?.rest ?? "");
});

afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

describe("goldStatesScript on the fixture chain", () => {
  it("starts from the fixture's exact base_commit and builds G1, G2 from it", () => {
    expect(G[0]).toBe(CHAIN_1.base_commit);
    expect(G.every((g) => /^[0-9a-f]{40}$/.test(g))).toBe(true);
    expect(git("rev-parse", `${G[2]}^^`)).toBe(G[0]);
    expect(fileAt(G[1] ?? "", "units/convert.py")).toContain("return (fahrenheit - 32) * 5 / 9");
    expect(fileAt(G[2] ?? "", "units/convert.py")).toContain("text[-1].upper()");
    expect(fileAt(G[2] ?? "", "tests/test_convert.py")).toContain("def test_parse_temperature(text):");
  });
});

describe("bugScript run for real (bug 2 of chain 1, from G1)", () => {
  const b2 = bug(CHAIN_1, 2);
  const g = (k: number) => G[k] ?? "";

  it("(a) a patch that applies: METHOD git_apply and the new state printed", () => {
    const r = runBug({ start: g(1), goldPrev: g(1), modelPatch: b2.patch, testPatch: b2.test_patch });
    expect(r.status).toBe(0);
    expect(r.method).toBe("git_apply");
    expect(r.discarded).toEqual([]);
    expect(attempts(r.output)).toEqual([`>>> git apply --verbose ${MODEL_DIFF}`]);
    expect(r.state).toMatch(/^[0-9a-f]{40}$/);
    // model patch = gold patch, so A(2) has exactly G(2)'s tree, on top of the start state
    expect(git("rev-parse", `${r.state}^{tree}`)).toBe(git("rev-parse", `${g(2)}^{tree}`));
    expect(git("rev-parse", `${r.state}^`)).toBe(g(1));
  });

  it("(b) a patch with wrong context: both git apply attempts fail, then patch --fuzz applies it (or is skipped)", () => {
    const fuzzy = edit(b2.patch, "@@ -10,7 +10,8 @@ def to_fahrenheit(celsius):\n \n", "@@ -10,7 +10,8 @@ def to_fahrenheit(celsius):\n # context that is not in the file\n");
    const r = runBug({ start: g(1), goldPrev: g(1), modelPatch: fuzzy, testPatch: b2.test_patch });
    expect(r.status).toBe(0);
    const tried = attempts(r.output);
    expect(tried.slice(0, 2)).toEqual([`>>> git apply --verbose ${MODEL_DIFF}`, `>>> git apply --verbose --reject ${MODEL_DIFF}`]);
    if (HAS_PATCH) {
      expect(tried[2]).toBe(`>>> patch --batch --fuzz=5 -p1 --no-backup-if-mismatch -i ${MODEL_DIFF}`);
      expect(r.method).toBe("patch");
      expect(fileAt(r.state ?? "", "units/convert.py")).toBe(fileAt(g(2), "units/convert.py"));
    } else {
      expect(tried[2]).toBe(">>> patch is not in the image; skipped");
      expect(r.method).toBe("none");
    }
    // the failed --reject attempt left no .rej behind
    expect(filesAt(r.state ?? "").filter((f) => f.endsWith(".rej"))).toEqual([]);
  });

  it("(b) without patch(1) in the image the last fallback is skipped, and nothing stays half-applied", () => {
    // a PATH holding every program of /usr/bin except patch
    const bin = join(root, "bin-without-patch");
    if (!existsSync(bin)) {
      mkdirSync(bin);
      for (const name of readdirSync("/usr/bin")) if (name !== "patch") symlinkSync(join("/usr/bin", name), join(bin, name));
    }
    const fuzzy = edit(b2.patch, "@@ -10,7 +10,8 @@ def to_fahrenheit(celsius):\n \n", "@@ -10,7 +10,8 @@ def to_fahrenheit(celsius):\n # context that is not in the file\n");
    const r = runBug({ start: g(1), goldPrev: g(1), modelPatch: fuzzy, testPatch: b2.test_patch, env: { ...ENV, PATH: bin } });
    expect(attempts(r.output)).toEqual([
      `>>> git apply --verbose ${MODEL_DIFF}`,
      `>>> git apply --verbose --reject ${MODEL_DIFF}`,
      ">>> patch is not in the image; skipped",
    ]);
    expect(r.method).toBe("none");
    expect(r.state).toMatch(/^[0-9a-f]{40}$/);
    expect(fileAt(r.state ?? "", "units/convert.py")).toBe(fileAt(g(1), "units/convert.py"));
    expect(filesAt(r.state ?? "").filter((f) => f.endsWith(".rej"))).toEqual([]);
  });

  // Regression: GNU patch backs up a file it patched with fuzz or offset as <file>.orig
  // unless told not to, and bugScript's `git add -A` would commit it into the agent state.
  it.skipIf(!HAS_PATCH)(`(b) a fuzzy patch(1) apply leaves no .orig backup in the agent state${NEEDS_PATCH}`, () => {
    const fuzzy = edit(b2.patch, "@@ -10,7 +10,8 @@ def to_fahrenheit(celsius):\n \n", "@@ -10,7 +10,8 @@ def to_fahrenheit(celsius):\n # context that is not in the file\n");
    const r = runBug({ start: g(1), goldPrev: g(1), modelPatch: fuzzy, testPatch: b2.test_patch });
    expect(r.method).toBe("patch");
    expect(filesAt(r.state ?? "")).toEqual(filesAt(g(2)));
  });

  it("(c) model edits to conftest.py and an added sub/conftest.py are DISCARDED; other files stay", () => {
    const fix = fileAt(g(2), "units/convert.py") ?? "";
    const model = diffOn(g(1), {
      "units/convert.py": fix,
      "conftest.py": `${fileAt(g(1), "conftest.py")}\n\ndef pytest_collection_modifyitems(items):\n    items.clear()\n`,
      "sub/conftest.py": "collect_ignore_glob = ['*']\n",
      "units/myconftest.py": "# not runner configuration\n",
    });
    expect(touchedFiles(model)).toEqual(["conftest.py", "sub/conftest.py", "units/convert.py", "units/myconftest.py"]);
    const r = runBug({ start: g(1), goldPrev: g(1), modelPatch: model, testPatch: b2.test_patch });
    expect(r.method).toBe("git_apply");
    expect(r.discarded).toEqual(["conftest.py", "sub/conftest.py"]);
    const state = r.state ?? "";
    expect(fileAt(state, "conftest.py")).toBe(BASE_TREE["conftest.py"]);
    expect(fileAt(state, "sub/conftest.py")).toBeNull();
    expect(existsSync(join(repo, "sub/conftest.py"))).toBe(false);
    expect(fileAt(state, "units/myconftest.py")).toBe("# not runner configuration\n");
    expect(fileAt(state, "units/convert.py")).toBe(fix);
  });

  it("(c) a deleted conftest.py is restored", () => {
    const model = diffOn(g(1), { "conftest.py": null });
    const r = runBug({ start: g(1), goldPrev: g(1), modelPatch: model, testPatch: b2.test_patch });
    expect(r.method).toBe("git_apply");
    expect(r.discarded).toEqual(["conftest.py"]);
    expect(fileAt(r.state ?? "", "conftest.py")).toBe(BASE_TREE["conftest.py"]);
  });

  it("(d) a model edit to a file the test patch touches is undone before the test patch applies", () => {
    const tests = fileAt(g(1), "tests/test_convert.py") ?? "";
    const model = diffOn(g(1), {
      "units/convert.py": fileAt(g(2), "units/convert.py"),
      "tests/test_convert.py": edit(tests, "    assert to_celsius(212) == 100\n", "    assert True\n"),
    });
    const r = runBug({ start: g(1), goldPrev: g(1), modelPatch: model, testPatch: b2.test_patch });
    expect(r.method).toBe("git_apply");
    expect(r.failed).toBe(false);
    expect(fileAt(r.state ?? "", "tests/test_convert.py")).toBe(fileAt(g(2), "tests/test_convert.py"));
  });

  it("(d) test files come from the gold state given, not from a (Seq) start state that differs", () => {
    const tests = fileAt(g(1), "tests/test_convert.py") ?? "";
    git("checkout", "-q", "-f", "--detach", g(1));
    writeFiles(repo, { "tests/test_convert.py": `${tests}\n\ndef test_planted():\n    pass\n`, "units/extra.py": "X = 1\n" });
    git("add", "-A");
    git("commit", "-q", "-m", "a Seq agent state whose test file drifted");
    const seqStart = git("rev-parse", "HEAD");
    const r = runBug({ start: seqStart, goldPrev: g(1), modelPatch: null, testPatch: b2.test_patch });
    expect(r.method).toBe("none");
    expect(fileAt(r.state ?? "", "tests/test_convert.py")).toBe(fileAt(g(2), "tests/test_convert.py"));
    expect(fileAt(r.state ?? "", "units/extra.py")).toBe("X = 1\n");
  });

  it("(e) a test patch that does not apply: TESTPATCH_FAILED and no state", () => {
    const r = runBug({ start: g(1), goldPrev: g(1), modelPatch: b2.patch, testPatch: bug(CHAIN_1, 1).test_patch });
    expect(r.method).toBe("git_apply");
    expect(r.failed).toBe(true);
    expect(r.state).toBeUndefined();
    expect(r.status).toBe(0);
  });

  it("without a model patch: METHOD none, no attempts, the test patch still applied", () => {
    const r = runBug({ start: g(1), goldPrev: g(1), modelPatch: null, testPatch: b2.test_patch });
    expect(r.method).toBe("none");
    expect(attempts(r.output)).toEqual([]);
    expect(fileAt(r.state ?? "", "units/convert.py")).toBe(fileAt(g(1), "units/convert.py"));
    expect(fileAt(r.state ?? "", "tests/test_convert.py")).toBe(fileAt(g(2), "tests/test_convert.py"));
  });

  // Regression: GNU patch (the last fallback) writes into .git when told to — git and
  // parse-diff never see a context-diff section after a unified one, and a symlink the
  // patch itself creates (l -> ../.git) leads there too. A .git/config written so would
  // run code (core.fsmonitor) in the trusted steps that follow.
  const fuzzyB2 = () => edit(b2.patch, "@@ -10,7 +10,8 @@ def to_fahrenheit(celsius):\n \n", "@@ -10,7 +10,8 @@ def to_fahrenheit(celsius):\n # context that is not in the file\n");
  const hiddenContextSection = "*** a/.git/evil\t2024-01-01\n--- b/.git/evil\t2024-01-01\n***************\n*** 0 ****\n--- 1 ----\n+ pwned\n";
  const symlinkIntoGit = [
    "diff --git a/units/l b/units/l",
    "new file mode 120000",
    "--- /dev/null",
    "+++ b/units/l",
    "@@ -0,0 +1 @@",
    "+../.git",
    "\\ No newline at end of file",
    "diff --git a/units/l/evil b/units/l/evil",
    "new file mode 100644",
    "--- /dev/null",
    "+++ b/units/l/evil",
    "@@ -0,0 +1 @@",
    "+pwned",
    "",
  ].join("\n");

  // scripts/setup.sh installs GNU patch; on a host without it these show as skipped, with the reason
  it.skipIf(!HAS_PATCH).each([
    ["a context-diff section after the unified ones", () => fuzzyB2() + hiddenContextSection],
    ["a symlink to ../.git created by the same patch", () => fuzzyB2() + symlinkIntoGit],
  ])(`(b) patch(1) cannot write into .git: %s${NEEDS_PATCH}`, (_name, makePatch) => {
    rmSync(join(repo, ".git/evil"), { force: true });
    const r = runBug({ start: g(1), goldPrev: g(1), modelPatch: makePatch(), testPatch: b2.test_patch });
    expect(attempts(r.output)[2]).toBe(`>>> patch --batch --fuzz=5 -p1 --no-backup-if-mismatch -i ${MODEL_DIFF}`);
    expect(existsSync(join(repo, ".git/evil")), r.output).toBe(false);
    expect(r.state).toMatch(/^[0-9a-f]{40}$/);
    // .git is back in place and intact: the agent state is a commit on top of G(1)
    expect(git("rev-parse", `${r.state}^`)).toBe(g(1));
  });

  // git apply writes only the paths its diff names, so after it only those are checked for runner
  // configuration; patch(1) can write a path no parser of ours sees, so after it every name is.
  it.skipIf(!HAS_PATCH)(`(c) a conftest.py only patch(1) writes (a hidden context-diff section) is DISCARDED${NEEDS_PATCH}`, () => {
    const section = "*** a/sub/conftest.py\t2024-01-01\n--- b/sub/conftest.py\t2024-01-01\n***************\n*** 0 ****\n--- 1 ----\n+ collect_ignore_glob = ['*']\n";
    const model = fuzzyB2() + section;
    expect(touchedFiles(model)).not.toContain("sub/conftest.py");
    const r = runBug({ start: g(1), goldPrev: g(1), modelPatch: model, testPatch: b2.test_patch });
    expect(r.method).toBe("patch");
    expect(r.discarded).toEqual(["sub/conftest.py"]);
    expect(fileAt(r.state ?? "", "sub/conftest.py")).toBeNull();
    expect(existsSync(join(repo, "sub/conftest.py"))).toBe(false);
  });

  it("commits are reproducible: the same patches on the same start give the same agent state", () => {
    const first = runBug({ start: g(1), goldPrev: g(1), modelPatch: b2.patch, testPatch: b2.test_patch });
    const second = runBug({ start: g(1), goldPrev: g(1), modelPatch: b2.patch, testPatch: b2.test_patch });
    expect(first.state).toMatch(/^[0-9a-f]{40}$/);
    expect(second.state).toBe(first.state);
  });
});

describe("bugScript run for real (chain 2, a test patch that adds a file)", () => {
  it("(d) a file the model added at the test patch's new path is removed first", () => {
    const b = bug(CHAIN_2, 1);
    const base = G[0] ?? "";
    const model = diffOn(base, {
      "units/length.py": "def inches_to_cm(inches):\n    return inches * 2.54\n",
      "tests/test_length.py": "def test_inches_to_cm():\n    assert True\n",
    });
    const r = runBug({ start: base, goldPrev: base, modelPatch: model, testPatch: b.test_patch });
    expect(r.method).toBe("git_apply");
    expect(r.failed).toBe(false);
    expect(fileAt(r.state ?? "", "tests/test_length.py")).toBe(
      "from units.length import inches_to_cm\n\n\ndef test_inches_to_cm():\n    assert inches_to_cm(2) == 5.08\n",
    );
    expect(fileAt(r.state ?? "", "units/length.py")).toBe("def inches_to_cm(inches):\n    return inches * 2.54\n");
  });
});

describe("chainStatesScript, then gradedStateScript in another clone holding only the base commit", () => {
  it("Seq: every graded state is built once, and a base-only clone given its diff has the same tree, ignored files the patch wrote included", () => {
    const base = G[0] ?? "";
    const [b1, b2] = [bug(CHAIN_1, 1), bug(CHAIN_1, 2)];
    const model1 = `${b1.patch}${diffOn(base, { "notes.log": "kept across the chain\n" })}`;
    // a path the model patch writes that git ignores: part of the state all the same
    writeFiles(repo, { ".git/info/exclude": "*.log\n" });
    writeFiles(work, { [replayModelPath(1).slice(WORK_DIR.length + 1)]: model1, [replayModelPath(2).slice(WORK_DIR.length + 1)]: b2.patch });
    const bugs = [b1, b2].map((b, i) => ({
      order: b.order,
      hasModelPatch: true,
      testFiles: parseUnifiedDiff(b.test_patch) ?? [],
      patchPaths: [...new Set([...touchedFiles(i === 0 ? model1 : b2.patch), ...touchedFiles(b.test_patch)])],
    }));
    git("checkout", "-q", "-f", "--detach", base);
    git("clean", "-fdq");
    const built = run(chainStatesScript({ token: TOKEN, baseCommit: base, mode: "seq", bugs, length: 2, gold: { build: 2 } }));
    expect(built.status, built.output).toBe(0);
    // the repository was the base commit with a clean work tree
    expect(taggedLines(built.output, TOKEN).map((t) => t.key)).toEqual(["AT_BASE"]);
    expect(taggedLines(built.output, `${TOKEN}-gold`).map((t) => t.key)).toEqual(["G0", "G1", "G2"]);
    const trees = [1, 2].map((k) => {
      const tags = taggedLines(built.output, `${TOKEN}-${k}`);
      expect(tags.find((t) => t.key === "METHOD")?.rest).toBe("git_apply");
      return tags.find((t) => t.key === "TREE")?.rest ?? "";
    });
    // bug 2 started from the agent's own state: the ignored file bug 1 wrote is in S(2)
    const s2 = git("rev-parse", "HEAD");
    // built in two runs (bug 1 on G(0) alone, then the gold states and bug 2): the same states
    git("checkout", "-q", "-f", "--detach", base);
    const one = run(chainStatesScript({ token: TOKEN, baseCommit: base, mode: "seq", bugs: bugs.slice(0, 1), length: 2, gold: { build: 0 } }));
    const s1 = taggedLines(one.output, `${TOKEN}-1`).find((t) => t.key === "STATE")?.rest ?? "";
    const two = run(chainStatesScript({ token: TOKEN, baseCommit: base, mode: "seq", bugs: bugs.slice(1), length: 2, gold: { build: 2 }, startState: s1 }));
    expect(taggedLines(one.output, `${TOKEN}-1`).find((t) => t.key === "TREE")?.rest).toBe(trees[0]);
    expect(taggedLines(two.output, `${TOKEN}-gold`).map((t) => t.key)).toEqual(["G0", "G1", "G2"]);
    expect(taggedLines(two.output, `${TOKEN}-2`).find((t) => t.key === "TREE")?.rest, two.output).toBe(trees[1]);
    expect(git("rev-parse", "HEAD")).toBe(s2);
    expect(git("rev-parse", `${s2}^{tree}`)).toBe(trees[1]);
    expect(fileAt(s2, "notes.log")).toBe("kept across the chain\n");
    expect(fileAt(s2, "units/convert.py")).toBe(fileAt(G[2] ?? "", "units/convert.py"));

    // a clone that has never seen any state: only the base commit and its history
    git("branch", "-f", "chainswe-base", base);
    const clone = join(root, "clone");
    const cloneWork = join(root, "clone-work");
    execFileSync("git", ["clone", "-q", "--no-local", "--single-branch", "--branch", "chainswe-base", repo, clone], { env: ENV });
    writeFiles(clone, { ".git/info/exclude": "*.log\n" });
    for (const k of [1, 2]) {
      // the frame the harness takes is the state the script left
      expect(built.frames.get(stateFrameTag(TOKEN, k))?.map((b) => b.toString("utf8"))).toEqual([
        readFileSync(stateDiffPath(k).replace(WORK_DIR, work), "utf8"),
        readFileSync(statePathsPath(k).replace(WORK_DIR, work), "utf8"),
      ]);
      writeFiles(cloneWork, {
        [STATE_DIFF.slice(WORK_DIR.length + 1)]: readFileSync(stateDiffPath(k).replace(WORK_DIR, work), "utf8"),
        [STATE_PATHS.slice(WORK_DIR.length + 1)]: readFileSync(statePathsPath(k).replace(WORK_DIR, work), "utf8"),
      });
      // bug 1 takes the fast path (the clone is the base commit, clean); bug 2 the one that resets first
      const local = gradedStateScript(TOKEN, base, k === 1).replaceAll("cd /testbed", `cd ${q(clone)}`).replaceAll(WORK_DIR, cloneWork);
      const r = spawnSync("bash", ["-c", local], { env: ENV, encoding: "utf8" });
      expect(r.status, r.stdout + r.stderr).toBe(0);
      expect(taggedLines(r.stdout, TOKEN).find((t) => t.key === "TREE")?.rest, r.stdout + r.stderr).toBe(trees[k - 1]);
      // its work files are gone before the tests would run
      expect(existsSync(cloneWork)).toBe(false);
    }
    expect(readFileSync(join(clone, "notes.log"), "utf8")).toBe("kept across the chain\n");
    // no state but the graded one reached the clone: G(2) is not there
    expect(spawnSync("git", ["cat-file", "-e", `${G[2]}^{commit}`], { cwd: clone }).status).not.toBe(0);
  });
});
