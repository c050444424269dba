/**
 * Parser for pytest runs without `-rA` (SPEC §3 step 4): the `-v` lines carry every
 * status, and pytest's default short summary (`-rfE`) repeats failures and errors.
 * Tested against real pytest 9.0 logs in tests/fixtures/logs.
 *
 * Beyond what parsePytestLog reads (and with its invariants):
 * - With `-s` a test's own output follows its id, so its status lands alone on a
 *   later line (`PASSED`, `FAILED   [ 50%]`): it is credited to the last id still
 *   awaiting one, and to nothing if none waits. Any other report clears the wait.
 * - pytest-xdist prints `[gw0] [ 50%] PASSED <id>` (and `[gw0] PASSED <id>` with the
 *   classic console style): read as a report of <id>.
 * Forged lines of these forms can only add reports; the default summary still
 * reports every real failure, so a forged pass of a failing test is a contradiction.
 */
import { TEST_STATUSES, type LogParser, type TestStatus } from "./types";
import { atEnd, leadingNodeId, parsePytestLines, withoutProgress, type Report } from "./pytest";

const STATUS_WORDS: ReadonlySet<string> = new Set(TEST_STATUSES);
/** `[gw3] ` then an optional `[ 50%] ` progress, before the status word. */
const XDIST_PREFIX = /^\[gw\d+\] (?:\[ *\d+(?:%|\/\d+)\] )?/;

function readXdistLine(line: string): Report | null {
  const prefix = XDIST_PREFIX.exec(line);
  if (!prefix) return null;
  const rest = line.slice(prefix[0].length);
  const space = rest.indexOf(" ");
  const word = space < 0 ? "" : rest.slice(0, space);
  if (!STATUS_WORDS.has(word)) return null;
  const id = leadingNodeId(rest.slice(space + 1), atEnd);
  return id === null ? null : { id, status: word as TestStatus };
}

/** A node id (with `::`) opening a line that reports nothing: the test is running and printing. */
function startedTest(line: string): string | null {
  const id = leadingNodeId(line);
  return id !== null && id.includes("::") ? id : null;
}

export const parsePytestVerboseLog: LogParser = (log) => {
  let awaiting: string | null = null;
  return parsePytestLines(log, (line, standard) => {
    const report = standard ?? readXdistLine(line);
    if (report) {
      awaiting = null;
      return report;
    }
    const word = withoutProgress(line).trim();
    if (awaiting !== null && STATUS_WORDS.has(word)) {
      const credited: Report = { id: awaiting, status: word as TestStatus };
      awaiting = null;
      return credited;
    }
    awaiting = startedTest(line) ?? awaiting;
    return null;
  });
};
