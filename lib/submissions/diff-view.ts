/**
 * A unified diff as the failure page shows it (* "failure pages are for reading code"): files of hunks of numbered lines,
 * long runs of unchanged lines folded, each line syntax-highlighted.
 *
 * Patches are untrusted text: parse-diff reads them, and nothing becomes HTML;
 * highlighting yields a syntax tree that React renders as escaped text.
 */
import { addedLineKey } from "@/core/diff/similarity";
import type { Element, ElementContent, Root, RootContent } from "hast";
import parseDiff from "parse-diff";
import { refractor } from "refractor";
import toml from "refractor/toml";
import { decodeGitPath } from "@/core/diff";

refractor.register(toml);

// ---------------------------------------------------------------- diffs

export type DiffLine = {
  kind: "add" | "del" | "ctx" | "note";
  oldNo: number | null;
  newNo: number | null;
  /** the line without its +/-/space marker */
  text: string;
  /** an added line the patch it is compared with adds too (SPEC §7 "Close to gold"), after the similarity's normalisation */
  shared?: boolean;
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

/** Both patches with the added lines they share marked (the same code after the similarity's normalisation, core/diff/similarity.ts). */
export function markSharedAdditions(a: DiffFileView[], b: DiffFileView[]): [DiffFileView[], DiffFileView[]] {
  const keys = (files: DiffFileView[]) => new Set(files.flatMap((f) => f.hunks.flatMap((h) => h.lines.filter((l) => l.kind === "add").map((l) => addedLineKey(l.text)))));
  const mark = (files: DiffFileView[], other: Set<string>) =>
    files.map((f) => ({ ...f, hunks: f.hunks.map((h) => ({ ...h, lines: h.lines.map((l) => (l.kind === "add" && addedLineKey(l.text) !== "" && other.has(addedLineKey(l.text)) ? { ...l, shared: true } : l)) })) }));
  return [mark(a, keys(b)), mark(b, keys(a))];
}
