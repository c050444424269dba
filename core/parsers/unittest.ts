/**
 * Parser for `python -m unittest -v` output (SPEC §3 step 4). Test ids are the
 * text unittest prints before ` ... `, as SWE-bench uses them:
 * `test_foo (pkg.mod.TestX.test_foo)` on Python 3.11+, `test_foo (pkg.mod.TestX)` before.
 * Tested against real Python 3.10 and 3.11 logs in tests/fixtures/logs.
 *
 * Invariants:
 * - Every status report is recorded, in order, never merged: the verbose line
 *   (`<id> ... ok`) and the trailer block header (`FAIL: <id>`) are two observations
 *   of one test, and a forged `<id> ... ok` next to a real `FAIL: <id>` stays visible.
 * - A test with a docstring is printed as `<id>` alone, then `<first line> ... <status>`.
 * - Lines are read with string searches and anchored regexes only: test output is
 *   untrusted and may be huge, so no line may cost more than linear time.
 * - Output the test itself prints lands after ` ... `; the status then comes on a
 *   later line of its own, which is credited to the test still awaiting a status
 *   (and to nothing if no test is waiting).
 * - Older Pythons print a failing subtest's parent with no status and the next test on
 *   the same line (`<id> ... <next id> ... ok`): each id on the line is read.
 * - Subtest reports (`<id> (i=2) ... FAIL`, `FAIL: <id> [msg] (i=2)`) count for the
 *   parent test id.
 */
import { addObservation, emptyParsedLog, logLines } from "./log-text";
import type { LogParser, ParsedLog, TestStatus } from "./types";

/** `name (dotted.path)` at the start of a line. */
const TEST_ID = /^\s*([^\s()]+ \([^\s()]+\))/;
const TEST_ALONE = /^([^\s()]+ \([^\s()]+\))$/;
const TRAILER_HEAD = /^(ERROR|FAIL|UNEXPECTED SUCCESS): /;
const SEPARATOR = " ... ";
const ELLIPSIS = " ...";

const TRAILER_STATUS: Record<string, TestStatus> = {
  ERROR: "ERROR",
  FAIL: "FAILED",
  "UNEXPECTED SUCCESS": "XPASS",
};

/** The verbose result words of unittest's TextTestResult. */
export function unittestStatus(word: string): TestStatus | null {
  switch (word) {
    case "ok":
      return "PASSED";
    case "FAIL":
      return "FAILED";
    case "ERROR":
      return "ERROR";
    case "expected failure":
      return "XFAIL";
    case "unexpected success":
      return "XPASS";
    default:
      return word === "skipped" || word.startsWith("skipped ") ? "SKIPPED" : null;
  }
}

/** How a runner built on unittest names tests: Django's lists also name a test by its docstring's first line. */
export type UnittestOptions = { descriptionsAreIds?: boolean };

/** `awaiting`: the names of the test still waiting for its status (its id, and its description when that names it too). */
type State = { parsed: ParsedLog; awaiting: string[]; described: string | null; options: UnittestOptions };
type TestLine = { id: string; rest: string };

/** Whether line[from, to) is empty or a subtest description: ` [msg]`, ` (params)` or both. */
function isSubtestSuffix(line: string, from: number, to: number): boolean {
  if (from === to) return true;
  const opens = line[from] === " " && (line[from + 1] === "[" || line[from + 1] === "(");
  return opens && (line[to - 1] === "]" || line[to - 1] === ")");
}

/**
 * `<id>[ subtest] ... <rest>`: the id and what follows ` ... `. Read with string
 * searches, not backtracking regexes: test output is untrusted and may be huge.
 */
function readTestLine(line: string): TestLine | null {
  const match = TEST_ID.exec(line);
  if (match?.[1] === undefined) return null;
  const start = match[0].length;
  for (let at = line.indexOf(ELLIPSIS, start); at >= 0; at = line.indexOf(ELLIPSIS, at + 1)) {
    const after = at + ELLIPSIS.length;
    if (after < line.length && line[after] !== " ") continue;
    if (isSubtestSuffix(line, start, at)) return { id: match[1], rest: line.slice(after + 1) };
  }
  return null;
}

/** `FAIL: <id>[ subtest]` and the like, from the trailer after the run. */
function readTrailerLine(line: string): { id: string; status: TestStatus } | null {
  const head = TRAILER_HEAD.exec(line);
  if (head?.[1] === undefined) return null;
  const match = TEST_ID.exec(line.slice(head[0].length));
  if (match?.[1] === undefined || /^\s/.test(match[0])) return null;
  const start = head[0].length + match[0].length;
  const status = TRAILER_STATUS[head[1]];
  return status && isSubtestSuffix(line, start, line.length) ? { id: match[1], status } : null;
}

/** What follows ` ... ` for a test: its status, another test's line, or its own output. */
function readResult(state: State, first: TestLine, names: string[] = []): void {
  for (let line: TestLine | null = first; line !== null; line = readTestLine(line.rest)) {
    const ids = line === first ? [line.id, ...names] : [line.id];
    const status = unittestStatus(line.rest);
    if (status) {
      for (const id of ids) addObservation(state.parsed, id, status);
      state.awaiting = [];
      return;
    }
    state.awaiting = ids;
  }
}

/**
 * The line after a test printed alone: `<docstring first line> ... <status>`.
 * Returns false when the line is not such a description (the id was output).
 */
function readDescribed(state: State, id: string, line: string): boolean {
  const at = line.indexOf(SEPARATOR);
  if (at < 0) {
    if (!line.endsWith(ELLIPSIS)) return false;
    state.awaiting = [id, ...descriptionName(state, line.slice(0, -ELLIPSIS.length))];
    return true;
  }
  const rest = line.slice(at + SEPARATOR.length);
  // a docstring may itself hold " ... ": the status follows the last one
  const own = readTestLine(rest) ? rest : line.slice(line.lastIndexOf(SEPARATOR) + SEPARATOR.length);
  const description = line.slice(0, own === rest ? at : line.lastIndexOf(SEPARATOR));
  readResult(state, { id, rest: own }, descriptionName(state, description));
  return true;
}

function readLine(state: State, line: string): void {
  const described = state.described;
  state.described = null;
  const test = readTestLine(line);
  // a test's own line wins over reading it as the description of a printed id
  if (described !== null && test === null && readDescribed(state, described, line)) return;
  const trailer = readTrailerLine(line);
  if (trailer) {
    addObservation(state.parsed, trailer.id, trailer.status);
    return;
  }
  if (test) return readResult(state, test);
  const alone = TEST_ALONE.exec(line);
  if (alone?.[1] !== undefined) {
    state.described = alone[1];
    return;
  }
  const status = unittestStatus(line.trim());
  if (status && state.awaiting.length > 0) {
    for (const id of state.awaiting) addObservation(state.parsed, id, status);
    state.awaiting = [];
  }
}

/** The docstring line as a test name, when the runner's datasets use it as one. */
function descriptionName(state: State, description: string): string[] {
  const name = description.trim();
  return state.options.descriptionsAreIds && name !== "" ? [name] : [];
}

export function parseUnittestLines(log: string, options: UnittestOptions = {}): ParsedLog {
  const state: State = { parsed: emptyParsedLog(), awaiting: [], described: null, options };
  for (const line of logLines(log)) readLine(state, line);
  return state.parsed;
}

export const parseUnittestLog: LogParser = (log) => parseUnittestLines(log);
