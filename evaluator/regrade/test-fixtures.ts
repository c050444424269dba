/**
 * A bug graded from a test run exactly as the replay grades it, with the log
 * the replay keeps for it: what re-grading, bundles and their benchmark read.
 * For tests and benchmarks only.
 */
import { gradeBug } from "@/core/grading";
import { getLogParser } from "@/core/parsers";
import { bugLogText } from "@/evaluator/replay/log";
import { gradedBug } from "@/core/scoring/test-fixtures";
import type { GradedBug } from "@/core/schemas/results";

export const FIXTURE_TOKEN = "CHAINSWE-0123456789abcdef01234567";

export type StoredRun = {
  output: string;
  parser: string;
  failToPass: string[];
  passToPass: string[];
  /** the result's fields beside the grade (its chain and order; its system, recorded grader…) */
  result: Partial<GradedBug> & { continuous_id: string; order: number };
  exitCode?: number;
  truncated?: boolean;
  timedOut?: boolean;
  setupLog?: string;
  durationMs?: number;
};

export function gradedWithLog(o: StoredRun): { bug: GradedBug; log: string } {
  const exitCode = o.exitCode ?? 1;
  const run = { output: o.output, exitCode, timedOut: o.timedOut ?? false, diskExceeded: null, truncated: o.truncated ?? false, durationMs: o.durationMs ?? 1234 };
  const grade = gradeBug({
    parsed: run.truncated ? { observations: new Map() } : getLogParser(o.parser)(o.output),
    failToPass: o.failToPass,
    passToPass: o.passToPass,
    patchApplied: true,
    patchEmpty: false,
    timedOut: run.timedOut,
    exitCode,
  });
  const bug = gradedBug("seq", o.result.system ?? "sys", {
    ...o.result,
    resolved: grade.resolved,
    fingerprint: grade.fingerprint,
    tampered: grade.tampered || run.truncated,
    fail_to_pass: grade.fail_to_pass,
    pass_to_pass: grade.pass_to_pass,
    log_parser: o.parser,
  });
  return { bug, log: bugLogText({ bug, setupLog: o.setupLog ?? ">>> applied", run, token: FIXTURE_TOKEN, statuses: grade.statuses }) };
}
