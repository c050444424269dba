/** Diffs as numbered hunks, folding, and highlighting split per line without losing multi-line context. */
import { describe, expect, it } from "vitest";
import type { ElementContent } from "hast";
import { diffFiles, foldHunk, highlightHunk, languageOf, markSharedAdditions, splitLines, type DiffLine } from "@/lib/submissions/diff-view";

const PATCH = [
  "diff --git a/pkg/mod.py b/pkg/mod.py",
  "index 1111111..2222222 100644",
  "--- a/pkg/mod.py",
  "+++ b/pkg/mod.py",
  "@@ -1,4 +1,5 @@",
  ' """A module',
  ' docstring."""',
  "-x = 1",
  "+x = 2",
  "+y = '<b>'",
  " z = 3",
  "diff --git a/new.txt b/new.txt",
  "new file mode 100644",
  "--- /dev/null",
  "+++ b/new.txt",
  "@@ -0,0 +1 @@",
  "+hello",
  "\\ No newline at end of file",
  "",
].join("\n");

const textOf = (nodes: ElementContent[]): string => nodes.map((n) => (n.type === "text" ? n.value : n.type === "element" ? textOf(n.children) : "")).join("");

describe("diffs", () => {
  it("files of numbered hunks", () => {
    const files = diffFiles(PATCH);
    expect(files.map((f) => [f.path, f.status, f.additions, f.deletions])).toEqual([
      ["pkg/mod.py", "modified", 2, 1],
      ["new.txt", "added", 1, 0],
    ]);
    const lines = files[0]!.hunks[0]!.lines;
    expect(lines.map((l) => [l.kind, l.oldNo, l.newNo, l.text])).toEqual([
      ["ctx", 1, 1, '"""A module'],
      ["ctx", 2, 2, 'docstring."""'],
      ["del", 3, null, "x = 1"],
      ["add", null, 3, "x = 2"],
      ["add", null, 4, "y = '<b>'"],
      ["ctx", 4, 5, "z = 3"],
    ]);
    expect(files[1]!.hunks[0]!.lines.map((l) => l.kind)).toEqual(["add", "note"]);
    expect(diffFiles("")).toEqual([]);
  });

  it("folds long runs of unchanged lines, keeping context around changes", () => {
    const ctx = (n: number): DiffLine => ({ kind: "ctx", oldNo: n, newNo: n, text: `c${n}` });
    const lines: DiffLine[] = [...Array.from({ length: 10 }, (_, i) => ctx(i + 1)), { kind: "add", oldNo: null, newNo: 11, text: "new" }, ...Array.from({ length: 3 }, (_, i) => ctx(i + 12))];
    const segments = foldHunk(lines, 3);
    expect(segments.map((s) => [s.folded, s.lines.length])).toEqual([
      [true, 7],
      [false, 7],
    ]);
    expect(foldHunk(lines.slice(8), 3).every((s) => !s.folded)).toBe(true);
  });

  it("highlights each side whole, so a docstring's second line is still a string", () => {
    const lines = diffFiles(PATCH)[0]!.hunks[0]!.lines;
    const highlighted = highlightHunk(lines, languageOf("pkg/mod.py"));
    expect(highlighted.map(textOf)).toEqual(lines.map((l) => l.text));
    const second = highlighted[1]![0]!;
    expect(second.type === "element" && String(second.properties.className)).toContain("string");
    // plain text for unknown languages, text never turned into markup
    expect(highlightHunk(lines, null)[4]).toEqual([{ type: "text", value: "y = '<b>'" }]);
  });

  it("splits tokens that span lines", () => {
    const span = (children: ElementContent[]): ElementContent => ({ type: "element", tagName: "span", properties: { className: ["token"] }, children });
    const lines = splitLines([span([{ type: "text", value: "a\nb" }]), { type: "text", value: "c\n" }]);
    expect(lines.map(textOf)).toEqual(["a", "bc", ""]);
    expect(lines[1]![0]!.type).toBe("element");
  });

  it("languages by extension", () => {
    expect([languageOf("a/b.py"), languageOf("x.TOML"), languageOf("Makefile"), languageOf("README"), languageOf(".bashrc")]).toEqual(["python", "toml", "makefile", null, null]);
  });
});

describe("markSharedAdditions", () => {
  it("marks the added lines both patches add, names and layout aside, and nothing else", () => {
    const agent = diffFiles(["--- a/m.py", "+++ b/m.py", "@@ -1,2 +1,3 @@", " keep = 1", "-old = 2", "+total = price * 2  # gross", "+print(total)"].join("\n"));
    const gold = diffFiles(["--- a/m.py", "+++ b/m.py", "@@ -1,2 +1,2 @@", " keep = 1", "-old = 2", "+amount = cost * 2"].join("\n"));
    const [a, g] = markSharedAdditions(agent, gold);
    const shared = (files: typeof a) => files.flatMap((f) => f.hunks.flatMap((h) => h.lines.filter((l) => l.shared).map((l) => l.text)));
    expect(shared(a)).toEqual(["total = price * 2  # gross"]);
    expect(shared(g)).toEqual(["amount = cost * 2"]);
  });
});
