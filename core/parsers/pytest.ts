/**
 * Parser for pytest output (SPEC §3 step 4): the `-rA` short test summary
 * (`PASSED <id>`, `FAILED <id> - message`, `XPASS <id> reason`, …) and, when the
 * run used `-v`, the per-test lines (`<id> PASSED  [ 50%]`). Tested against real
 * pytest 7.2 and 9.0 logs in tests/fixtures/logs.
 *
 * Invariants:
 * - Every status report found anywhere in the log is recorded, in order, for the
 *   node id exactly as pytest printed it (parameters included). Nothing is merged:
 *   a forged `PASSED <id>` line next to pytest's real `FAILED <id>` leaves both,
 *   and grading sees the contradiction.
 * - `SKIPPED [n] file:line: reason` summary lines carry no node id and are ignored;
 *   a skipped test is known only from its `-v` line.
 * - A collection error (`ERROR tests/test_a.py[ - message]`) is recorded for the
 *   file's id, and also as an ERROR of every test of that file the log names: no
 *   test of a file that failed to collect has run, so such a report is forged.
 * - A test that passed but errored at teardown is reported by pytest twice (PASSED,
 *   then ERROR). When an `ERROR at teardown of <test>` header names it, only its
 *   FAILED/ERROR reports are kept, so it reads as an error, not as a contradiction.
 *   This can only make a test not pass, never pass.
 */
import { addObservation, emptyParsedLog, FAILING_STATUSES, logLines } from "./log-text";
import { TEST_STATUSES, type LogParser, type ParsedLog, type TestStatus } from "./types";

const STATUS = `(${TEST_STATUSES.join("|")})`;
/** `-rA` summary line: the status word first. */
const SUMMARY_LINE = new RegExp(`^${STATUS} (.+)$`);
/** `SKIPPED [1] tests/test_a.py:12: reason`: a location, not a node id. */
const SKIP_LOCATION = /^\[\d+\] /;
/** `-v` progress at the end of a line: `[ 50%]`, or `[ 3/18]` with console_output_style=count. */
const PROGRESS = /^ *\d+(?:%|\/\d+)$/;
/** `-vv` shows a test inherited from another file as `<id> <- other/file.py STATUS`. */
const INHERITED_FROM = " <- ";
const TEARDOWN_HEADER = /^_+ ERROR at teardown of (.+?) _+$/;
/** A bare file path, the id pytest gives a collection error. */
const FILE_PATH = /^[^\s:]+\.[A-Za-z0-9]+$/;

export type Report = { id: string; status: TestStatus };
type EndsId = (text: string, index: number) => boolean;

export const atEnd: EndsId = (text, i) => i + 1 === text.length;
const beforeMessage: EndsId = (text, i) => atEnd(text, i) || text.startsWith(" - ", i + 1);
const beforeSpace: EndsId = (text, i) => atEnd(text, i) || text[i + 1] === " ";

/** What may follow a node id on a summary line: PASSED lines end with the id;
 *  pytest 7 writes `XPASS <id> <reason>`, all others ` - <message>`. */
function strictEnd(status: TestStatus): EndsId {
  if (status === "PASSED") return atEnd;
  return status === "XPASS" ? beforeSpace : beforeMessage;
}

function isNodeIdBase(base: string): boolean {
  return base.includes("::") || FILE_PATH.test(base);
}

/** Index of the `]` matching the `[` at `open`, if brackets balance. */
function matchingBracket(text: string, open: number): number | null {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === "[") depth++;
    else if (text[i] === "]" && --depth === 0) return i;
  }
  return null;
}

function paramsEnd(text: string, open: number, endsId: EndsId): number | null {
  const matched = matchingBracket(text, open);
  if (matched !== null && endsId(text, matched)) return matched;
  // parameter ids may hold unbalanced brackets: take the first `]` that can end an id
  for (let i = open + 1; i < text.length; i++) {
    if (text[i] === "]" && endsId(text, i)) return i;
  }
  return null;
}

/**
 * The node id that starts `text` (`path::Class::test[params]`, or a bare file path),
 * or null. Parameters may contain spaces, brackets, ` - ` and `::`; `endsId` says
 * what may follow the closing bracket.
 */
