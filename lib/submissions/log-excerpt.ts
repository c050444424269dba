/**
 * The first lines of a failing test's error in its log, with
 * the line they start at, for the failure page's excerpt and its link into the
 * full log: the test's pytest section, its unittest traceback, or the line
 * that names it.
 *
 * Logs are untrusted text: everything here is read with string searches and
 * anchored patterns (linear time), and nothing becomes HTML.
 */
import { logLines } from "@/core/parsers/log-text";

export type LogExcerpt = {
  /** 1-based line of the full log where the excerpt starts */
  line: number;
  lines: string[];
  /** more of the section follows in the full log */
  more: boolean;
};

const MAX_LINE = 400;
const clip = (line: string) => (line.length > MAX_LINE ? `${line.slice(0, MAX_LINE)} …` : line);

/** `___ name ___` → `name`; null when the line is not a pytest section header. Plain string work, no backtracking. */
export function pytestSectionName(line: string): string | null {
  if (line.length < 7 || !line.startsWith("_") || !line.endsWith("_")) return null;
  let start = 0;
  let end = line.length;
  while (start < end && line[start] === "_") start++;
  while (end > start && line[end - 1] === "_") end--;
  if (start < 1 || line[start] !== " " || line[end - 1] !== " " || end - start < 3) return null;
  return line.slice(start + 1, end - 1);
}

/** The name pytest heads a test's failure section with: `tests/a.py::TestK::test_q[x::y]` → `TestK.test_q[x::y]`. */
export function pytestHeadName(testId: string): string {
  const sep = testId.indexOf("::");
  if (sep < 0) return testId;
  const rest = testId.slice(sep + 2);
  const bracket = rest.indexOf("[");
  const base = bracket < 0 ? rest : rest.slice(0, bracket);
  return base.split("::").join(".") + (bracket < 0 ? "" : rest.slice(bracket));
}

const isRule = (line: string, ch: string) => line.length >= 10 && line.startsWith(ch.repeat(10)) && [...line].every((c) => c === ch);

/** Lines [from, to) of a section, from its first error line (`E   …`, or a traceback's exception line). */
function excerptOf(lines: readonly string[], from: number, to: number, max: number, errorStart: (i: number) => boolean): LogExcerpt {
  let start = from;
  for (let i = from; i < to; i++) {
    if (errorStart(i)) {
      start = i;
      break;
    }
  }
  while (start < to && lines[start]!.trim() === "") start++;
  const end = Math.min(to, start + max);
  return { line: start + 1, lines: lines.slice(start, end).map(clip), more: end < to };
}

function pytestExcerpt(lines: readonly string[], testId: string, max: number): LogExcerpt | null {
  const name = pytestHeadName(testId);
  const file = testId.includes("::") ? testId.slice(0, testId.indexOf("::")) : testId;
  const wanted = [name, `ERROR at setup of ${name}`, `ERROR at teardown of ${name}`, `ERROR collecting ${file}`];
  for (const head of wanted) {
    const at = lines.findIndex((l) => pytestSectionName(l) === head);
    if (at < 0) continue;
    let end = at + 1;
    while (end < lines.length && pytestSectionName(lines[end]!) === null && !lines[end]!.startsWith("=====")) end++;
    return excerptOf(lines, at + 1, end, max, (i) => lines[i]!.startsWith("E "));
  }
  return null;
}

function unittestExcerpt(lines: readonly string[], testId: string, max: number): LogExcerpt | null {
  const at = lines.findIndex((l) => (l.startsWith("FAIL: ") || l.startsWith("ERROR: ")) && l.slice(l.indexOf(": ") + 2).startsWith(testId));
  if (at < 0) return null;
  let body = at + 1;
  while (body < lines.length && !isRule(lines[body]!, "-")) body++;
  let end = body + 1;
  while (end < lines.length && !isRule(lines[end]!, "=") && !isRule(lines[end]!, "-")) end++;
  // the exception line after the traceback's last frame: unindented, not the traceback header
  let last = -1;
  for (let i = body + 1; i < end; i++) if (lines[i]!.startsWith("Traceback (most recent call last)")) last = i;
  const errorStart = (i: number) => i > last && last >= 0 && lines[i] !== "" && !lines[i]!.startsWith(" ");
  return excerptOf(lines, body + 1, end, max, errorStart);
}

/** The line that names the test among the summary (`FAILED <id> - message`), or any line that names it. */
function mentionExcerpt(lines: readonly string[], testId: string): LogExcerpt | null {
  const summary = lines.findIndex((l) => (l.startsWith("FAILED ") || l.startsWith("ERROR ")) && l.includes(testId));
  const at = summary >= 0 ? summary : lines.findIndex((l) => l.includes(testId));
  return at < 0 ? null : { line: at + 1, lines: [clip(lines[at]!)], more: false };
}

/** The first lines of a failing test's error in its log (pytest or unittest), or null when the log does not name it. */
export function logExcerpt(log: string, testId: string, max = 12): LogExcerpt | null {
  const lines = logLines(log);
  return pytestExcerpt(lines, testId, max) ?? unittestExcerpt(lines, testId, max) ?? mentionExcerpt(lines, testId);
}
