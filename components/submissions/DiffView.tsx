/**
 * A unified diff for reading ("failure pages are for reading code"): one
 * collapsible block per file, hunks of lines numbered old | new, a +/− column
 * besides the colour, syntax highlighting by the file's language, and long
 * unchanged runs folded behind a "show" toggle. Server-rendered, works without
 * JavaScript (details/summary). Highlighted tokens come as a syntax tree and
 * are rendered as React text: the patch never becomes HTML.
 */
import type { ReactNode } from "react";
import type { ElementContent } from "hast";
import { foldHunk, highlightHunk, languageOf, type DiffFileView, type DiffLine, type HighlightedLine } from "@/lib/submissions/diff-view";

/** Files up to this many lines are shown open; longer ones (and any past the first few) start folded. */
const OPEN_LINES = 400;
const OPEN_FILES = 8;

function tokens(nodes: HighlightedLine): ReactNode[] {
  return nodes.map((n: ElementContent, i) => {
    if (n.type === "text") return n.value;
    if (n.type !== "element") return null;
    const cls = n.properties.className;
    return (
      <span key={i} className={Array.isArray(cls) ? cls.join(" ") : typeof cls === "string" ? cls : undefined}>
        {tokens(n.children)}
      </span>
    );
  });
}

const SIGN: Record<DiffLine["kind"], { sign: string; label: string }> = {
  add: { sign: "+", label: "added" },
  del: { sign: "−", label: "removed" },
  ctx: { sign: " ", label: "unchanged" },
  note: { sign: "\\", label: "note" },
};

function Row({ line, code }: { line: DiffLine; code: HighlightedLine }) {
  const { sign } = SIGN[line.kind];
  // SPEC §7: an added line the other patch adds too is marked (close to gold)
  const label = line.shared ? `${SIGN[line.kind].label}, also in the other patch` : SIGN[line.kind].label;
  return (
    <tr className={`diff-line diff-${line.kind}${line.shared ? " diff-shared" : ""}`}>
      <td className="diff-ln">{line.oldNo ?? ""}</td>
      <td className="diff-ln">{line.newNo ?? ""}</td>
      <td className="diff-sign" title={label}>
        <span aria-label={label}>{line.shared ? "=" : sign}</span>
      </td>
      <td className="diff-code">
        <code>{code.length ? tokens(code) : "\u200b"}</code>
      </td>
    </tr>
  );
}

function FileDiff({ file, open }: { file: DiffFileView; open: boolean }) {
  const language = languageOf(file.path);
  const rename = file.status === "renamed" ? `${file.from} → ${file.to}` : null;
  return (
    <details className="diff-file" open={open}>
      <summary>
        <code>{rename ?? file.path}</code> {file.status !== "modified" && <span className="muted">({file.status})</span>}{" "}
        <span className="diff-count-add">+{file.additions}</span> <span className="diff-count-del">−{file.deletions}</span>
      </summary>
      <div className="table-scroll">
        <table className="diff-table">
          <caption className="visually-hidden">Changes to {file.path}</caption>
          <thead className="visually-hidden">
            <tr>
              <th scope="col">Old line</th>
              <th scope="col">New line</th>
              <th scope="col">Change</th>
              <th scope="col">Code</th>
            </tr>
          </thead>
          {file.hunks.map((h, hi) => {
            const highlighted = highlightHunk(h.lines, language);
            const codeOf = new Map(h.lines.map((l, i) => [l, highlighted[i] ?? []]));
            return (
              <tbody key={hi}>
                <tr className="diff-hunk">
                  <td colSpan={4}>
                    <code>{h.header}</code>
                  </td>
                </tr>
                {foldHunk(h.lines).map((seg, si) =>
                  seg.folded ? (
                    <tr key={si} className="diff-fold">
                      <td colSpan={4}>
                        <details>
                          <summary>Show {seg.lines.length} unchanged lines</summary>
                          <table className="diff-table">
                            <tbody>
                              {seg.lines.map((l, li) => (
                                <Row key={li} line={l} code={codeOf.get(l) ?? []} />
                              ))}
                            </tbody>
                          </table>
                        </details>
                      </td>
                    </tr>
                  ) : (
                    seg.lines.map((l, li) => <Row key={`${si}-${li}`} line={l} code={codeOf.get(l) ?? []} />)
                  ),
                )}
              </tbody>
            );
          })}
        </table>
      </div>
    </details>
  );
}

export function DiffView({ files, label }: { files: DiffFileView[]; label: string }) {
  if (files.length === 0) return <p className="muted">No changes.</p>;
  const open = openFiles(files);
  return (
    <div className="diff" aria-label={label} role="group">
      {files.map((f, i) => (
        <FileDiff key={`${f.path}-${i}`} file={f} open={open[i]!} />
      ))}
    </div>
  );
}

/** Which files start unfolded: the first few small ones, while the lines shown stay under a budget. */
function openFiles(files: DiffFileView[]): boolean[] {
  let shown = 0;
  return files.map((f, i) => {
    const lines = f.hunks.reduce((n, h) => n + h.lines.length, 0);
    const open = i < OPEN_FILES && shown + lines <= OPEN_LINES * 2 && lines <= OPEN_LINES;
    if (open) shown += lines;
    return open;
  });
}