export function leadingNodeId(text: string, endsId: EndsId = beforeSpace): string | null {
  const base = /^[^\s[]+/.exec(text)?.[0];
  if (base === undefined || !isNodeIdBase(base)) return null;
  if (text[base.length] !== "[") return base;
  const end = paramsEnd(text, base.length, endsId) ?? paramsEnd(text, base.length, beforeSpace);
  return end === null ? null : text.slice(0, end + 1);
}

function readSummaryLine(line: string): Report | null {
  const match = SUMMARY_LINE.exec(line);
  if (!match) return null;
  const status = match[1] as TestStatus;
  const rest = match[2] ?? "";
  if (status === "SKIPPED" && SKIP_LOCATION.test(rest)) return null;
  const id = leadingNodeId(rest, strictEnd(status));
  return id === null ? null : { id, status };
}

/** The line without a trailing `-v` progress indicator. */
export function withoutProgress(line: string): string {
  const open = line.lastIndexOf("[");
  if (!line.endsWith("]") || open < 1 || line[open - 1] !== " ") return line;
  return PROGRESS.test(line.slice(open + 1, -1)) ? line.slice(0, open).trimEnd() : line;
}

/** Where a node id at the start of a `-v` line may end: after its base, or after a `]` then a space. */
function* verboseIdEnds(line: string): Generator<number> {
  const base = /^[^\s[]+/.exec(line)?.[0];
  if (base === undefined || !base.includes("::")) return;
  if (line[base.length] !== "[") {
    yield base.length;
    return;
  }
  for (let i = line.indexOf("]", base.length); i >= 0; i = line.indexOf("]", i + 1)) {
    if (line[i + 1] === " ") yield i + 1;
  }
}

/** The status of a `-v` line's tail: ` STATUS` or ` STATUS (reason)`. */
function verboseStatusAt(line: string, at: number): TestStatus | null {
  if (line[at] !== " ") return null;
  for (const status of TEST_STATUSES) {
    if (!line.startsWith(status, at + 1)) continue;
    const after = at + 1 + status.length;
    if (after === line.length || (line.startsWith(" (", after) && line.endsWith(")"))) return status;
  }
  return null;
}

/** `<id>[ <- file] STATUS[ (reason)][ [ 50%]]`, read without backtracking regexes (logs are untrusted). */
function readVerboseLine(line: string): Report | null {
  const body = withoutProgress(line);
  for (const end of verboseIdEnds(body)) {
    let at = end;
    if (body.startsWith(INHERITED_FROM, at)) {
      at = body.indexOf(" ", at + INHERITED_FROM.length);
      if (at < 0) continue;
    }
    const status = verboseStatusAt(body, at);
    if (status) return { id: body.slice(0, end), status };
  }
  return null;
}

/** The name pytest prints in section headers: `TestK.test_q[x::y]` for `f.py::TestK::test_q[x::y]`. */
export function pytestHeadLine(id: string): string {
  const sep = id.indexOf("::");
  if (sep < 0) return id;
  const name = id.slice(sep + 2);
  const open = name.indexOf("[");
  const plain = open < 0 ? name : name.slice(0, open);
  return plain.replaceAll("::", ".") + (open < 0 ? "" : name.slice(open));
}

function dropPassesBeforeTeardownErrors(parsed: ParsedLog, heads: ReadonlySet<string>): void {
  if (heads.size === 0) return;
  for (const [id, statuses] of parsed.observations) {
    if (!statuses.includes("ERROR") || !heads.has(pytestHeadLine(id))) continue;
    parsed.observations.set(id, statuses.filter((status) => FAILING_STATUSES.has(status)));
  }
}

function propagateCollectionErrors(parsed: ParsedLog): void {
  for (const [id, statuses] of parsed.observations) {
    const sep = id.indexOf("::");
    if (sep > 0 && parsed.observations.get(id.slice(0, sep))?.includes("ERROR")) statuses.push("ERROR");
  }
}

/**
 * Reads a line pytest's own format does not cover (a variant's extra forms); returns
 * a report, or null. Called only for lines neither a summary nor a `-v` line.
 */
export type ExtraLineReader = (line: string, reported: Report | null) => Report | null;

/** The pytest loop, with a variant's extra line forms; every variant keeps the invariants above. */
export function parsePytestLines(log: string, extra?: ExtraLineReader): ParsedLog {
  const parsed = emptyParsedLog();
  const teardownHeads = new Set<string>();
  for (const line of logLines(log)) {
    const header = TEARDOWN_HEADER.exec(line);
    if (header?.[1] !== undefined) {
      teardownHeads.add(header[1]);
      continue;
    }
    const standard = SUMMARY_LINE.test(line) ? readSummaryLine(line) : readVerboseLine(line);
    const report = extra ? extra(line, standard) : standard;
    if (report) addObservation(parsed, report.id, report.status);
  }
  dropPassesBeforeTeardownErrors(parsed, teardownHeads);
  propagateCollectionErrors(parsed);
  return parsed;
}

export const parsePytestLog: LogParser = (log) => parsePytestLines(log);
