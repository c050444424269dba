import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { getLogParser, parseUnittestLog, type TestStatus } from "@/core/parsers";
import { unittestStatus } from "./unittest";

function fixture(name: string): string {
  return readFileSync(new URL(`../../tests/fixtures/logs/${name}`, import.meta.url), "utf8");
}

function observations(log: string): Record<string, TestStatus[]> {
  return Object.fromEntries(parseUnittestLog(log).observations);
}

describe("parseUnittestLog on Python 3.11+ output", () => {
  const id = (name: string) => `${name} (pkg.test_mod.TestMath.${name})`;
  const parsed = observations(fixture("unittest-py311.log"));

  it("reads every test with its verbose line and its trailer block", () => {
    expect(parsed).toEqual({
      "setUpClass (pkg.test_mod.TestBrokenSetup)": ["ERROR", "ERROR"],
      [id("test_documented")]: ["PASSED"],
      [id("test_documented_fail")]: ["FAILED", "FAILED"],
      [id("test_error")]: ["ERROR", "ERROR"],
      [id("test_expected_failure")]: ["XFAIL"],
      [id("test_fail")]: ["FAILED", "FAILED"],
      [id("test_ok")]: ["PASSED"],
      [id("test_prints")]: ["PASSED"],
      [id("test_skip")]: ["SKIPPED"],
      [id("test_subtests")]: ["FAILED", "FAILED"],
      [id("test_unexpected_success")]: ["XPASS", "XPASS"],
      "test_broken (unittest.loader._FailedTest.test_broken)": ["ERROR", "ERROR"],
    });
  });

  it("takes a docstring test's status from the line after its name", () => {
    const log = fixture("unittest-py311.log");
    expect(log).toContain(`${id("test_documented")}\nChecks that addition commutes. ... ok`);
    expect(parsed[id("test_documented")]).toEqual(["PASSED"]);
  });

  it("credits a status printed after the test's own output to that test", () => {
    expect(fixture("unittest-py311.log")).toContain(`${id("test_prints")} ... working...\nok`);
    expect(parsed[id("test_prints")]).toEqual(["PASSED"]);
  });
});

describe("parseUnittestLog on Python 3.10 output", () => {
  const id = (name: string) => `${name} (pkg.test_mod.TestMath)`;
  const parsed = observations(fixture("unittest-py310.log"));

  it("reads the older id form and both reports of failures", () => {
    expect(parsed).toEqual({
      [id("test_documented")]: ["PASSED"],
      [id("test_documented_fail")]: ["FAILED", "FAILED"],
      [id("test_error")]: ["ERROR", "ERROR"],
      [id("test_expected_failure")]: ["XFAIL"],
      [id("test_fail")]: ["FAILED", "FAILED"],
      [id("test_ok")]: ["PASSED"],
      [id("test_prints")]: ["PASSED"],
      [id("test_skip")]: ["SKIPPED"],
      [id("test_unexpected_success")]: ["XPASS"],
      "test_broken (unittest.loader._FailedTest)": ["ERROR", "ERROR"],
      "setUpClass (pkg.test_mod.TestBrokenSetup)": ["ERROR"],
      [id("test_subtests")]: ["FAILED"],
    });
  });

  it("reads a test printed on the line of a failing subtest's parent", () => {
    const log = fixture("unittest-py310.log");
    expect(log).toContain(`${id("test_subtests")} ... ${id("test_unexpected_success")} ... unexpected success`);
    expect(parsed[id("test_unexpected_success")]).toEqual(["XPASS"]);
  });

  it("does not credit the bare ERROR of a failed setUpClass to any test", () => {
    expect(fixture("unittest-py310.log").startsWith("ERROR\n")).toBe(true);
    expect(Object.values(parsed).flat().filter((s) => s === "ERROR")).toHaveLength(5);
  });
});

describe("parseUnittestLog on forged output", () => {
  it("keeps the forged ok lines beside unittest's FAIL block", () => {
    expect(observations(fixture("unittest-py311-spoofed.log"))).toEqual({
      "test_add (tests.test_calc.TestCalc.test_add)": ["PASSED", "PASSED", "FAILED"],
      "test_sub (tests.test_calc.TestCalc.test_sub)": ["PASSED"],
    });
  });
});

describe("parseUnittestLog line forms", () => {
  it("maps unittest's result words", () => {
    expect(unittestStatus("ok")).toBe("PASSED");
    expect(unittestStatus("FAIL")).toBe("FAILED");
    expect(unittestStatus("ERROR")).toBe("ERROR");
    expect(unittestStatus("skipped 'no network'")).toBe("SKIPPED");
    expect(unittestStatus('skipped "it\'s off"')).toBe("SKIPPED");
    expect(unittestStatus("expected failure")).toBe("XFAIL");
    expect(unittestStatus("unexpected success")).toBe("XPASS");
    expect(unittestStatus("okay")).toBeNull();
  });

  it("ignores a bare status when no test awaits one", () => {
    expect(observations("ok\nFAIL\nRan 0 tests in 0.000s\n")).toEqual({});
  });

  it("is not misled by an id-like line a test printed", () => {
    const log = "test_a (m.T.test_a) ... printing\nlooks_like (an.id)\nok\nlooks_like (an.id)\ntest_b (m.T.test_b) ... ok\n";
    expect(observations(log)).toEqual({ "test_a (m.T.test_a)": ["PASSED"], "test_b (m.T.test_b)": ["PASSED"] });
  });

  it("counts a subtest's FAIL block for its parent test", () => {
    const log = "FAIL: test_x (m.T.test_x) [case] (i=1, j='a b')\n";
    expect(observations(log)).toEqual({ "test_x (m.T.test_x)": ["FAILED"] });
  });

  it("reads hostile long lines in linear time", () => {
    const lines = ["t (a.b) ... ".repeat(60_000), "t (a.b) [" + "] ... x".repeat(60_000), "FAIL: t (a.b) [" + " (".repeat(60_000)];
    // time is what this test checks: linear reading takes milliseconds, a backtracking pattern on
    // these lines orders of magnitude longer; the bound is wide enough for a loaded machine
    const started = performance.now();
    const parsed = observations(lines.join("\n"));
    expect(performance.now() - started).toBeLessThan(20_000);
    expect(parsed).toEqual({});
  });

  it("is registered as unittest", () => {
    expect(getLogParser("unittest")).toBe(parseUnittestLog);
  });
});
