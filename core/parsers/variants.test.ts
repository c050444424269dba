import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { gradeBug } from "@/core/grading";
import {
  canonicalLogParser,
  getLogParser,
  LOG_PARSER_NAMES,
  parseAstropyLog,
  parseDjangoLog,
  parseMatplotlibLog,
  parsePytestLog,
  parsePytestOptionsLog,
  parsePytestVerboseLog,
  parseSeabornLog,
  parseSympyLog,
  type ParsedLog,
  type TestStatus,
} from "@/core/parsers";
import { sympyStatus } from "./sympy";

function fixture(name: string): string {
  return readFileSync(new URL(`../../tests/fixtures/logs/${name}`, import.meta.url), "utf8");
}

const obs = (parsed: ParsedLog): Record<string, TestStatus[]> => Object.fromEntries(parsed.observations);

function grade(parsed: ParsedLog, f2p: string[], p2p: string[] = []) {
  return gradeBug({ parsed, failToPass: f2p, passToPass: p2p, patchApplied: true, patchEmpty: false, timedOut: false, exitCode: 1 });
}

const V = "tests/test_v.py::";

describe("parsePytestVerboseLog (pytest -v without -rA)", () => {
  const expected = {
    [`${V}test_pass`]: ["PASSED"],
    [`${V}test_fail`]: ["FAILED", "FAILED"],
    [`${V}test_prints`]: ["PASSED"],
    [`${V}test_prints_then_fails`]: ["FAILED", "FAILED"],
    [`${V}test_skipped`]: ["SKIPPED"],
    [`${V}test_xfail`]: ["XFAIL"],
    [`${V}test_param[a b]`]: ["PASSED"],
    [`${V}test_param[MouseButton.LEFT]`]: ["PASSED"],
  };

  it("reads every -v line and the default failure summary", () => {
    expect(obs(parsePytestVerboseLog(fixture("pytest-9-v-only.log")))).toEqual(expected);
  });

  it("credits a status printed after the test's own output (-s) to that test", () => {
    const log = fixture("pytest-9-v-s.log");
    expect(log).toContain(`${V}test_prints hello from the test\nPASSED\n`);
    expect(obs(parsePytestVerboseLog(log))).toEqual(expected);
    // the plain pytest parser does not see those two tests' -v reports
    expect(parsePytestLog(log).observations.get(`${V}test_prints`)).toBeUndefined();
  });

  it("reads pytest-xdist lines, with and without progress", () => {
    const log = "[gw0] [ 50%] PASSED tests/t.py::test_a \n[gw1] FAILED tests/t.py::test_b[x y]\n[gw1] [ 3/18] SKIPPED tests/t.py::test_c\n";
    expect(obs(parsePytestVerboseLog(log))).toEqual({
      "tests/t.py::test_a": ["PASSED"],
      "tests/t.py::test_b[x y]": ["FAILED"],
      "tests/t.py::test_c": ["SKIPPED"],
    });
  });

  it("credits a lone status to nothing when no test awaits one", () => {
    expect(obs(parsePytestVerboseLog("PASSED\ntests/t.py::test_a PASSED\nPASSED\n"))).toEqual({ "tests/t.py::test_a": ["PASSED"] });
  });

  it("keeps a forged -v pass of a failing test a contradiction", () => {
    const log = fixture("pytest-9-v-only.log").replace(`${V}test_pass PASSED`, `${V}test_pass PASSED\n${V}test_fail PASSED`);
    const result = grade(parsePytestVerboseLog(log), [`${V}test_fail`]);
    expect(result.statuses[`${V}test_fail`]).toBe("CONTRADICTED");
    expect(result.tampered).toBe(true);
    expect(result.resolved).toBe(false);
  });
});

const C = "tests/test_v.py::";

