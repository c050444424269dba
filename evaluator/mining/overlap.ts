/**
 * The code-overlap heuristic (paper §3.2): which files, classes and functions a gold
 * patch modifies, and which of them two bugs of a window share. Pure: the Python
 * definitions come from the tree-sitter parser (python-symbols.ts), read before and
 * after the patch, so a removed line is looked up in the old file and an added line
 * in the new one.
 */
import parseDiff from "parse-diff";
import { decodeGitPath } from "@/core/diff";

export type Definition = {
  kind: "class" | "function";
  /** dotted name inside its module, e.g. `DateSpan.__len__` */
  name: string;
  /** 1-based, inclusive */
  start: number;
  end: number;
};

export type ChangedLines = {
  /** path before the change (null for an added file) */
  from: string | null;
  /** path after the change (null for a deleted file) */
  to: string | null;
  /** 1-based lines of the old file the patch removes */
  removed: number[];
  /** 1-based lines of the new file the patch adds */
  added: number[];
};

/** What one bug's gold patch modifies: files and `path::Qualified.name` symbols. */
export type Footprint = { files: string[]; symbols: string[] };

/** `file`: any shared modified file, class or function (the paper's filter); `symbol`: a shared class or function. */
export const OVERLAP_LEVELS = ["file", "symbol"] as const;
export type OverlapLevel = (typeof OVERLAP_LEVELS)[number];

/** Two bugs of a window (1-based positions) and what their gold patches both modify. */
export type PairOverlap = { a: number; b: number; files: string[]; symbols: string[] };

const path = (p: string | undefined): string | null => (p === undefined || p === "/dev/null" ? null : decodeGitPath(p));

export function changedLines(patch: string): ChangedLines[] {
  return parseDiff(patch).map((f) => {
    const removed: number[] = [];
    const added: number[] = [];
    for (const chunk of f.chunks) {
      for (const change of chunk.changes) {
        if (change.type === "del") removed.push(change.ln);
        else if (change.type === "add") added.push(change.ln);
      }
    }
    return { from: path(f.from), to: path(f.to), removed, added };
  });
}

/** Definitions enclosing a line, outermost first (a method's class, then the method). */
function enclosing(defs: Definition[], line: number): Definition[] {
  return defs.filter((d) => d.start <= line && line <= d.end);
}

/**
 * The symbols a file change touches: every class and function enclosing a removed
 * line (old file) or an added line (new file). Module-level lines touch the file only.
 */
export function touchedSymbols(change: ChangedLines, oldDefs: Definition[], newDefs: Definition[]): string[] {
  const out = new Set<string>();
  for (const line of change.removed) for (const d of enclosing(oldDefs, line)) out.add(`${change.from}::${d.name}`);
  for (const line of change.added) for (const d of enclosing(newDefs, line)) out.add(`${change.to}::${d.name}`);
  return [...out].sort();
}

export function footprint(changes: ChangedLines[], symbols: string[][]): Footprint {
  const files = new Set<string>();
  for (const c of changes) {
    if (c.from) files.add(c.from);
    if (c.to) files.add(c.to);
  }
  return { files: [...files].sort(), symbols: [...new Set(symbols.flat())].sort() };
}

const intersect = (a: string[], b: string[]) => a.filter((x) => b.includes(x));

/**
 * Every pair of a window's bugs whose gold patches share something at the level asked
 * for: a file (the default; a shared class or function implies one), or a class or
 * function (`symbol`). Everything shared is recorded at either level.
 */
export function pairwiseOverlap(footprints: Footprint[], level: OverlapLevel): PairOverlap[] {
  const pairs: PairOverlap[] = [];
  for (let i = 0; i < footprints.length; i++) {
    for (let j = i + 1; j < footprints.length; j++) {
      const files = intersect(footprints[i]!.files, footprints[j]!.files);
      const symbols = intersect(footprints[i]!.symbols, footprints[j]!.symbols);
      if (level === "symbol" ? symbols.length > 0 : files.length > 0) pairs.push({ a: i + 1, b: j + 1, files, symbols });
    }
  }
  return pairs;
}
