/**
 * The failure page's pure parts (issue 4, item 6; UI.md "failure pages are for
 * reading code"): the agent's files against the gold files (overshoot and
 * undershoot, SPEC §5's M \ F and F \ M), the first lines of a failing test's
 * error in its log, and a unified diff as hunks of numbered, highlighted lines.
 *
 * Logs and patches are untrusted text: everything here is read with string
 * searches and anchored patterns (linear time), and nothing becomes HTML;
 * highlighting yields a syntax tree that React renders as escaped text.
 */
import type { Element, ElementContent, Root, RootContent } from "hast";
import parseDiff from "parse-diff";
import { refractor } from "refractor";
import toml from "refractor/toml";
import { decodeGitPath } from "@/evaluator/diff";
import { logLines } from "@/evaluator/parsers/log-text";
import type { Fingerprint } from "@/lib/schemas/results";

refractor.register(toml);

// ---------------------------------------------------------------- labels

export const FINGERPRINT_LABELS: Record<Fingerprint, string> = {
  broke_working_code: "broke working code",
  left_unfixed: "left unfixed",
  no_usable_patch: "no usable patch",
};

export const CAUSE_LABELS = {
  overshoot: "an earlier patch edited a file outside its gold patch, and this bug works on that file",
  undershoot: "an earlier patch skipped a file of its gold patch",
  both: "an earlier patch strayed outside its gold patch and one skipped a gold file",
  unattributed: "no file of an earlier patch explains it",
} as const;

/** A bug's failure page for one submission. */
export const failurePageUrl = (submissionId: string, continuousId: string, order: number) =>
  `/submissions/${encodeURIComponent(submissionId)}/chains/${encodeURIComponent(continuousId)}/bugs/${order}`;

/** The bug's full log as a page with line anchors (`#L120`). */
export const logPageUrl = (submissionId: string, continuousId: string, order: number) => `${failurePageUrl(submissionId, continuousId, order)}/log`;

/** The bug's full log as plain text (the API), shown inline. */
export const rawLogUrl = (submissionId: string, continuousId: string, order: number) =>
  `/api/v1/submissions/${encodeURIComponent(submissionId)}/logs/${encodeURIComponent(continuousId)}/${order}`;

/** The same, as a file to save. */
export const logDownloadUrl = (submissionId: string, continuousId: string, order: number) => `${rawLogUrl(submissionId, continuousId, order)}?download=1`;

/**
 * Why a bug shown in both modes is not a chain error (SPEC §5: position ≥ 2,
 * resolved under Oracle, unresolved under Seq); null when it may be one.
 */
export function notChainErrorReason(order: number, oracleResolved: boolean | null, seqResolved: boolean | null): string | null {
  if (order < 2) return "The first bug of a chain cannot be a chain error: nothing came before it.";
  if (oracleResolved === null || seqResolved === null) return "Not graded in both modes, so it cannot be compared.";
  if (seqResolved) return "Resolved under Seq as well: not a chain error.";
  if (!oracleResolved) return "Unresolved under Oracle too: the bug is hard on its own, not a chain error.";
  return null;
}

// ---------------------------------------------------------------- file sets

/** How an agent's patch relates to a gold file set: SPEC §5 M \ F (overshoot) and F \ M (undershoot). */
export type FileMark = "matched" | "overshoot" | "undershoot";

export function fileMark(inAgent: boolean, inGold: boolean): FileMark | null {
  if (inAgent) return inGold ? "matched" : "overshoot";
  return inGold ? "undershoot" : null;
}

export type FileSetRow = {
  file: string;
  gold: boolean;
  /** one per agent patch compared (this submission's first), null when that patch does not touch the file and gold does not either */
  marks: (FileMark | null)[];
};

/** Every file of the gold patch and of each agent patch, by path, with each agent's mark. */
export function fileSetRows(gold: readonly string[], agents: readonly (readonly string[])[]): FileSetRow[] {
  const goldSet = new Set(gold);
  const agentSets = agents.map((a) => new Set(a));
  const files = [...new Set([...gold, ...agents.flat()])].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return files.map((file) => ({ file, gold: goldSet.has(file), marks: agentSets.map((s) => fileMark(s.has(file), goldSet.has(file))) }));
}

/** The files of one agent (index into `marks`) with a given mark. */
export const filesMarked = (rows: readonly FileSetRow[], agent: number, mark: FileMark): string[] =>
  rows.filter((r) => r.marks[agent] === mark).map((r) => r.file);

// ---------------------------------------------------------------- log excerpts

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

// ---------------------------------------------------------------- diffs

export type DiffLine = {
  kind: "add" | "del" | "ctx" | "note";
  oldNo: number | null;
  newNo: number | null;
  /** the line without its +/-/space marker */
  text: string;
};

/** Lines of a hunk, with long runs of unchanged lines folded (expandable on the page). */
export type HunkSegment = { folded: boolean; lines: DiffLine[] };

export type DiffHunk = { header: string; lines: DiffLine[] };

export type DiffFileView = {
  /** the path shown: the new name, or the old one for a deletion */
  path: string;
  from: string | null;
  to: string | null;
  status: "added" | "deleted" | "renamed" | "modified";
  additions: number;
  deletions: number;
  hunks: DiffHunk[];
};

const DEV_NULL = "/dev/null";
const pathOf = (p: string | undefined) => (p === undefined || p === "" || p === DEV_NULL ? null : decodeGitPath(p));

