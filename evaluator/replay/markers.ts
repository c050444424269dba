/**
 * The harness's markers in a bug's test_output.txt (written by ./log.ts) and how to
 * read them back: the test run is the text between `+++ chainswe test run <token> begin`
 * and `+++ chainswe test run <token> end exit=… timed_out=… duration_s=… truncated=…`.
 * Pure (no imports), so re-grading from stored logs needs nothing but text.
 *
 * Invariant: the run is taken between the *last* end marker and the first begin
 * marker with the same token. The token is made on the host and never enters the
 * container, and everything after the end marker is written by the harness, so
 * output a patch prints can neither move the brackets nor forge the run's facts.
 */
export const runBeginMarker = (token: string) => `+++ chainswe test run ${token} begin`;
export const runEndMarker = (token: string) => `+++ chainswe test run ${token} end`;

export const LISTED_TESTS_HEADER = "--- listed tests ---";
/** The harness's line after the end marker when it stopped the run at a resource limit (the disk). */
export const STOPPED_BY_HARNESS = "--- stopped by the harness: ";
/** Width of the status column in the listed-tests section (CONTRADICTED fits). */
export const LISTED_STATUS_WIDTH = 12;

export function listedTestLine(id: string, status: string): string {
  return `  ${status.padEnd(LISTED_STATUS_WIDTH)} ${id}`;
}

/** What the end marker says about the run, and the run's own output. */
export type StoredTestRun = {
  output: string;
  exitCode: number | null;
  timedOut: boolean;
  durationS: number;
  /** the output overflowed the log limit and was cut: it is not parsed */
  truncated: boolean;
  /** the per-test verdicts the grader wrote after the run, in the log's order */
  listed: Map<string, string>;
  /** the harness stopped the run at a resource limit (the portal does not store limit_exceeded; the log does) */
  limitExceeded: boolean;
};

const END_LINE = /^\+\+\+ chainswe test run (\S+) end exit=(-?\d+|none) timed_out=(true|false) duration_s=(\d+(?:\.\d+)?) truncated=(true|false)$/;

/** The harness's listed-tests section after the end marker: `  STATUS       id` lines up to the verdict. */
function listedAfter(lines: string[], from: number): Map<string, string> {
  const listed = new Map<string, string>();
  let i = lines.indexOf(LISTED_TESTS_HEADER, from);
  if (i < 0) return listed;
  for (i++; i < lines.length && lines[i]!.startsWith("  "); i++) {
    const line = lines[i]!;
    const status = line.slice(2, 2 + LISTED_STATUS_WIDTH).trim();
    listed.set(line.slice(3 + LISTED_STATUS_WIDTH), status);
  }
  return listed;
}

/** The test run of a stored bug log, or null when the log holds no complete, bracketed run. */
export function readStoredTestRun(log: string): StoredTestRun | null {
  const lines = log.split("\n");
  for (let end = lines.length - 1; end >= 0; end--) {
    const match = END_LINE.exec(lines[end]!);
    if (!match) continue;
    const [, token, exit, timedOut, duration, truncated] = match as unknown as [string, string, string, string, string, string];
    const begin = lines.indexOf(runBeginMarker(token));
    if (begin < 0 || begin >= end) return null;
    return {
      output: lines.slice(begin + 1, end).join("\n"),
      exitCode: exit === "none" ? null : Number(exit),
      timedOut: timedOut === "true",
      durationS: Number(duration),
      truncated: truncated === "true",
      listed: listedAfter(lines, end + 1),
      limitExceeded: lines[end + 1]?.startsWith(STOPPED_BY_HARNESS) ?? false,
    };
  }
  return null;
}
