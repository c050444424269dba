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

export function parseTimeline(log: string): Timeline {
  const steps: Step[] = [{ index: 1, title: null, items: [] }];
  const calls: ToolCall[] = [];
  let text: string[] = [];
  let textLine = 1;
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
      call = { kind: "call", index: calls.length + 1, command: line.slice(CALL_START.length), stdout: "", stderr: "", exitCode: null, ms: null, omittedBytes: 0, line: i + 1, out: [], err: [], stream: "command" };
    } else if (line.startsWith(STEP)) {
      flushText();
      steps.push({ index: steps.length + 1, title: line.slice(STEP.length).trim() || "(untitled step)", items: [] });
    } else {
      if (text.length === 0) textLine = i + 1;
      text.push(line);
    }
  }
  if (call) closeCall(null);
  flushText();
  // nothing before the first declared step: no implicit step
  if (steps.length > 1 && steps[0]!.items.length === 0) {
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
 * The timeline's first `max` items, steps cut where the items end: what a
 * page shows of a long (or forged) log; the raw log has the rest.
 */
export function firstItems(t: Timeline, max: number): Timeline {
  if (itemCount(t) <= max) return t;
  const steps: Step[] = [];
  let left = max;
  for (const s of t.steps) {
    if (left <= 0) break;
    steps.push({ ...s, items: s.items.slice(0, left) });
    left -= s.items.length;
  }
  const calls = steps.flatMap((s) => s.items.filter((i): i is ToolCall => i.kind === "call"));
  return { steps, calls, declaredSteps: steps.filter((s) => s.title !== null).length };
}
