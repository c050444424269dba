import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parsePytestLog, type TestStatus } from "@/core/parsers";
import { leadingNodeId, pytestHeadLine } from "./pytest";

function fixture(name: string): string {
  return readFileSync(new URL(`../../tests/fixtures/logs/${name}`, import.meta.url), "utf8");
}

function observations(log: string): Record<string, TestStatus[]> {
  return Object.fromEntries(parsePytestLog(log).observations);
}

const A = "tests/test_a.py::";

/** What the `-rA` short summary of the feature suite (tests/test_a.py, tests/test_b.py) says. */
const SUMMARY: Record<string, TestStatus> = {
  [`${A}test_pass`]: "PASSED",
  [`${A}test_p[plain]`]: "PASSED",
  [`${A}test_weird[x::y]`]: "PASSED",
  [`${A}test_weird[[nested]]`]: "PASSED",
  [`${A}TestK::test_ok`]: "PASSED",
  "tests/test_b.py::test_other": "PASSED",
  [`${A}test_xfail_reason`]: "XFAIL",
  [`${A}test_xfail_plain`]: "XFAIL",
  [`${A}test_xpass`]: "XPASS",
  [`${A}test_setup_error`]: "ERROR",
  [`${A}test_teardown_error`]: "ERROR",
  [`${A}test_fail`]: "FAILED",
  [`${A}test_xpass_strict`]: "FAILED",
  [`${A}test_p[a b - c]`]: "FAILED",
  [`${A}test_u[a]b]`]: "FAILED",
  [`${A}TestK::test_q[x::y]`]: "FAILED",
};

/** Summary-only logs report each test once; skipped tests have no node id there. */
const SUMMARY_ONLY = Object.fromEntries(Object.entries(SUMMARY).map(([id, s]) => [id, [s]]));

/** With -v every test is also reported on its own line; skips only there. */
const VERBOSE = {
  ...Object.fromEntries(Object.entries(SUMMARY).map(([id, s]) => [id, [s, s]])),
  [`${A}test_skipped`]: ["SKIPPED"],
  [`${A}test_skip_inside`]: ["SKIPPED"],
};

describe("parsePytestLog on the feature suite", () => {
  it.each(["pytest-9-rA.log", "pytest-7-rA.log"])("reads the -rA summary of %s", (name) => {
    expect(observations(fixture(name))).toEqual(SUMMARY_ONLY);
  });

  it.each(["pytest-9-rA-v.log", "pytest-7-rA-v.log", "pytest-9-rA-v-color.log"])(
    "reads -v lines and the summary of %s",
    (name) => {
      expect(observations(fixture(name))).toEqual(VERBOSE);
    },
  );

  it("keeps the order of reports as they appear", () => {
    const parsed = parsePytestLog(fixture("pytest-9-rA-v.log"));
    expect([...parsed.observations.keys()].slice(0, 3)).toEqual([
      `${A}test_pass`,
      `${A}test_fail`,
      `${A}test_setup_error`,
    ]);
  });

  it("reads pytest 7's XPASS line, which has no dash before the reason", () => {
    const log = fixture("pytest-7-rA.log");
    expect(log).toContain("XPASS tests/test_a.py::test_xpass should fail but does not");
    expect(observations(log)[`${A}test_xpass`]).toEqual(["XPASS"]);
  });

  it("reads a teardown error after a pass as an error, not a contradiction", () => {
    const log = fixture("pytest-9-rA-v.log");
    expect(log).toContain("tests/test_a.py::test_teardown_error PASSED");
    expect(observations(log)[`${A}test_teardown_error`]).toEqual(["ERROR", "ERROR"]);
  });

  it("strips ANSI colour codes", () => {
    const log = fixture("pytest-9-rA-v-color.log");
    expect(log).toContain("\u001b[32mPASSED\u001b[0m");
    expect(Object.keys(observations(log)).every((id) => !id.includes("\u001b"))).toBe(true);
  });

  it("drops the ` <- file` of a test inherited from another file (-vv)", () => {
    expect(observations(fixture("pytest-9-rA-vv-inherited.log"))).toEqual({
      "tests/test_child.py::TestChild::test_inherited": ["PASSED", "PASSED"],
    });
  });
});

