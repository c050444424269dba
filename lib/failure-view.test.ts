/**
 * The failure page's pure parts: overshoot/undershoot marks, a failing test's
 * error found in real pytest and unittest logs, diffs as numbered hunks, and
 * highlighting split per line without losing multi-line context.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ElementContent } from "hast";
import {
  diffFiles,
  fileMark,
  fileSetRows,
  filesMarked,
  foldHunk,
  highlightHunk,
  languageOf,
  logExcerpt,
  notChainErrorReason,
  pytestHeadName,
  pytestSectionName,
  splitLines,
  type DiffLine,
} from "./failure-view";

const LOGS = join(new URL("../", import.meta.url).pathname, "tests", "fixtures", "logs");
const log = (name: string) => readFileSync(join(LOGS, name), "utf8");

describe("file sets", () => {
  it("marks agent-only files overshoot and gold-only files undershoot, per agent", () => {
    expect([fileMark(true, true), fileMark(true, false), fileMark(false, true), fileMark(false, false)]).toEqual(["matched", "overshoot", "undershoot", null]);
    const rows = fileSetRows(["pkg/money.py"], [["pkg/currency.py", "pkg/money.py"], []]);
    expect(rows).toEqual([
      { file: "pkg/currency.py", gold: false, marks: ["overshoot", null] },
      { file: "pkg/money.py", gold: true, marks: ["matched", "undershoot"] },
    ]);
    expect(filesMarked(rows, 0, "overshoot")).toEqual(["pkg/currency.py"]);
    expect(filesMarked(rows, 1, "undershoot")).toEqual(["pkg/money.py"]);
  });
});

describe("chain errors", () => {
  it("says why a bug is not one", () => {
    expect(notChainErrorReason(1, true, false)).toMatch(/first bug/);
    expect(notChainErrorReason(2, null, false)).toMatch(/both modes/);
    expect(notChainErrorReason(2, true, true)).toMatch(/Resolved under Seq/);
    expect(notChainErrorReason(2, false, false)).toMatch(/Unresolved under Oracle/);
    expect(notChainErrorReason(3, true, false)).toBeNull();
  });
});

describe("log excerpts", () => {
  it("pytest: names a section like pytest does, parameters kept whole", () => {
    expect(pytestHeadName("tests/test_a.py::TestK::test_q[x::y]")).toBe("TestK.test_q[x::y]");
    expect(pytestHeadName("tests/test_a.py::test_p[a b - c]")).toBe("test_p[a b - c]");
    expect(pytestSectionName("______ test_fail ______")).toBe("test_fail");
    expect(pytestSectionName("_".repeat(5000))).toBeNull();
    expect(pytestSectionName("__init__")).toBeNull();
  });

  it("pytest: the first error lines of the test's own section, with its line in the log", () => {
    const text = log("pytest-7-rA.log");
    const fail = logExcerpt(text, "tests/test_a.py::test_fail")!;
    expect(fail.lines[0]).toBe("E       AssertionError: math is broken");
    expect(fail.lines).toContain("tests/test_a.py:20: AssertionError");
    expect(text.split("\n")[fail.line - 1]).toBe(fail.lines[0]);
    const param = logExcerpt(text, "tests/test_a.py::TestK::test_q[x::y]")!;
    expect(param.lines[0]).toBe("E       AssertionError: assert 'x::y' != 'x::y'");
    const setup = logExcerpt(text, "tests/test_a.py::test_setup_error")!;
    expect(setup.lines[0]).toBe("E       RuntimeError: setup exploded");
  });

  it("pytest: a collection error stands for every test of its file", () => {
    const text = log("pytest-7-collection-error.log");
    expect(logExcerpt(text, "tests/test_imp.py::test_anything")!.lines).toEqual(["E   ModuleNotFoundError: No module named 'nonexistent_module_xyz'"]);
    // no `E` line: the section from its start
    expect(logExcerpt(text, "tests/test_c.py::test_bad")!.lines).toEqual(["In test_bad: function uses no argument 'nonexistent'"]);
  });

  it("unittest: the exception after the traceback", () => {
    const text = log("unittest-py311.log");
    const e = logExcerpt(text, "test_error (pkg.test_mod.TestMath.test_error)")!;
    expect(e.lines[0]).toBe("ValueError: boom");
    const f = logExcerpt(text, "test_documented_fail (pkg.test_mod.TestMath.test_documented_fail)")!;
    expect(f.lines[0]).toBe("AssertionError: False is not true");
  });

  it("falls back to the summary line, then to nothing; cuts long sections and long lines", () => {
    const summary = "FAILED tests/t.py::test_x - boom\n";
    expect(logExcerpt(summary, "tests/t.py::test_x")).toEqual({ line: 1, lines: ["FAILED tests/t.py::test_x - boom"], more: false });
    expect(logExcerpt("nothing here", "tests/t.py::test_x")).toBeNull();
    const long = ["____ test_x ____", ...Array.from({ length: 30 }, (_, i) => `E   line ${i} ${"x".repeat(i === 0 ? 1000 : 1)}`), "===== end ====="].join("\n");
    const cut = logExcerpt(long, "tests/t.py::test_x", 5)!;
    expect(cut.lines).toHaveLength(5);
    expect(cut.more).toBe(true);
    expect(cut.lines[0]!.length).toBeLessThan(420);
  });
});

const PATCH = [
  "diff --git a/pkg/mod.py b/pkg/mod.py",
  "index 1111111..2222222 100644",
  "--- a/pkg/mod.py",
  "+++ b/pkg/mod.py",
  "@@ -1,4 +1,5 @@",
  ' """A module',
  ' docstring."""',
  "-x = 1",
  "+x = 2",
  "+y = '<b>'",
  " z = 3",
  "diff --git a/new.txt b/new.txt",
  "new file mode 100644",
  "--- /dev/null",
  "+++ b/new.txt",
  "@@ -0,0 +1 @@",
  "+hello",
  "\\ No newline at end of file",
  "",
].join("\n");

const textOf = (nodes: ElementContent[]): string => nodes.map((n) => (n.type === "text" ? n.value : n.type === "element" ? textOf(n.children) : "")).join("");

describe("diffs", () => {
  it("files of numbered hunks", () => {
    const files = diffFiles(PATCH);
    expect(files.map((f) => [f.path, f.status, f.additions, f.deletions])).toEqual([
      ["pkg/mod.py", "modified", 2, 1],
      ["new.txt", "added", 1, 0],
    ]);
    const lines = files[0]!.hunks[0]!.lines;
    expect(lines.map((l) => [l.kind, l.oldNo, l.newNo, l.text])).toEqual([
      ["ctx", 1, 1, '"""A module'],
      ["ctx", 2, 2, 'docstring."""'],
      ["del", 3, null, "x = 1"],
      ["add", null, 3, "x = 2"],
      ["add", null, 4, "y = '<b>'"],
      ["ctx", 4, 5, "z = 3"],
    ]);
    expect(files[1]!.hunks[0]!.lines.map((l) => l.kind)).toEqual(["add", "note"]);
    expect(diffFiles("")).toEqual([]);
  });

  it("folds long runs of unchanged lines, keeping context around changes", () => {
    const ctx = (n: number): DiffLine => ({ kind: "ctx", oldNo: n, newNo: n, text: `c${n}` });
    const lines: DiffLine[] = [...Array.from({ length: 10 }, (_, i) => ctx(i + 1)), { kind: "add", oldNo: null, newNo: 11, text: "new" }, ...Array.from({ length: 3 }, (_, i) => ctx(i + 12))];
    const segments = foldHunk(lines, 3);
    expect(segments.map((s) => [s.folded, s.lines.length])).toEqual([
      [true, 7],
      [false, 7],
    ]);
    expect(foldHunk(lines.slice(8), 3).every((s) => !s.folded)).toBe(true);
  });

  it("highlights each side whole, so a docstring's second line is still a string", () => {
    const lines = diffFiles(PATCH)[0]!.hunks[0]!.lines;
    const highlighted = highlightHunk(lines, languageOf("pkg/mod.py"));
    expect(highlighted.map(textOf)).toEqual(lines.map((l) => l.text));
    const second = highlighted[1]![0]!;
    expect(second.type === "element" && String(second.properties.className)).toContain("string");
    // plain text for unknown languages, text never turned into markup
    expect(highlightHunk(lines, null)[4]).toEqual([{ type: "text", value: "y = '<b>'" }]);
  });

  it("splits tokens that span lines", () => {
    const span = (children: ElementContent[]): ElementContent => ({ type: "element", tagName: "span", properties: { className: ["token"] }, children });
    const lines = splitLines([span([{ type: "text", value: "a\nb" }]), { type: "text", value: "c\n" }]);
    expect(lines.map(textOf)).toEqual(["a", "bc", ""]);
    expect(lines[1]![0]!.type).toBe("element");
  });

  it("languages by extension", () => {
    expect([languageOf("a/b.py"), languageOf("x.TOML"), languageOf("Makefile"), languageOf("README"), languageOf(".bashrc")]).toEqual(["python", "toml", "makefile", null, null]);
  });
});
