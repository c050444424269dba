import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parsePytestLog, parseUnittestLog, type ParsedLog } from "@/core/parsers";
import { gradeBug, listedTestsWithStatus, testVerdict, type GradeInput } from "./index";

function fixture(name: string): string {
  return readFileSync(new URL(`../../tests/fixtures/logs/${name}`, import.meta.url), "utf8");
}

const A = "tests/test_a.py::";
const featureRun = parsePytestLog(fixture("pytest-9-rA-v.log"));

function grade(parsed: ParsedLog, failToPass: string[], passToPass: string[], over: Partial<GradeInput> = {}) {
  return gradeBug({
    parsed,
    failToPass,
    passToPass,
    patchApplied: true,
    patchEmpty: false,
    timedOut: false,
    exitCode: 1,
    ...over,
  });
}

describe("gradeBug: passing tests", () => {
  it("resolves a bug when every listed test passes (PASSED, XFAIL and XPASS pass)", () => {
    const result = grade(featureRun, [`${A}test_p[plain]`, `${A}test_xpass`], [`${A}TestK::test_ok`, `${A}test_xfail_reason`]);
    expect(result).toEqual({
      resolved: true,
      fingerprint: null,
      tampered: false,
      fail_to_pass: { success: [`${A}test_p[plain]`, `${A}test_xpass`], failure: [] },
      pass_to_pass: { success: [`${A}TestK::test_ok`, `${A}test_xfail_reason`], failure: [] },
      statuses: {
        [`${A}test_p[plain]`]: "PASSED",
        [`${A}test_xpass`]: "XPASS",
        [`${A}TestK::test_ok`]: "PASSED",
        [`${A}test_xfail_reason`]: "XFAIL",
      },
    });
  });

  it("keeps split lists in the dataset's order, not the log's", () => {
    const f2p = ["tests/test_b.py::test_other", `${A}test_fail`, `${A}test_pass`];
    const result = grade(featureRun, f2p, []);
    expect(result.fail_to_pass).toEqual({
      success: ["tests/test_b.py::test_other", `${A}test_pass`],
      failure: [`${A}test_fail`],
    });
  });

  it("resolves an empty patch whose tests already pass (an earlier Seq patch fixed the bug)", () => {
    const result = grade(featureRun, [`${A}test_pass`], [], { patchEmpty: true, exitCode: 0 });
    expect(result.resolved).toBe(true);
  });
});

describe("gradeBug: SKIPPED", () => {
  it("does not pass a FAIL_TO_PASS test", () => {
    const result = grade(featureRun, [`${A}test_skipped`], [`${A}test_pass`]);
    expect(result.resolved).toBe(false);
    expect(result.fingerprint).toBe("left_unfixed");
    expect(result.statuses[`${A}test_skipped`]).toBe("SKIPPED");
    expect(result.fail_to_pass.failure).toEqual([`${A}test_skipped`]);
  });

  it("keeps a PASS_TO_PASS test", () => {
    const result = grade(featureRun, [`${A}test_pass`], [`${A}test_skipped`, `${A}test_skip_inside`]);
    expect(result.resolved).toBe(true);
    expect(result.pass_to_pass.success).toEqual([`${A}test_skipped`, `${A}test_skip_inside`]);
  });
});

describe("gradeBug: absent and failing tests", () => {
  it("counts an absent FAIL_TO_PASS test as failed", () => {
    const result = grade(featureRun, [`${A}test_missing`], [`${A}test_pass`]);
    expect(result.statuses[`${A}test_missing`]).toBe("ABSENT");
    expect(result.fingerprint).toBe("left_unfixed");
  });

  it("counts an absent PASS_TO_PASS test as broken", () => {
    const result = grade(featureRun, [`${A}test_pass`], [`${A}test_missing`]);
    expect(result.resolved).toBe(false);
    expect(result.fingerprint).toBe("broke_working_code");
  });

  it("reads errors at setup and teardown as failures, not contradictions", () => {
    const result = grade(featureRun, [`${A}test_setup_error`], [`${A}test_teardown_error`]);
    expect(result.statuses).toEqual({ [`${A}test_setup_error`]: "ERROR", [`${A}test_teardown_error`]: "ERROR" });
    expect(result.tampered).toBe(false);
    expect(result.fingerprint).toBe("broke_working_code");
  });
});

