/**
 * A bug's trajectory log (`<chain>/<order>.log`, docs/ROLLOUT.md "Trajectory
 * log") read as a timeline: the agent's steps, each holding its own text and
 * the tool calls the harness's exec wrapper logged. Pure; a log without
 * markers (an agent that never used $CHAINSWE_EXEC) is one step of text.
 */

/** Every marker line starts with this. */
export const MARKER = "##[chainswe] ";

const CALL_START = `${MARKER}$ `;
const CALL_MORE = `${MARKER}> `;
const STDERR = `${MARKER}stderr`;
const STEP = `${MARKER}step `;
const EXIT = /^##\[chainswe\] exit (-?\d+) (\d+)ms(?: \[(\d+) bytes not logged\])?$/;

export type ToolCall = {
  kind: "call";
  /** 1-based over the whole log */
  index: number;
  command: string;
  stdout: string;
  stderr: string;
  /** null: the log ends inside the call (cut) */
  exitCode: number | null;
  ms: number | null;
  /** output the wrapper left out of the log (its 64 KiB caps) */
  omittedBytes: number;
  /** 1-based line of the call's first marker */
  line: number;
};

export type TextBlock = { kind: "text"; text: string; line: number };

export type TimelineItem = ToolCall | TextBlock;

export type Step = {
  /** 1-based */
  index: number;
  /** the agent's `step` marker; null for what came before any (or a log without them) */
  title: string | null;
  items: TimelineItem[];
};

export type Timeline = { steps: Step[]; calls: ToolCall[]; declaredSteps: number };

/** A log's lines without the newline ending the last one. */
function linesOf(log: string): string[] {
  const lines = log.replace(/\r\n/g, "\n").split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

/** Where a part of a log starts, for parsing that part alone (a page, timelinePages): its first line's number, the calls before it, and the step it starts in. */
export type TimelineStart = { line: number; calls: number; step: number; title: string | null };

const LOG_START: TimelineStart = { line: 1, calls: 0, step: 1, title: null };

/** A step title as shown: its marker line's first characters (a forged megabyte title costs no more). */
const MAX_STEP_TITLE = 200;

/** The timeline of a log, or of a part of one that begins at `from` (a page's slice: lines, call and step numbers go on from there). */
export function parseTimeline(log: string, from: TimelineStart = LOG_START): Timeline {
  const steps: Step[] = [{ index: from.step, title: from.title, items: [] }];
  const calls: ToolCall[] = [];
  let text: string[] = [];
  let textLine = from.line;
  let call: (ToolCall & { out: string[]; err: string[]; stream: "command" | "out" | "err" }) | null = null;
  const step = () => steps.at(-1)!;
  const flushText = () => {
    const body = text.join("\n").replace(/^\n+|\s+$/g, "");
    if (body) step().items.push({ kind: "text", text: body, line: textLine });
    text = [];
  };
  const closeCall = (exit: RegExpExecArray | null) => {
    const c = call!;
    const done: ToolCall = {
      kind: "call",
      index: c.index,
      command: c.command,
      stdout: c.out.join("\n"),
      stderr: c.err.join("\n"),
      exitCode: exit ? Number(exit[1]) : null,
      ms: exit ? Number(exit[2]) : null,
      omittedBytes: exit?.[3] ? Number(exit[3]) : 0,
      line: c.line,
    };
    step().items.push(done);
    calls.push(done);
    call = null;
  };
  const lines = linesOf(log);
  for (const [i, line] of lines.entries()) {
    if (call) {
      if (call.stream === "command" && line.startsWith(CALL_MORE)) {
        call.command += `\n${line.slice(CALL_MORE.length)}`;
        continue;
      }
      if (call.stream === "command") call.stream = "out";
      const exit = EXIT.exec(line);
      if (exit) closeCall(exit);
      else if (line === STDERR && call.stream === "out") call.stream = "err";
      else (call.stream === "err" ? call.err : call.out).push(line);
      continue;
    }
    if (line.startsWith(CALL_START)) {
      flushText();
      call = { kind: "call", index: from.calls + calls.length + 1, command: line.slice(CALL_START.length), stdout: "", stderr: "", exitCode: null, ms: null, omittedBytes: 0, line: i + from.line, out: [], err: [], stream: "command" };
    } else if (line.startsWith(STEP)) {
      flushText();
      steps.push({ index: step().index + 1, title: line.slice(STEP.length, STEP.length + MAX_STEP_TITLE).trim() || "(untitled step)", items: [] });
    } else {
      if (text.length === 0) textLine = i + from.line;
      text.push(line);
    }
  }
  if (call) closeCall(null);
  flushText();
  // nothing before the first declared step: no implicit step
  if (from === LOG_START && steps.length > 1 && steps[0]!.items.length === 0) {
    steps.shift();
    steps.forEach((s, i) => (s.index = i + 1));
  }
  return { steps, calls, declaredSteps: steps.filter((s) => s.title !== null).length };
}

/** The bug's step count for efficiency figures: the agent's declared steps, else its tool calls. */
export function stepCount(t: Timeline): number {
  return t.declaredSteps > 0 ? t.declaredSteps : t.calls.length;
}

/** How many items (text blocks and tool calls) a timeline has. */
export const itemCount = (t: Timeline): number => t.steps.reduce((n, s) => n + s.items.length, 0);

/**
 * Where each page of `perPage` items starts in `log` (whose timeline is `t`):
 * the offset of its first item's first line, and what parseTimeline needs to
 * go on from there. Computed once when a log is stored, so that a page is
 * read by parsing its own slice (timelinePage), never the whole log.
 */
export type TimelinePageStart = TimelineStart & { at: number };

export function timelinePages(log: string, t: Timeline, perPage: number): TimelinePageStart[] {
  const starts: TimelineStart[] = [];
  let n = 0;
  let calls = 0;
  for (const s of t.steps) {
    for (const item of s.items) {
      if (n++ % perPage === 0) starts.push({ line: item.line, calls, step: s.index, title: s.title });
      if (item.kind === "call") calls++;
    }
  }
  let index = 0;
  let at = 0;
  let line = 1;
  return starts.map((start) => {
    for (; line < start.line; line++) {
      const next = log.indexOf("\n", index) + 1;
      at += codePoints(log, index, next);
      index = next;
    }
    return { ...start, at };
  });
}

/** The UTF-16 index `n` code points after index `i` of `text` (or its end). */
function indexAfter(text: string, n: number, i: number): number {
  for (; n > 0 && i < text.length; n--) {
    const c = text.charCodeAt(i);
    const pair = c >= 0xd800 && c <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
    i += pair ? 2 : 1;
  }
  return i;
}

/** How many code points `text` holds between the UTF-16 indexes `from` and `to`. */
function codePoints(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i = indexAfter(text, 1, i)) n++;
  return n;
}

