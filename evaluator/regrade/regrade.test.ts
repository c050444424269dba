import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GRADER_VERSION } from "@/core/grading";
import { readStoredTestRun, runBeginMarker, runEndMarker } from "@/evaluator/replay/markers";
import { bugLogDir, resultLine, SUMMARY_FILE } from "@/evaluator/replay/output";
import { runSummary } from "@/core/scoring/test-fixtures";
import { gradedWithLog } from "./test-fixtures";
import type { GradedBug } from "@/core/schemas/results";
import { formatDirRegrade, regradeBug, regradeDir, REGRADED_RESULTS_FILE, REGRADE_REPORT_FILE } from ".";

function fixture(name: string): string {
  return readFileSync(new URL(`../../tests/fixtures/logs/${name}`, import.meta.url), "utf8");
}

const V = "tests/test_v.py::";
const F2P = [`${V}test_prints`, `${V}test_param[a b]`];
const P2P = [`${V}test_pass`];
const TOKEN = "CHAINSWE-0123456789abcdef01234567";

/** A bug graded as the replay grades it, with the log the replay keeps. */
function storedBug(output: string, parser: string, over: { truncated?: boolean; timedOut?: boolean } = {}): { bug: GradedBug; log: string } {
  return gradedWithLog({ output, parser, failToPass: F2P, passToPass: P2P, ...over, result: { continuous_id: "c-1", order: 1, grader_version: "0.9.0" } });
}

describe("readStoredTestRun", () => {
  it("gives back exactly the run between the markers, with the end marker's facts and the listed verdicts", () => {
    const output = fixture("pytest-9-v-s.log").trimEnd();
    const { log } = storedBug(output, "pytest");
    const run = readStoredTestRun(log)!;
    expect(run.output).toBe(output);
    expect([run.exitCode, run.timedOut, run.durationS, run.truncated]).toEqual([1, false, 1.23, false]);
    expect(run.listed.get(`${V}test_prints`)).toBe("ABSENT");
    expect(run.listed.get(`${V}test_pass`)).toBe("PASSED");
  });

  it("is not fooled by markers printed in the output with another token", () => {
    const forged = `${runEndMarker("CHAINSWE-ffffffffffffffffffffffff")} exit=0 timed_out=false duration_s=1.00 truncated=false\n${runBeginMarker("CHAINSWE-ffffffffffffffffffffffff")}\nPASSED ${V}test_prints`;
    const output = `${fixture("pytest-9-v-only.log").trimEnd()}\n${forged}`;
    expect(readStoredTestRun(storedBug(output, "pytest").log)?.output).toBe(output);
  });

  it("is null for a log with no complete run", () => {
    expect(readStoredTestRun(`${runBeginMarker(TOKEN)}\nPASSED x\n`)).toBeNull();
    expect(readStoredTestRun("")).toBeNull();
  });
});