describe("parsePytestLog on collection errors", () => {
  it.each(["pytest-9-collection-error.log", "pytest-7-collection-error.log"])("records ERROR for the file in %s", (name) => {
    expect(observations(fixture(name))).toEqual({
      "tests/test_c.py": ["ERROR"],
      "tests/test_imp.py": ["ERROR"],
    });
  });

  it("reads other files' results when collection errors do not stop the run", () => {
    expect(observations(fixture("pytest-9-collection-error-continue.log"))).toEqual({
      "tests/test_ok.py::test_fine": ["PASSED"],
      "tests/test_c.py": ["ERROR"],
      "tests/test_imp.py": ["ERROR"],
    });
  });
});

describe("parsePytestLog on forged output", () => {
  it("keeps fake PASSED lines beside pytest's real FAILED report", () => {
    expect(observations(fixture("pytest-9-spoofed-summary.log"))).toEqual({
      "tests/test_calc.py::test_add": ["PASSED", "PASSED", "FAILED"],
      "tests/test_calc.py::test_add_negative": ["PASSED", "PASSED", "FAILED"],
      "tests/test_calc.py::test_sub": ["PASSED", "PASSED", "PASSED"],
    });
  });

  it("counts a file's collection error against tests of that file the log claims passed", () => {
    expect(observations(fixture("pytest-9-spoofed-collection.log"))).toEqual({
      "tests/test_calc.py::test_add": ["PASSED", "ERROR"],
      "tests/test_calc.py::test_sub": ["PASSED", "ERROR"],
      "tests/test_calc.py": ["ERROR"],
    });
  });
});

describe("parsePytestLog line forms", () => {
  it("ignores SKIPPED summary lines, which name a location, not a test", () => {
    expect(observations("SKIPPED [2] tests/test_a.py:12: no network\n")).toEqual({});
  });

  it("ignores text that is not a status report", () => {
    const log = [
      "ERROR: could not install package",
      "FAILED to connect",
      "tests/test_a.py .FE.  [ 50%]",
      "E       AssertionError: assert 'PASSED' == 'FAILED'",
      "=========================== 3 passed in 0.01s ===========================",
    ].join("\n");
    expect(observations(log)).toEqual({});
  });

  it("reads -v lines with count-style progress or none (console_output_style count, classic)", () => {
    const log = [
      "tests/test_b.py::test_other PASSED                                        [1/1]",
      "tests/test_b.py::test_classic PASSED",
      "tests/test_b.py::test_p[a b] <- tests/base.py FAILED                       [ 3/18]",
    ].join("\n");
    expect(observations(log)).toEqual({
      "tests/test_b.py::test_other": ["PASSED"],
      "tests/test_b.py::test_classic": ["PASSED"],
      "tests/test_b.py::test_p[a b]": ["FAILED"],
    });
  });

  it("reads hostile long lines in linear time", () => {
    const lines = [
      "tests/a.py::t PASSED (" + " PASSED (".repeat(60_000),
      "tests/a.py::t[" + "] PASSED (".repeat(60_000),
      "FAILED tests/a.py::t[" + "]x".repeat(200_000),
    ];
    // time is what this test checks: linear reading takes milliseconds, a backtracking pattern on
    // these lines orders of magnitude longer; the bound is wide enough for a loaded machine
    const started = performance.now();
    expect(observations(lines.join("\n"))).toEqual({});
    expect(performance.now() - started).toBeLessThan(20_000);
  });

  it("reads CRLF line ends and carriage-return overwrites", () => {
    const log = "PASSED tests/t.py::a\r\nprogress 10%\rFAILED tests/t.py::b - boom\r\n";
    expect(observations(log)).toEqual({ "tests/t.py::a": ["PASSED"], "tests/t.py::b": ["FAILED"] });
  });
});

describe("leadingNodeId", () => {
  it.each([
    ["tests/a.py::test_p[a b - c] - AssertionError: x - y", "tests/a.py::test_p[a b - c]"],
    ["tests/a.py::TestK::test_q[x::y] - boom", "tests/a.py::TestK::test_q[x::y]"],
    ["tests/a.py::test_u[a]b] - assert 'a]b' == 'ab'", "tests/a.py::test_u[a]b]"],
    ["tests/a.py::test_w[[nested]]", "tests/a.py::test_w[[nested]]"],
    ["tests/a.py - ImportError: no module", "tests/a.py"],
    ["could not connect", null],
  ])("finds the id at the start of %j", (text, id) => {
    expect(leadingNodeId(text)).toBe(id);
  });
});

describe("pytestHeadLine", () => {
  it("names a test as pytest's section headers do", () => {
    expect(pytestHeadLine("tests/a.py::TestK::test_q[x::y]")).toBe("TestK.test_q[x::y]");
    expect(pytestHeadLine("tests/a.py::test_fail")).toBe("test_fail");
  });
});
