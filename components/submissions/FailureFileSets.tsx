/**
 * The agent's files against the gold patch's (SPEC §5): overshoot files (the
 * agent's only, M \ F) and undershoot files (the gold patch's only, F \ M),
 * marked by colour and by an icon, with a legend; one column per mode shown.
 */
import { MODE_LABELS } from "@/core/scoring/format";
import type { FailureSide } from "@/lib/submissions/failure";
import type { FileMark, FileSetRow } from "@/lib/submissions/failure-view";
import { DataTable, type Column } from "@/components/ui/DataTable";

const MARKS: Record<FileMark, { icon: string; text: string }> = {
  matched: { icon: "✓", text: "touched, as gold" },
  overshoot: { icon: "▲", text: "overshoot" },
  undershoot: { icon: "▽", text: "undershoot" },
};

function MarkText({ mark }: { mark: FileMark | null }) {
  if (!mark) return "—";
  const m = MARKS[mark];
  return (
    <>
      <span aria-hidden="true">{m.icon}</span> {m.text}
    </>
  );
}

export function FailureFileSetsLegend() {
  return (
    <ul className="file-legend" aria-label="Legend">
      <li className="file-matched">
        <span aria-hidden="true">✓</span> the agent&apos;s patch and the gold patch both touch the file
      </li>
      <li className="file-overshoot">
        <span aria-hidden="true">▲</span> overshoot: only the agent&apos;s patch touches it (a stray edit later bugs may trip over)
      </li>
      <li className="file-undershoot">
        <span aria-hidden="true">▽</span> undershoot: only the gold patch touches it (a file the agent skipped)
      </li>
    </ul>
  );
}

export function FailureFileSets({ rows, sides, currentId }: { rows: FileSetRow[]; sides: FailureSide[]; currentId: string }) {
  if (rows.length === 0) return <p className="muted">Neither the gold patch nor an agent patch touches any file.</p>;
  return (
    <>
      <FailureFileSetsLegend />
      <DataTable
        className="file-sets ds-sticky"
        testId="file-sets"
        caption="Files of the gold patch and of each agent patch (as applied)"
        columns={[
          { header: "File", cell: (r) => <code>{r.file}</code> },
          { header: "Gold patch", cell: (r) => (r.gold ? "✓ gold" : <span className="muted">—</span>) },
          ...sides.map(
            (s, i): Column<FileSetRow> => ({
              header: `Agent, ${MODE_LABELS[s.mode]} ${s.submissionId}`,
              label: (
                <>
                  Agent, {MODE_LABELS[s.mode]}
                  {s.submissionId === currentId ? " (this submission)" : ""}
                  {s.outcome && !s.outcome.patchApplied ? <small className="muted"> not applied</small> : null}
                </>
              ),
              cellClass: (r) => (r.marks[i] ? `file-mark file-${r.marks[i]}` : "muted"),
              cell: (r) => <MarkText mark={r.marks[i] ?? null} />,
            }),
          ),
        ]}
        rows={rows}
        rowKey={(r) => r.file}
        rowAttributes={(r): Record<string, string> => (r.marks[0] ? { className: `row-${r.marks[0]}` } : {})}
      />
    </>
  );
}
