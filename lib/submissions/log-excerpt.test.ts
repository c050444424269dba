/** A failing test's error found in real pytest and unittest logs, with its line in the log. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { logExcerpt, pytestHeadName, pytestSectionName } from "@/lib/submissions/log-excerpt";

const LOGS = join(new URL("../../", import.meta.url).pathname, "tests", "fixtures", "logs");
const log = (name: string) => readFileSync(join(LOGS, name), "utf8");

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
