/**
 * The agent's files against the gold patch's (SPEC §5): overshoot files (the
 * agent's only, M \ F) and undershoot files (the gold patch's only, F \ M),
 * marked by colour and by an icon, with a legend; one column per mode shown.
 */
import { MODE_LABELS } from "@/evaluator/scoring/format";
import type { FailureSide } from "@/lib/submissions/failure";
import type { FileMark, FileSetRow } from "@/lib/submissions/failure-view";

const MARKS: Record<FileMark, { icon: string; text: string }> = {
  matched: { icon: "✓", text: "touched, as gold" },
  overshoot: { icon: "▲", text: "overshoot" },
  undershoot: { icon: "▽", text: "undershoot" },
};

function MarkCell({ mark }: { mark: FileMark | null }) {
  if (!mark) return <td className="muted">—</td>;
  const m = MARKS[mark];
  return (
    <td className={`file-mark file-${mark}`}>
      <span aria-hidden="true">{m.icon}</span> {m.text}
    </td>
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
      <div className="table-scroll">
        <table className="file-sets ds-sticky" data-testid="file-sets">
          <caption>Files of the gold patch and of each agent patch (as applied)</caption>
          <thead>
            <tr>
              <th scope="col">File</th>
              <th scope="col">Gold patch</th>
              {sides.map((s) => (
                <th key={s.submissionId} scope="col">
                  Agent, {MODE_LABELS[s.mode]}
                  {s.submissionId === currentId ? " (this submission)" : ""}
                  {s.outcome && !s.outcome.patchApplied ? <small className="muted"> not applied</small> : null}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.file} className={r.marks[0] ? `row-${r.marks[0]}` : undefined}>
                <th scope="row">
                  <code>{r.file}</code>
                </th>
                <td>{r.gold ? "✓ gold" : <span className="muted">—</span>}</td>
                {r.marks.map((m, i) => (
                  <MarkCell key={i} mark={m} />
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