/** A unified diff as files of hunks of numbered lines; [] for text that is no diff. */
export function diffFiles(patch: string): DiffFileView[] {
  if (patch.trim() === "") return [];
  return parseDiff(patch).map((f) => {
    const from = pathOf(f.from);
    const to = pathOf(f.to);
    const status = f.new || from === null ? "added" : f.deleted || to === null ? "deleted" : from !== to ? "renamed" : "modified";
    return {
      path: to ?? from ?? "(unnamed)",
      from,
      to,
      status,
      additions: f.additions,
      deletions: f.deletions,
      hunks: f.chunks.map((c) => ({
        header: c.content,
        lines: c.changes.map((ch): DiffLine => {
          if (ch.content.startsWith("\\")) return { kind: "note", oldNo: null, newNo: null, text: ch.content };
          const text = ch.content.slice(1);
          if (ch.type === "add") return { kind: "add", oldNo: null, newNo: ch.ln, text };
          if (ch.type === "del") return { kind: "del", oldNo: ch.ln, newNo: null, text };
          return { kind: "ctx", oldNo: ch.ln1, newNo: ch.ln2, text };
        }),
      })),
    };
  });
}

/** Runs of more than `2 × keep + 1` unchanged lines keep `keep` lines each side and fold the rest. */
export function foldHunk(lines: readonly DiffLine[], keep = 3): HunkSegment[] {
  const segments: HunkSegment[] = [];
  const push = (folded: boolean, part: DiffLine[]) => {
    if (part.length === 0) return;
    const last = segments[segments.length - 1];
    if (last && last.folded === folded) last.lines.push(...part);
    else segments.push({ folded, lines: [...part] });
  };
  let i = 0;
  while (i < lines.length) {
    let j = i;
    while (j < lines.length && lines[j]!.kind === "ctx") j++;
    const run = lines.slice(i, j);
    if (run.length > 2 * keep + 1) {
      const head = i === 0 ? 0 : keep;
      const tail = j === lines.length ? 0 : keep;
      push(false, run.slice(0, head));
      push(true, run.slice(head, run.length - tail));
      push(false, run.slice(run.length - tail));
    } else push(false, run);
    if (j < lines.length) push(false, [lines[j]!]);
    i = j + 1;
  }
  return segments;
}

// ---------------------------------------------------------------- highlighting

const LANGUAGES: Record<string, string> = {
  py: "python", pyi: "python", js: "javascript", mjs: "javascript", cjs: "javascript", jsx: "javascript",
  ts: "typescript", tsx: "typescript", json: "json", yml: "yaml", yaml: "yaml", toml: "toml",
  ini: "ini", cfg: "ini", md: "markdown", sh: "bash", bash: "bash", c: "c", h: "c", cc: "cpp",
  cpp: "cpp", hpp: "cpp", go: "go", java: "java", rb: "ruby", rs: "rust", php: "php", css: "css",
  scss: "scss", html: "markup", xml: "markup", svg: "markup", sql: "sql", kt: "kotlin", swift: "swift",
  lua: "lua", r: "r", pl: "perl",
};

/** The highlighting language of a path, by extension (or name), null for plain text. */
export function languageOf(path: string): string | null {
  const base = path.split("/").pop() ?? path;
  if (base === "Makefile" || base === "makefile") return "makefile";
  const dot = base.lastIndexOf(".");
  return dot <= 0 ? null : (LANGUAGES[base.slice(dot + 1).toLowerCase()] ?? null);
}

/** A highlighted line: hast nodes (text and token spans) to render as React elements. */
export type HighlightedLine = ElementContent[];

/** Splits highlighted nodes at newlines, repeating a token's span on each line it covers. */
export function splitLines(nodes: readonly (RootContent | ElementContent)[]): HighlightedLine[] {
  const lines: HighlightedLine[] = [[]];
  for (const node of nodes) {
    if (node.type === "text") {
      node.value.split("\n").forEach((part, i) => {
        if (i > 0) lines.push([]);
        if (part) lines[lines.length - 1]!.push({ type: "text", value: part });
      });
    } else if (node.type === "element") {
      splitLines(node.children).forEach((children, i) => {
        if (i > 0) lines.push([]);
        if (children.length) lines[lines.length - 1]!.push({ ...node, children } satisfies Element);
      });
    }
  }
  return lines;
}

function highlightText(text: string, language: string | null): HighlightedLine[] {
  if (language && refractor.registered(language)) {
    const root: Root = refractor.highlight(text, language);
    return splitLines(root.children);
  }
  return text.split("\n").map((t) => (t ? [{ type: "text", value: t }] : []));
}

/**
 * Each line of a hunk highlighted in its side's context: the old side (unchanged
 * and removed lines) and the new side (unchanged and added lines) are each
 * highlighted whole, so a string or docstring spanning lines reads right.
 */
export function highlightHunk(lines: readonly DiffLine[], language: string | null): HighlightedLine[] {
  const oldSide = lines.filter((l) => l.kind === "ctx" || l.kind === "del");
  const newSide = lines.filter((l) => l.kind === "ctx" || l.kind === "add");
  const oldLines = highlightText(oldSide.map((l) => l.text).join("\n"), language);
  const newLines = highlightText(newSide.map((l) => l.text).join("\n"), language);
  let o = 0;
  let n = 0;
  return lines.map((l) => {
    if (l.kind === "note") return [{ type: "text", value: l.text }];
    if (l.kind === "del") return oldLines[o++] ?? [];
    if (l.kind === "add") return newLines[n++] ?? [];
    o++;
    return newLines[n++] ?? [];
  });
}