describe("gradeBug: fingerprints, first match wins", () => {
  const f2pFails = [`${A}test_fail`];
  const p2pFails = [`${A}test_u[a]b]`];

  it("no_usable_patch for an empty patch, before broke_working_code", () => {
    expect(grade(featureRun, f2pFails, p2pFails, { patchEmpty: true }).fingerprint).toBe("no_usable_patch");
  });

  it("no_usable_patch for a patch that did not apply", () => {
    expect(grade(featureRun, f2pFails, p2pFails, { patchApplied: false }).fingerprint).toBe("no_usable_patch");
  });

  it("no_usable_patch and unresolved for a timed-out run, even if tests were reported passing", () => {
    const result = grade(featureRun, [`${A}test_pass`], [`${A}TestK::test_ok`], { timedOut: true, exitCode: null });
    expect(result.resolved).toBe(false);
    expect(result.fingerprint).toBe("no_usable_patch");
    expect(result.fail_to_pass.success).toEqual([`${A}test_pass`]);
  });

  it("no_usable_patch and unresolved for a run stopped at the disk limit, like a timeout", () => {
    const result = grade(featureRun, [`${A}test_pass`], [`${A}TestK::test_ok`], { limitExceeded: true, exitCode: null });
    expect(result).toMatchObject({ resolved: false, fingerprint: "no_usable_patch" });
  });

  it.each(["pytest-9-collection-error.log", "pytest-7-collection-error.log"])(
    "no_usable_patch when no listed test has any status (%s)",
    (name) => {
      const parsed = parsePytestLog(fixture(name));
      const result = grade(parsed, ["tests/test_imp.py::test_x"], ["tests/test_c.py::test_good"], { exitCode: 2 });
      expect(result.statuses).toEqual({ "tests/test_imp.py::test_x": "ABSENT", "tests/test_c.py::test_good": "ABSENT" });
      expect(result.fingerprint).toBe("no_usable_patch");
    },
  );

  it("broke_working_code when a PASS_TO_PASS test fails, before left_unfixed", () => {
    const result = grade(featureRun, f2pFails, p2pFails);
    expect(result.fingerprint).toBe("broke_working_code");
    expect(result.pass_to_pass).toEqual({ success: [], failure: p2pFails });
  });

  it("left_unfixed when only FAIL_TO_PASS tests fail", () => {
    const result = grade(featureRun, [...f2pFails, `${A}test_pass`], [`${A}test_p[plain]`]);
    expect(result.fingerprint).toBe("left_unfixed");
    expect(result.fail_to_pass).toEqual({ success: [`${A}test_pass`], failure: f2pFails });
  });
});

describe("gradeBug: contradicted reports (tampering)", () => {
  it("does not pass a test a patch printed as PASSED while pytest reported it FAILED", () => {
    const log = [
      "tests/x.py::t PASSED",
      "PASSED tests/x.py::t",
      "=================================== FAILURES ===================================",
      "=========================== short test summary info ============================",
      "FAILED tests/x.py::t - assert 1 == 2",
      "============================== 1 failed in 0.02s ===============================",
    ].join("\n");
    const result = grade(parsePytestLog(log), ["tests/x.py::t"], []);
    expect(result.statuses).toEqual({ "tests/x.py::t": "CONTRADICTED" });
    expect(result.resolved).toBe(false);
    expect(result.tampered).toBe(true);
    expect(result.fingerprint).toBe("left_unfixed");
  });

  it("does not let a forged report after the real one win as the last report", () => {
    const log = "FAILED tests/x.py::t - assert 1 == 2\nPASSED tests/x.py::t\n";
    expect(grade(parsePytestLog(log), [], ["tests/x.py::t"]).pass_to_pass.failure).toEqual(["tests/x.py::t"]);
  });

  it("treats a forged pass after a real skip as contradicting a FAIL_TO_PASS test", () => {
    const parsed = parsePytestLog("tests/x.py::t SKIPPED (no db)  [100%]\nPASSED tests/x.py::t\n");
    const result = grade(parsed, ["tests/x.py::t"], []);
    expect(result.statuses["tests/x.py::t"]).toBe("CONTRADICTED");
    expect(result.tampered).toBe(true);
  });

  it("treats a forged skip after a real failure as contradicting a PASS_TO_PASS test", () => {
    const parsed = parsePytestLog("FAILED tests/x.py::t - boom\ntests/x.py::t SKIPPED  [100%]\n");
    const result = grade(parsed, [], ["tests/x.py::t"]);
    expect(result.statuses["tests/x.py::t"]).toBe("CONTRADICTED");
    expect(result.fingerprint).toBe("broke_working_code");
  });

  it("flags only listed tests", () => {
    const parsed = parsePytestLog("PASSED tests/x.py::other\nFAILED tests/x.py::other\nPASSED tests/x.py::t\n");
    expect(grade(parsed, ["tests/x.py::t"], []).tampered).toBe(false);
  });
});