/** `length` code points of `text` from code point `from`: what SQL's substr(text, from + 1, length) answers. */
export function codePointSlice(text: string, from: number, length: number): string {
  const begin = indexAfter(text, from, 0);
  return text.slice(begin, indexAfter(text, length, begin));
}

/**
 * The part of the log one page's view reads, in code points: up to the next
 * page's start, at most one more than `maxChars` (the one more tells that the
 * page was cut); null for a page the log does not have.
 */
export function pageSpan(pages: readonly TimelinePageStart[], page: number, maxChars: number): { start: TimelinePageStart; from: number; length: number } | null {
  const start = pages[page - 1];
  if (!start) return null;
  const end = pages[page]?.at ?? Infinity;
  return { start, from: start.at, length: Math.min(end - start.at, maxChars + 1) };
}

/** One page of a log's timeline, parsed from the slice pageSpan named: at most `maxChars` of it (`cut`: the page's last item goes on past what is shown). */
export function timelinePage(slice: string, start: TimelinePageStart, maxChars: number): { timeline: Timeline; cut: boolean } {
  const shown = codePointSlice(slice, 0, maxChars);
  return { timeline: parseTimeline(shown, start), cut: shown.length < slice.length };
}

/** The page (1-based) whose items hold tool call `call`. */
export function pageOfCall(pages: readonly TimelinePageStart[], call: number): number {
  let page = 1;
  for (const [i, p] of pages.entries()) if (p.calls < call) page = i + 1;
  return page;
}

/** Each text of an item shown up to `max` characters; the rest is named, for the raw log. */
export function clipItems(t: Timeline, max: number): Timeline {
  const clip = (text: string) => (text.length <= max ? text : `${text.slice(0, max)}\n… ${text.length - max} more characters: see the raw log`);
  const steps = t.steps.map((s) => ({
    ...s,
    items: s.items.map((i): TimelineItem => (i.kind === "text" ? { ...i, text: clip(i.text) } : { ...i, command: clip(i.command), stdout: clip(i.stdout), stderr: clip(i.stderr) })),
  }));
  return { steps, calls: steps.flatMap((s) => s.items.filter((i): i is ToolCall => i.kind === "call")), declaredSteps: t.declaredSteps };
}
