/**
 * Re-grading one bug from its stored log (SPEC §7 "Re-grade"): the run between the
 * log's markers is parsed and graded again with the current grader. Nothing else is
 * re-read or re-run: the patch, its application and the run's facts (exit code,
 * timeout, disk limit) stay as stored. Pure: text and plain data in, verdict out.
 *
 * Invariants:
 * - The same rules as the replay (core/grading): an overflowing run is not parsed
 *   and stays tampered; an unapplied (or empty) patch is `no_usable_patch` when
 *   unresolved, whatever the tests say.
 * - A bug is `changed` when its resolved flag, fingerprint or tampered flag differs, or
 *   any listed test moved between passing and not passing. A re-grade that changes
 *   nothing gives the same verdict fields back, so no stored score moves.
 * - Per-test old statuses come from the listed-tests section the old grader wrote into
 *   the log; without one (an old log), from the old result's success/failure split.
 */
import { GRADER_VERSION, PACKAGE_VERSION, chainParserName, gradeBug, verdictPasses, type TestList, type TestVerdict } from "@/core/grading";
import { emptyParsedLog } from "@/core/parsers/log-text";
import { getLogParser } from "@/core/parsers";
import { readStoredTestRun } from "@/evaluator/replay/markers";
import type { GradedBug } from "@/core/schemas/results";

export type RegradeInput = {
  old: GradedBug;
  /** the bug's test_output.txt */
  log: string;
  /** the bug's lists in dataset order; from the old result's splits when the dataset is not at hand */
  failToPass: string[];
  passToPass: string[];
  /** the chain's log_parser (any registered name or alias) */
  parser: string;
};

/** One listed test whose status moved; `old` is what the old grader wrote (or "passed"/"failed" from its split). */
export type TestChange = { id: string; list: TestList; old: string; new: TestVerdict };

export type RegradeOutcome =
  | { ok: true; bug: GradedBug; changed: boolean; tests: TestChange[] }
  | { ok: false; reason: string };

/** The lists a result itself records, for when the dataset is not at hand (their relative order is kept per split). */
export function listsFromResult(bug: GradedBug): { failToPass: string[]; passToPass: string[] } {
  return {
    failToPass: [...bug.fail_to_pass.success, ...bug.fail_to_pass.failure],
    passToPass: [...bug.pass_to_pass.success, ...bug.pass_to_pass.failure],
  };
}

function oldPassed(old: GradedBug, list: TestList, id: string): boolean {
  return (list === "FAIL_TO_PASS" ? old.fail_to_pass : old.pass_to_pass).success.includes(id);
}

function testChanges(input: RegradeInput, listed: Map<string, string>, statuses: Record<string, TestVerdict>): TestChange[] {
  const changes: TestChange[] = [];
  const lists: [TestList, string[]][] = [
    ["FAIL_TO_PASS", input.failToPass],
    ["PASS_TO_PASS", input.passToPass],
  ];
  for (const [list, ids] of lists) {
    for (const id of ids) {
      const now = statuses[id] ?? "ABSENT";
      const before = oldPassed(input.old, list, id);
      if (before === verdictPasses(now, list)) continue;
      changes.push({ id, list, old: listed.get(id) ?? (before ? "passed" : "failed"), new: now });
    }
  }
  return changes;
}

export function regradeBug(input: RegradeInput): RegradeOutcome {
  const { old } = input;
  const run = readStoredTestRun(input.log);
  if (!run) return { ok: false, reason: "the log holds no complete test run between harness markers" };
  let parserName: string;
  try {
    parserName = chainParserName({ log_parser: input.parser });
  } catch (e) {
    return { ok: false, reason: (e as Error).message };
  }
  const parsed = run.truncated ? emptyParsedLog() : getLogParser(parserName)(run.output);
  const grade = gradeBug({
    parsed,
    failToPass: input.failToPass,
    passToPass: input.passToPass,
    patchApplied: old.patch_applied,
    // an empty patch is never applied (the replay skips it), so !patchApplied covers it
    patchEmpty: false,
    timedOut: run.timedOut,
    limitExceeded: old.limit_exceeded !== undefined || run.limitExceeded,
    exitCode: run.exitCode,
  });
  const bug: GradedBug = {
    ...old,
    resolved: grade.resolved,
    fingerprint: grade.fingerprint,
    tampered: grade.tampered || run.truncated,
    fail_to_pass: grade.fail_to_pass,
    pass_to_pass: grade.pass_to_pass,
    grader_version: GRADER_VERSION,
    package_version: PACKAGE_VERSION,
    log_parser: parserName,
  };
  const tests = testChanges(input, run.listed, grade.statuses);
  const changed = tests.length > 0 || bug.resolved !== old.resolved || bug.fingerprint !== old.fingerprint || bug.tampered !== old.tampered;
  return { ok: true, bug, changed, tests };
}
