/**
 * Grading (SPEC §3 steps 4–6): parsed test log in, verdict out. Pure: no I/O,
 * no Docker, no database.
 *
 * Invariants:
 * - A listed test's reports decide its status. If they disagree on whether it passes
 *   (PASSED/XFAIL/XPASS in one place, FAILED/ERROR in another; for a FAIL_TO_PASS test
 *   SKIPPED is on the failing side, for a PASS_TO_PASS test on the passing side), the
 *   test is CONTRADICTED: it does not pass and the bug is flagged `tampered`. Otherwise
 *   its status is its last report; with none it is ABSENT and does not pass.
 * - Output can be forged, so more reports can only make a test not pass: a fake
 *   `PASSED` line never turns a real failure or skip into a pass.
 * - Resolved iff not timed out, not stopped at a resource limit (disk), and every
 *   FAIL_TO_PASS and PASS_TO_PASS test passes.
 *   An empty or unapplied patch can resolve (a Seq chain's earlier patch may have fixed
 *   the bug already); the tests decide.
 * - The exit code is kept for reviewers but decides nothing: code under test chooses it.
 * - Unresolved bugs get one fingerprint, first match wins: no_usable_patch,
 *   broke_working_code, left_unfixed.
 */
import { FAILING_STATUSES, PASSING_STATUSES, type ParsedLog, type TestStatus } from "@/core/parsers";
import type { Fingerprint, TestSplit } from "@/core/schemas/results";

export type TestList = "FAIL_TO_PASS" | "PASS_TO_PASS";
export type TestVerdict = TestStatus | "ABSENT" | "CONTRADICTED";

export type GradeInput = {
  parsed: ParsedLog;
  failToPass: string[];
  passToPass: string[];
  patchApplied: boolean;
  patchEmpty: boolean;
  timedOut: boolean;
  /** the harness stopped the run at a resource limit other than time (the disk) */
  limitExceeded?: boolean;
  exitCode: number | null;
};

export type Grade = {
  resolved: boolean;
  fingerprint: Fingerprint | null;
  tampered: boolean;
  fail_to_pass: TestSplit;
  pass_to_pass: TestSplit;
  /** verdict of every listed test */
  statuses: Record<string, TestVerdict>;
};

/** Whether one report counts as a pass for a test of `list` (SPEC §3 step 5). */
function reportPasses(status: TestStatus, list: TestList): boolean {
  return PASSING_STATUSES.has(status) || (status === "SKIPPED" && list === "PASS_TO_PASS");
}

/** Whether one report counts against a test of `list`. */
function reportFails(status: TestStatus, list: TestList): boolean {
  return FAILING_STATUSES.has(status) || (status === "SKIPPED" && list === "FAIL_TO_PASS");
}

/** A test's verdict from all its reports, in order of appearance. */
export function testVerdict(reports: readonly TestStatus[] | undefined, list: TestList): TestVerdict {
  const last = reports?.at(-1);
  if (reports === undefined || last === undefined) return "ABSENT";
  const passes = reports.some((status) => reportPasses(status, list));
  const fails = reports.some((status) => reportFails(status, list));
  return passes && fails ? "CONTRADICTED" : last;
}

export function verdictPasses(verdict: TestVerdict, list: TestList): boolean {
  return verdict !== "ABSENT" && verdict !== "CONTRADICTED" && reportPasses(verdict, list);
}

/** The verdict of each listed test of one list, keyed by test id. */
export function listedTestsWithStatus(
  parsed: ParsedLog,
  ids: readonly string[],
  list: TestList = "FAIL_TO_PASS",
): Record<string, TestVerdict> {
  return Object.fromEntries(ids.map((id) => [id, testVerdict(parsed.observations.get(id), list)]));
}

/** Splits a dataset list into passing and failing tests, keeping the list's order. */
function splitTests(verdicts: Record<string, TestVerdict>, ids: readonly string[], list: TestList): TestSplit {
  const split: TestSplit = { success: [], failure: [] };
  for (const id of ids) {
    const verdict = verdicts[id] ?? "ABSENT";
    (verdictPasses(verdict, list) ? split.success : split.failure).push(id);
  }
  return split;
}

function fingerprintOf(input: GradeInput, passToPass: TestSplit): Fingerprint {
  const listed = [...input.failToPass, ...input.passToPass];
  const anyReport = listed.some((id) => (input.parsed.observations.get(id)?.length ?? 0) > 0);
  if (input.patchEmpty || !input.patchApplied || input.timedOut || input.limitExceeded || !anyReport) return "no_usable_patch";
  return passToPass.failure.length > 0 ? "broke_working_code" : "left_unfixed";
}

export function gradeBug(input: GradeInput): Grade {
  const f2pVerdicts = listedTestsWithStatus(input.parsed, input.failToPass, "FAIL_TO_PASS");
  const p2pVerdicts = listedTestsWithStatus(input.parsed, input.passToPass, "PASS_TO_PASS");
  const fail_to_pass = splitTests(f2pVerdicts, input.failToPass, "FAIL_TO_PASS");
  const pass_to_pass = splitTests(p2pVerdicts, input.passToPass, "PASS_TO_PASS");
  const statuses = { ...p2pVerdicts, ...f2pVerdicts };
  const tampered = [f2pVerdicts, p2pVerdicts].some((v) => Object.values(v).includes("CONTRADICTED"));
  const resolved = !input.timedOut && !input.limitExceeded && fail_to_pass.failure.length === 0 && pass_to_pass.failure.length === 0;
  return {
    resolved,
    fingerprint: resolved ? null : fingerprintOf(input, pass_to_pass),
    tampered,
    fail_to_pass,
    pass_to_pass,
    statuses,
  };
}

export {
  GRADER_VERSION,
  PACKAGE_VERSION,
  canonicalJson,
  chainParserName,
  graderProvenance,
  predictionSha256,
  recordSha256,
  sha256Hex,
  type GraderProvenance,
} from "./version";
