/**
 * Helpers shared by the log parsers: turning raw test output into clean lines
 * and recording observations. Parsers record every status report they read;
 * they never merge or overwrite (grading decides what several reports mean).
 */
import type { ParsedLog, TestStatus } from "./types";

/** CSI sequences (colours, cursor moves) and OSC sequences (titles, links). */
const ANSI_PATTERN = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)/g;

export function stripAnsi(text: string): string {
  return text.replace(ANSI_PATTERN, "");
}

/**
 * The log as lines without colour codes or trailing blanks. A bare carriage
 * return also ends a line, so text a terminal would overwrite is still read.
 */
export function logLines(log: string): string[] {
  return stripAnsi(log)
    .split(/\r\n|\n|\r/)
    .map((line) => line.trimEnd());
}

export function emptyParsedLog(): ParsedLog {
  return { observations: new Map() };
}

export function addObservation(parsed: ParsedLog, id: string, status: TestStatus): void {
  const seen = parsed.observations.get(id);
  if (seen) seen.push(status);
  else parsed.observations.set(id, [status]);
}

/** Reports that say a test passed (SPEC §3 step 5: PASSED, XFAIL and XPASS pass). */
export const PASSING_STATUSES: ReadonlySet<TestStatus> = new Set<TestStatus>(["PASSED", "XFAIL", "XPASS"]);

/** Reports that say a test failed or errored. */
export const FAILING_STATUSES: ReadonlySet<TestStatus> = new Set<TestStatus>(["FAILED", "ERROR"]);