describe("SWE-bench's pytest variants (matplotlib, seaborn, astropy)", () => {
  const log = fixture("pytest-9-rA-vv-classic.log");

  it("reads astropy's -rA -vv classic-style log and names a spaced id as SWE-bench cuts it", () => {
    const parsed = obs(parseAstropyLog(log));
    expect(parsed[`${C}test_param[a b]`]).toEqual(["PASSED", "PASSED"]);
    expect(parsed[`${C}test_param[a`]).toEqual(["PASSED", "PASSED"]);
    expect(parsed[`${C}test_fail`]).toEqual(["FAILED", "FAILED"]);
    expect(parsed[`${C}test_skipped`]).toEqual(["SKIPPED"]);
  });

  it("names matplotlib's MouseButton parameters as SWE-bench lists them", () => {
    const parsed = obs(parseMatplotlibLog(log));
    expect(parsed[`${C}test_param[1]`]).toEqual(["PASSED", "PASSED"]);
    expect(parsed[`${C}test_param[MouseButton.LEFT]`]).toEqual(["PASSED", "PASSED"]);
    expect(obs(parseSeabornLog(log))[`${C}test_param[1]`]).toBeUndefined();
  });

  it("never merges two tests cut to the same name", () => {
    const twoCut = "PASSED tests/t.py::test_p[a b]\nFAILED tests/t.py::test_p[a c] - boom\n";
    const parsed = parseSeabornLog(twoCut);
    expect(parsed.observations.has("tests/t.py::test_p[a")).toBe(false);
    const result = grade(parsed, ["tests/t.py::test_p[a"]);
    expect([result.statuses["tests/t.py::test_p[a"], result.tampered]).toEqual(["ABSENT", false]);
  });

  it("keeps an alias's reports, so a forged pass under the cut name does not pass", () => {
    const forged = "FAILED tests/t.py::test_p[a b] - boom\nPASSED tests/t.py::test_p[a\n";
    const result = grade(parseSeabornLog(forged), ["tests/t.py::test_p[a"]);
    expect(result.statuses["tests/t.py::test_p[a"]).toBe("FAILED");
    expect(result.resolved).toBe(false);
  });
});

describe("SWE-bench's parse_log_pytest_options (requests, pylint)", () => {
  const log = [
    "PASSED tests/test_utils.py::test_path[/testbed/tests/data/a.txt]",
    "FAILED tests/test_utils.py::test_path[/testbed/tests/data/b.txt] - AssertionError",
    "PASSED tests/test_utils.py::test_glob[/testbed/*.txt]",
    "PASSED tests/test_utils.py::test_url[//example.org/x]",
    "PASSED tests/test_utils.py::test_plain[1-2]",
    "",
  ].join("\n");

  it("names a test parametrized over an absolute path by / and the path's last component, as the dataset lists it", () => {
    const parsed = obs(parsePytestOptionsLog(log));
    expect(parsed["tests/test_utils.py::test_path[/a.txt]"]).toEqual(["PASSED"]);
    expect(parsed["tests/test_utils.py::test_path[/b.txt]"]).toEqual(["FAILED"]);
    // the printed ids stay too
    expect(parsed["tests/test_utils.py::test_path[/testbed/tests/data/a.txt]"]).toEqual(["PASSED"]);
  });

  it("leaves globs, // and other parameters as printed", () => {
    const parsed = obs(parsePytestOptionsLog(log));
    expect(Object.keys(parsed).filter((k) => !k.includes("test_path")).sort()).toEqual([
      "tests/test_utils.py::test_glob[/testbed/*.txt]",
      "tests/test_utils.py::test_plain[1-2]",
      "tests/test_utils.py::test_url[//example.org/x]",
    ]);
  });

  it("never merges two paths with the same last component into one name", () => {
    const two = "PASSED t.py::test_p[/x/a.txt]\nFAILED t.py::test_p[/y/a.txt] - boom\n";
    const result = grade(parsePytestOptionsLog(two), ["t.py::test_p[/a.txt]"]);
    expect([result.statuses["t.py::test_p[/a.txt]"], result.tampered]).toEqual(["ABSENT", false]);
  });
});

