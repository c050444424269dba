/**
 * Unified-diff facts (core/diff): what counts as a diff, which files it
 * touches, unsafe paths and test-runner configuration. The git diffs below are
 * verbatim `git diff --cached -M` output (note git's trailing TAB after a
 * `---`/`+++` name that contains a space).
 */
import { describe, expect, it } from "vitest";
import { isRunnerConfigFile, isTestPath, isUnifiedDiff, isUnsafePath, parseUnifiedDiff, touchedFiles, unsafePaths, withoutFiles } from "./index";

/** Edit (path with spaces), add, delete, and rename-with-edit to a name with a space. */
const GIT_DIFF = `diff --git a/docs/user guide/install notes.md b/docs/user guide/install notes.md
index dd507a3..9463e7f 100644
--- a/docs/user guide/install notes.md\t
+++ b/docs/user guide/install notes.md\t
@@ -1 +1 @@
-Install with pip.
+Install with pip or uv.
diff --git a/pkg/added.py b/pkg/added.py
new file mode 100644
index 0000000..47643d4
--- /dev/null
+++ b/pkg/added.py
@@ -0,0 +1 @@
+y = 2
diff --git a/pkg/gone.py b/pkg/gone.py
deleted file mode 100644
index 7d4290a..0000000
--- a/pkg/gone.py
+++ /dev/null
@@ -1 +0,0 @@
-x = 1
diff --git a/pkg/legacy.py b/pkg/modern api.py
similarity index 78%
rename from pkg/legacy.py
rename to pkg/modern api.py
index 78495b2..bb175f6 100644
--- a/pkg/legacy.py
+++ b/pkg/modern api.py\t
@@ -1,4 +1,4 @@
-def old():
+def new():
     return 1
 
 
`;

/** A pure rename has no ---/+++ lines at all, only git's extended headers. */
const PURE_RENAME = `diff --git a/pkg/util.py b/pkg/helpers.py
similarity index 100%
rename from pkg/util.py
rename to pkg/helpers.py
`;

/** An empty new file: git prints no ---/+++ lines either. */
const EMPTY_NEW_FILE = `diff --git a/pkg/__init__.py b/pkg/__init__.py
new file mode 100644
index 0000000..e69de29
`;

/** `diff -u` output as made by hand with -p1 style paths and timestamps. */
const PLAIN_DIFF = `--- a/units/convert.py\t2024-01-01 10:00:00.000000000 +0000
+++ b/units/convert.py\t2024-01-01 10:05:00.000000000 +0000
@@ -4 +4 @@
-    return fahrenheit - 32 * 5 / 9
+    return (fahrenheit - 32) * 5 / 9
`;

/** A diff that touches exactly the given (already a/ b/ stripped) path. */
const editOf = (path: string) => `--- a/${path}\n+++ b/${path}\n@@ -1 +1 @@\n-a\n+b\n`;

describe("parseUnifiedDiff", () => {
  it("reads a git diff with edited, added, deleted and renamed files, spaces included", () => {
    expect(parseUnifiedDiff(GIT_DIFF)).toEqual([
      { from: "docs/user guide/install notes.md", to: "docs/user guide/install notes.md" },
      { from: null, to: "pkg/added.py" },
      { from: "pkg/gone.py", to: null },
      { from: "pkg/legacy.py", to: "pkg/modern api.py" },
    ]);
  });

  it("reads header-only git diffs: a pure rename and an empty new file", () => {
    expect(parseUnifiedDiff(PURE_RENAME)).toEqual([{ from: "pkg/util.py", to: "pkg/helpers.py" }]);
    expect(parseUnifiedDiff(EMPTY_NEW_FILE)).toEqual([{ from: null, to: "pkg/__init__.py" }]);
  });

  it("reads a plain ---/+++ diff without a diff --git line", () => {
    expect(parseUnifiedDiff(PLAIN_DIFF)).toEqual([{ from: "units/convert.py", to: "units/convert.py" }]);
    expect(isUnifiedDiff(PLAIN_DIFF)).toBe(true);
  });

  it.each([
    ["empty text", ""],
    ["only whitespace", " \n\t\n"],
    ["prose", "I fixed to_celsius by adding parentheses around fahrenheit - 32."],
    ["a hunk without file headers", "@@ -4 +4 @@\n-    return fahrenheit - 32 * 5 / 9\n+    return (fahrenheit - 32) * 5 / 9\n"],
    ["headers in the wrong order", "+++ b/units/convert.py\n--- a/units/convert.py\n@@ -1 +1 @@\n-a\n+b\n"],
    ["a diff of /dev/null to /dev/null", "--- /dev/null\n+++ /dev/null\n@@ -0,0 +1 @@\n+a\n"],
    ["a JSON blob", '{"model_patch": "--- a/x"}'],
  ])("%s is not a diff", (_name, text) => {
    expect(parseUnifiedDiff(text)).toBeNull();
    expect(isUnifiedDiff(text)).toBe(false);
  });
});

