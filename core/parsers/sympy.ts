/**
 * Parser for sympy's `bin/test` (sympy.testing.runtests, SPEC §3 step 4), as
 * SWE-bench runs it: verbose, one line per test function, named without its file as
 * SWE-bench-family datasets list them (`test_issue_1234`).
 *
 *     sympy/core/tests/test_basic.py[4]
 *     test_equality ok
 *     test_subs F
 *     test_slow Slow w
 *     test_known_bug f
 *
 * Result words: `ok` PASSED, `F` FAILED, `E` ERROR, `T` alone (timed out) ERROR,
 * `f` XFAIL, `X` XPASS, `s`/`w`/`K` and `<reason> T` (skipped, with ` - ` or a reason
 * before the letter) SKIPPED.
 *
 * Invariants:
 * - Every report is recorded, never merged. The report after the run names each failed
 *   or errored test again in a centred header (`____ sympy/x/tests/test_y.py:test_z ____`,
 *   `::` in newer sympy): that is a FAILED report of `test_z`, so a forged
 *   `test_z ok` line next to the runner's real failure is a contradiction.
 * - A test's own output lands after its name, so its result may come alone on a later
 *   line; it is credited to the test still awaiting one, and to nothing if none waits.
 * - Lines are read with anchored, linear regexes only (logs are untrusted).
 */
import { addObservation, emptyParsedLog, logLines } from "./log-text";
import type { LogParser, TestStatus } from "./types";

const TEST_NAME = /^(test_\w*)(?: (.*))?$/;
/** `____ path/test_file.py:test_name ____` (one or two colons): a failure or exception header. */
const FAILURE_HEADER = /^_+ [^\s:]+\.py::?(test_\w*) _+$/;
const SKIP_LETTERS = new Set(["s", "w", "K"]);
const FILE_VERDICTS = ["[OK]", "[FAIL]"];

/** The line without the file's right-aligned `[OK]`/`[FAIL]`, printed after its last test's result. */
function withoutFileVerdict(line: string): string {
  const verdict = FILE_VERDICTS.find((v) => line.endsWith(v));
  return verdict ? line.slice(0, -verdict.length).trimEnd() : line;
}

/** The status a result tail (what follows the name) gives, or null. */
export function sympyStatus(tail: string): TestStatus | null {
  switch (tail) {
    case "ok":
      return "PASSED";
    case "F":
      return "FAILED";
    case "E":
    case "T":
      return "ERROR";
    case "f":
      return "XFAIL";
    case "X":
      return "XPASS";
  }
  const space = tail.lastIndexOf(" ");
  const letter = tail.slice(space + 1);
  // a skip prints its reason (or " - ") before the letter; a timeout skip is "Timeout T"
  if (space >= 0 && (SKIP_LETTERS.has(letter) || letter === "T")) return "SKIPPED";
  return SKIP_LETTERS.has(letter) ? "SKIPPED" : null;
}

export const parseSympyLog: LogParser = (log) => {
  const parsed = emptyParsedLog();
  let awaiting: string | null = null;
  for (const raw of logLines(log)) {
    const line = withoutFileVerdict(raw.trim());
    const header = FAILURE_HEADER.exec(line);
    if (header?.[1] !== undefined) {
      addObservation(parsed, header[1], "FAILED");
      continue;
    }
    const test = TEST_NAME.exec(line);
    if (test?.[1] !== undefined) {
      const status = sympyStatus(test[2] ?? "");
      if (status) addObservation(parsed, test[1], status);
      awaiting = status ? null : test[1];
      continue;
    }
    const status = awaiting === null ? null : sympyStatus(line);
    if (status && awaiting !== null) {
      addObservation(parsed, awaiting, status);
      awaiting = null;
    }
  }
  return parsed;
};