describe("parseDjangoLog (tests/runtests.py --verbosity 2)", () => {
  const F = "(forms_tests.tests.test_forms.FormsTestCase)";
  const parsed = obs(parseDjangoLog(fixture("django-py39.log")));

  it("reads every test, with its verbose line and its trailer block", () => {
    expect(parsed).toEqual({
      "test_attribute_class (forms_tests.tests.test_forms.RendererTests)": ["PASSED"],
      "test_default (forms_tests.tests.test_forms.RendererTests)": ["PASSED"],
      [`test_accessing_clean ${F}`]: ["PASSED"],
      [`test_auto_id ${F}`]: ["FAILED", "FAILED"],
      [`test_boundfield_label_tag ${F}`]: ["ERROR", "ERROR"],
      [`test_html_safe ${F}`]: ["SKIPPED"],
      [`test_known_breakage ${F}`]: ["XFAIL"],
      [`test_help_text ${F}`]: ["PASSED"],
      "BoundField.help_text is escaped unless marked safe.": ["PASSED"],
      [`test_label_suffix ${F}`]: ["FAILED", "FAILED"],
      "Regression for #8318: a label suffix of ':' is not doubled.": ["FAILED"],
      "test_version (admin_scripts.tests.CommandTypes)": ["PASSED"],
      "--version is equivalent to version": ["PASSED"],
      "test_runserver_addrport (admin_scripts.tests.ManageRunserver)": ["PASSED"],
      "test_custom_500 (admin_scripts.tests.ServerErrors)": ["PASSED"],
    });
  });

  it("ignores the runner's migrations and system-check chatter", () => {
    expect(Object.keys(parsed).some((id) => id.includes("Applying") || id.includes("System check"))).toBe(false);
  });

  it("keeps a forged pass of a failing test a contradiction", () => {
    const log = `${fixture("django-py39.log")}test_auto_id ${F} ... ok\n`;
    const result = grade(parseDjangoLog(log), [`test_auto_id ${F}`]);
    expect([result.statuses[`test_auto_id ${F}`], result.tampered]).toEqual(["CONTRADICTED", true]);
  });
});

describe("parseSympyLog (bin/test --verbose)", () => {
  const parsed = obs(parseSympyLog(fixture("sympy-bin-test.log")));

  it("reads every result word, with the failure headers after the run", () => {
    expect(parsed).toEqual({
      test__aresame: ["PASSED"],
      test_structure: ["PASSED"],
      test_equality: ["FAILED", "FAILED"],
      test_matches_basic: ["ERROR", "FAILED"],
      test_has_slow: ["SKIPPED"],
      test_atoms_known: ["XFAIL"],
      test_printmethod: ["PASSED"],
      test_latex_basic: ["PASSED"],
      test_latex_skipped: ["SKIPPED"],
      test_latex_xpass: ["XPASS"],
      test_latex_timeout: ["ERROR", "FAILED"],
    });
  });

  it("maps each result word", () => {
    const words = ["ok", "F", "E", "T", "f", "X", " - s", "Slow w", "Timeout T", "maybe"];
    expect(words.map(sympyStatus)).toEqual(["PASSED", "FAILED", "ERROR", "ERROR", "XFAIL", "XPASS", "SKIPPED", "SKIPPED", "SKIPPED", null]);
  });

  it("keeps a forged `ok` of a failing test a contradiction", () => {
    const log = fixture("sympy-bin-test.log").replace("test_structure ok", "test_structure ok\ntest_equality ok");
    const result = grade(parseSympyLog(log), ["test_equality"]);
    expect([result.statuses.test_equality, result.tampered]).toEqual(["CONTRADICTED", true]);
  });
});

describe("parser registry", () => {
  it("has one canonical name per parser and resolves SWE-bench's names to it", () => {
    expect(LOG_PARSER_NAMES).toEqual(["pytest", "pytest-verbose", "unittest", "django", "sympy", "matplotlib", "seaborn", "astropy", "pytest-options"]);
    expect(canonicalLogParser("parse_log_pytest_options")).toBe("pytest-options");
    expect(["parse_log_django", "parse_log_sympy", "parse_log_matplotlib", "parse_log_seaborn", "parse_log_astropy", "parse_log_pytest_v2", "parse_log_pytest"].map(canonicalLogParser)).toEqual([
      "django",
      "sympy",
      "matplotlib",
      "seaborn",
      "astropy",
      "pytest-verbose",
      "pytest",
    ]);
    expect(getLogParser("parse_log_django")).toBe(parseDjangoLog);
    expect(getLogParser("pytest")).toBe(parsePytestLog);
  });

  it("names the unknown parser and the known ones", () => {
    expect(canonicalLogParser("jest")).toBeNull();
    expect(() => getLogParser("jest")).toThrow(/"jest".*pytest, pytest-verbose, unittest, django/);
    expect(() => getLogParser("toString")).toThrow(/"toString"/);
    expect(() => getLogParser("Django")).toThrow(/unknown log parser/);
  });
});