describe("touchedFiles", () => {
  it("lists every path once, sorted, with both names of a rename", () => {
    expect(touchedFiles(GIT_DIFF)).toEqual([
      "docs/user guide/install notes.md",
      "pkg/added.py",
      "pkg/gone.py",
      "pkg/legacy.py",
      "pkg/modern api.py",
    ]);
    expect(touchedFiles(PURE_RENAME)).toEqual(["pkg/helpers.py", "pkg/util.py"]);
  });

  it("counts a file edited in two sections of one diff once", () => {
    expect(touchedFiles(editOf("b.py") + editOf("a.py") + editOf("b.py"))).toEqual(["a.py", "b.py"]);
  });

  it("is empty for text that is not a diff", () => {
    expect(touchedFiles("")).toEqual([]);
    expect(touchedFiles("not a diff")).toEqual([]);
  });

  // BUG (core/diff/index.ts, parseUnifiedDiff/cleanPath): git C-quotes paths with
  // non-ASCII bytes, quotes or control characters (core.quotePath, the default), and
  // parse-diff returns the quoted form undecoded, so the path reported is not the file's.
  it("decodes git's C-quoted paths (a non-ASCII file name)", () => {
    const quoted = `diff --git "a/pkg/t\\303\\251st.py" "b/pkg/t\\303\\251st.py"
index 7898192..6178079 100644
--- "a/pkg/t\\303\\251st.py"
+++ "b/pkg/t\\303\\251st.py"
@@ -1 +1 @@
-a
+b
`;
    expect(touchedFiles(quoted)).toEqual(["pkg/tést.py"]);
  });
});

describe("unsafe paths", () => {
  it.each([
    ["../x", true],
    ["pkg/../../etc/shadow", true],
    ["/etc/passwd", true],
    ["~/.bashrc", true],
    [".git/config", true],
    ["vendor/lib/.git/hooks/pre-commit", true],
    ["pkg/mod.py", false],
    [".gitignore", false],
    [".github/workflows/ci.yml", false],
    ["pkg/..hidden/x.py", false],
    ["docs/user guide/a..b.md", false],
  ])("isUnsafePath(%j) is %s", (path, unsafe) => {
    expect(isUnsafePath(path)).toBe(unsafe);
  });

  it("finds them in diffs, after the a/ b/ prefixes are stripped", () => {
    expect(unsafePaths(editOf("../x"))).toEqual(["../x"]);
    expect(unsafePaths("--- /etc/passwd\n+++ /etc/passwd\n@@ -1 +1 @@\n-root\n+toor\n")).toEqual(["/etc/passwd"]);
    expect(unsafePaths(editOf(".git/config"))).toEqual([".git/config"]);
    expect(unsafePaths("--- ~/.bashrc\n+++ ~/.bashrc\n@@ -1 +1 @@\n-a\n+b\n")).toEqual(["~/.bashrc"]);
    expect(unsafePaths(GIT_DIFF)).toEqual([]);
  });

  it("names only the unsafe files of a mixed diff", () => {
    expect(unsafePaths(editOf("pkg/mod.py") + editOf(".git/config"))).toEqual([".git/config"]);
  });

  // BUG (core/diff/index.ts, isUnsafePath via parseUnifiedDiff): a C-quoted name is
  // checked undecoded ("\056git/evil"), but GNU patch 2.7 decodes it to ".git/evil" and
  // writes there (checked on the host: `patch --batch --fuzz=5 -p1` creates .git/evil,
  // exit 0, while git apply refuses "invalid path"). The replay's last fallback can so
  // write git metadata (e.g. .git/config) that the trusted bug scripts then obey.
  it("sees through C-quoted names that spell .git", () => {
    const quotedGit = `diff --git "a/\\056git/evil" "b/\\056git/evil"
new file mode 100644
--- /dev/null
+++ "b/\\056git/evil"
@@ -0,0 +1 @@
+pwned
`;
    expect(unsafePaths(quotedGit)).toEqual([".git/evil"]);
  });
});