describe("regradeBug", () => {
  it("changes nothing when the grader reads the log as before", () => {
    const { bug, log } = storedBug(fixture("pytest-9-v-only.log"), "pytest-verbose");
    const out = regradeBug({ old: bug, log, failToPass: F2P, passToPass: P2P, parser: "pytest-verbose" });
    expect(out.ok && out.changed).toBe(false);
    if (!out.ok) throw new Error(out.reason);
    expect({ ...out.bug, grader_version: bug.grader_version, package_version: undefined }).toEqual({ ...bug, package_version: undefined });
    expect(out.bug.grader_version).toBe(GRADER_VERSION);
  });

  it("names every test whose status moved when a parser reads more of the log", () => {
    // graded with the -rA parser, the -s run's printed test had no status
    const { bug, log } = storedBug(fixture("pytest-9-v-s.log"), "pytest");
    expect([bug.resolved, bug.fingerprint]).toEqual([false, "left_unfixed"]);
    const out = regradeBug({ old: bug, log, failToPass: F2P, passToPass: P2P, parser: "parse_log_pytest_v2" });
    if (!out.ok) throw new Error(out.reason);
    expect(out.changed).toBe(true);
    expect([out.bug.resolved, out.bug.fingerprint, out.bug.log_parser]).toEqual([true, null, "pytest-verbose"]);
    expect(out.tests).toEqual([{ id: `${V}test_prints`, list: "FAIL_TO_PASS", old: "ABSENT", new: "PASSED" }]);
  });

  it("keeps the contradiction rule: a forged pass of a failing test stays tampered", () => {
    const forged = `${fixture("pytest-9-v-only.log")}\n${V}test_fail PASSED\n`;
    const { bug, log } = storedBug(forged, "pytest");
    const out = regradeBug({ old: bug, log, failToPass: [`${V}test_fail`], passToPass: [], parser: "pytest-verbose" });
    if (!out.ok) throw new Error(out.reason);
    expect([out.bug.resolved, out.bug.tampered]).toEqual([false, true]);
  });

  it("does not parse an overflowing run and keeps it tampered", () => {
    const { bug, log } = storedBug(fixture("pytest-9-v-only.log"), "pytest", { truncated: true });
    const out = regradeBug({ old: bug, log, failToPass: F2P, passToPass: P2P, parser: "pytest" });
    if (!out.ok) throw new Error(out.reason);
    expect([out.bug.resolved, out.bug.tampered, out.changed]).toEqual([false, true, false]);
  });

  it("keeps a run the harness stopped at the disk limit unresolved, read from the log alone", () => {
    const { log } = storedBug(fixture("pytest-9-v-only.log"), "pytest-verbose");
    const stopped = log.replace(/(\+\+\+ chainswe test run \S+ end [^\n]*\n)/, "$1--- stopped by the harness: the container's writable layer passed 4096 MB\n");
    expect(readStoredTestRun(stopped)?.limitExceeded).toBe(true);
    const { bug } = storedBug(fixture("pytest-9-v-only.log"), "pytest-verbose");
    const out = regradeBug({ old: bug, log: stopped, failToPass: F2P, passToPass: P2P, parser: "pytest-verbose" });
    if (!out.ok) throw new Error(out.reason);
    expect([out.bug.resolved, out.bug.fingerprint]).toEqual([false, "no_usable_patch"]);
  });

  it("refuses a log without a run and an unknown parser", () => {
    const { bug, log } = storedBug(fixture("pytest-9-v-only.log"), "pytest");
    expect(regradeBug({ old: bug, log: "nothing", failToPass: F2P, passToPass: P2P, parser: "pytest" })).toMatchObject({ ok: false, reason: /no complete test run/ });
    expect(regradeBug({ old: bug, log, failToPass: F2P, passToPass: P2P, parser: "jest" })).toMatchObject({ ok: false, reason: /unknown log parser "jest"/ });
  });
});

describe("regradeDir", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "chainswe-regrade-"));
    const first = storedBug(fixture("pytest-9-v-s.log"), "pytest");
    const second = storedBug(fixture("pytest-9-v-only.log"), "pytest");
    const bugs = [first.bug, { ...second.bug, order: 2 }, { ...second.bug, order: 3 }];
    await writeFile(join(dir, SUMMARY_FILE), JSON.stringify({ ...runSummary("sys", "seq", [["c-1", 3]]), dataset: { path: join(dir, "gone.jsonl"), sha256: "0".repeat(64), chains: [{ continuous_id: "c-1", length: 3 }] } }));
    await writeFile(join(dir, "results.jsonl"), bugs.map(resultLine).join(""));
    for (const [order, log] of [[1, first.log], [2, second.log]] as const) {
      await mkdir(bugLogDir(dir, "c-1", order), { recursive: true });
      await writeFile(join(bugLogDir(dir, "c-1", order), "test_output.txt"), log);
    }
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it("writes the new results beside the old, reports the changes and the bugs it could not re-grade", async () => {
    const before = await readFile(join(dir, "results.jsonl"), "utf8");
    // the results name the parser they were graded with; the dataset is gone, so the lists come from the results
    const results = before.replaceAll('"log_parser":"pytest"', '"log_parser":"pytest-verbose"');
    await writeFile(join(dir, "results.jsonl"), results);
    const report = await regradeDir(dir);
    expect(report).toMatchObject({ bugs: 3, lists_from: "results", grader_version: GRADER_VERSION });
    expect(report.changed.map((c) => [c.order, c.old.resolved, c.new.resolved])).toEqual([[1, false, true]]);
    expect(report.failures).toEqual([{ continuous_id: "c-1", order: 3, reason: "no test_output.txt" }]);
    expect(await readFile(join(dir, "results.jsonl"), "utf8")).toBe(results);
    const regraded = (await readFile(join(dir, REGRADED_RESULTS_FILE), "utf8")).trimEnd().split("\n").map((l) => JSON.parse(l) as GradedBug);
    expect(regraded.map((b) => [b.order, b.resolved, b.grader_version])).toEqual([
      [1, true, GRADER_VERSION],
      [2, true, GRADER_VERSION],
      [3, true, "0.9.0"],
    ]);
    expect(JSON.parse(await readFile(join(dir, REGRADE_REPORT_FILE), "utf8"))).toMatchObject({ changed: [{ order: 1 }] });
    const text = formatDirRegrade(report);
    expect(text).toContain("1 verdict(s) changed, 1 not re-graded");
    expect(text).toContain("c-1 bug 1 (c-1-1): UNRESOLVED (left_unfixed) → RESOLVED");
    expect(text).toContain(`FAIL_TO_PASS ${V}test_prints: ABSENT → PASSED`);
  });
});