describe("regression: code under test forges pytest output", () => {
  it("fake PASSED lines and a fake `3 passed` summary before pytest's real summary do not pass a test", () => {
    const log = fixture("pytest-9-spoofed-summary.log");
    expect(log).toContain("PASSED tests/test_calc.py::test_add\n");
    expect(log).toContain("== 3 passed in 0.01s ==");
    const f2p = ["tests/test_calc.py::test_add", "tests/test_calc.py::test_add_negative"];
    const result = grade(parsePytestLog(log), f2p, ["tests/test_calc.py::test_sub"]);
    expect(result).toMatchObject({
      resolved: false,
      tampered: true,
      fingerprint: "left_unfixed",
      fail_to_pass: { success: [], failure: f2p },
      pass_to_pass: { success: ["tests/test_calc.py::test_sub"], failure: [] },
      statuses: {
        "tests/test_calc.py::test_add": "CONTRADICTED",
        "tests/test_calc.py::test_add_negative": "CONTRADICTED",
        "tests/test_calc.py::test_sub": "PASSED",
      },
    });
  });

  it("fake PASSED lines printed while the test file fails to import do not pass a test", () => {
    const parsed = parsePytestLog(fixture("pytest-9-spoofed-collection.log"));
    const result = grade(parsed, ["tests/test_calc.py::test_add"], ["tests/test_calc.py::test_sub"], { exitCode: 2 });
    expect(result.resolved).toBe(false);
    expect(result.tampered).toBe(true);
    expect(result.statuses).toEqual({
      "tests/test_calc.py::test_add": "CONTRADICTED",
      "tests/test_calc.py::test_sub": "CONTRADICTED",
    });
  });

  it("forged unittest `... ok` lines beside the real FAIL block do not pass a test", () => {
    const parsed = parseUnittestLog(fixture("unittest-py311-spoofed.log"));
    const result = grade(parsed, ["test_add (tests.test_calc.TestCalc.test_add)"], ["test_sub (tests.test_calc.TestCalc.test_sub)"]);
    expect(result.resolved).toBe(false);
    expect(result.tampered).toBe(true);
    expect(result.fingerprint).toBe("left_unfixed");
  });
});

describe("testVerdict and listedTestsWithStatus", () => {
  it("takes the last report when reports agree", () => {
    expect(testVerdict(["FAILED", "ERROR"], "FAIL_TO_PASS")).toBe("ERROR");
    expect(testVerdict(["PASSED", "XFAIL"], "FAIL_TO_PASS")).toBe("XFAIL");
    expect(testVerdict(["SKIPPED", "PASSED"], "PASS_TO_PASS")).toBe("PASSED");
    expect(testVerdict([], "PASS_TO_PASS")).toBe("ABSENT");
    expect(testVerdict(undefined, "PASS_TO_PASS")).toBe("ABSENT");
  });

  it("gives the verdict of each listed id", () => {
    expect(listedTestsWithStatus(featureRun, [`${A}test_fail`, `${A}nope`])).toEqual({
      [`${A}test_fail`]: "FAILED",
      [`${A}nope`]: "ABSENT",
    });
  });
});

describe("grading is pure", () => {
  it("imports no Docker, file system or database code", () => {
    const importsOf = (file: string) => [...readFileSync(new URL(file, import.meta.url), "utf8").matchAll(/from "([^"]+)"/g)].map((m) => m[1]);
    expect(importsOf("./index.ts")).toEqual(["@/core/parsers", "@/core/schemas/results", "./version"]);
    // hashing is pure too: node:crypto is the one runtime module the grader version needs
    expect(importsOf("./version.ts")).toEqual(["node:crypto", "@/core/parsers", "@/package.json", "@/core/schemas/dataset", "@/core/schemas/prediction"]);
  });
});