describe("isRunnerConfigFile", () => {
  it.each([
    ["conftest.py", true],
    ["sub/conftest.py", true],
    ["tests/unit/conftest.py", true],
    ["pytest.ini", true],
    ["tox.ini", true],
    ["pkg/tox.ini", true],
    ["myconftest.py", false],
    ["conftest.py.bak", false],
    ["tests/conftest_helpers.py", false],
    ["setup.cfg", false],
    ["pytest.ini/notes.txt", false],
  ])("%j → %s", (path, config) => {
    expect(isRunnerConfigFile(path)).toBe(config);
  });
});

describe("test edits (SPEC §7)", () => {
  const patch = [
    "diff --git a/pkg/mod.py b/pkg/mod.py",
    "--- a/pkg/mod.py",
    "+++ b/pkg/mod.py",
    "@@ -1 +1 @@",
    "-a",
    "+b",
    "diff --git a/tests/test_mod.py b/tests/test_mod.py",
    "--- a/tests/test_mod.py",
    "+++ b/tests/test_mod.py",
    "@@ -1 +1 @@",
    "-x",
    "+y",
    "diff --git a/pkg/helpers_later.py b/pkg/helpers_later.py",
    "new file mode 100644",
    "--- /dev/null",
    "+++ b/pkg/helpers_later.py",
    "@@ -0,0 +1 @@",
    "+z",
    "",
  ].join("\n");

  it("a test path: one a test patch of the chain touches, or one matching a test glob", () => {
    const chain = new Set(["pkg/helpers_later.py"]);
    expect(isTestPath("tests/test_mod.py", chain)).toBe(true);
    expect(isTestPath("src/testing/util.py", chain)).toBe(true);
    expect(isTestPath("pkg/mod_test.py", chain)).toBe(true);
    expect(isTestPath("conftest.py", chain)).toBe(true);
    // a later bug's test patch adds it: adding it now is a test edit
    expect(isTestPath("pkg/helpers_later.py", chain)).toBe(true);
    expect(isTestPath("pkg/mod.py", chain)).toBe(false);
    expect(isTestPath("pkg/contest.py", chain)).toBe(false);
    expect(isTestPath("pkg/latest.py", new Set(), ["test_*.py"])).toBe(false);
    expect(touchedFiles(patch).filter((p) => isTestPath(p, chain))).toEqual(["pkg/helpers_later.py", "tests/test_mod.py"]);
    expect(touchedFiles(patch).filter((p) => isTestPath(p, new Set()))).toEqual(["tests/test_mod.py"]);
  });

  it("strips the test files' sections, keeping the rest byte for byte", () => {
    const { patch: kept, dropped } = withoutFiles(patch, (p) => isTestPath(p, new Set(["pkg/helpers_later.py"])));
    expect(dropped).toEqual(["pkg/helpers_later.py", "tests/test_mod.py"]);
    expect(kept).toBe(patch.split("diff --git a/tests/")[0]);
    expect(touchedFiles(kept)).toEqual(["pkg/mod.py"]);
    // nothing to drop: the same text; not a diff: left alone
    expect(withoutFiles(patch, () => false).patch).toBe(patch);
    expect(withoutFiles("not a diff", () => true)).toEqual({ patch: "not a diff", dropped: [] });
  });

  it("cuts plain unified diffs (no git headers) by their --- / +++ pairs", () => {
    const plain = "--- a/tests/test_a.py\n+++ b/tests/test_a.py\n@@ -1 +1 @@\n-1\n+2\n--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-1\n+2\n";
    expect(withoutFiles(plain, (p) => p.startsWith("tests/"))).toEqual({ patch: "--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-1\n+2\n", dropped: ["tests/test_a.py"] });
  });
});
