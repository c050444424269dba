/**
 * Per-position resolution % in the paper's Table 3 / Table 4 layout: a group
 * (configuration or model) per row group, a row per mode, the relative change
 * against the group's Oracle row after each value. A value of one system links
 * to its submission; a mean over several to the view of its members. Its own
 * markup, not a DataTable: a group's rows share one row header (rowSpan, a
 * tbody per group).
 */
import Link from "next/link";
import { formatPercent, formatRelativeChange } from "@/core/scoring/format";
import type { PositionRow, PositionTable as Table } from "@/lib/positions/view";
import { submissionPageUrl } from "@/lib/submissions/urls";
import { ChartModeKey } from "@/components/charts/ChartModeKey";

type Props = {
  id: string;
  caption: string;
  table: Table;
  /** the view of a group's several systems; absent for the paper's reported tables (nothing to open) */
  groupHref?: (key: string) => string;
};

const rowHref = (row: PositionRow, groupHref: string | undefined) =>
  groupHref === undefined ? null : row.submissionIds.length === 1 ? submissionPageUrl(row.submissionIds[0] as string) : groupHref;

const Maybe = ({ href, children }: { href: string | null; children: string | number }) => (href ? <Link href={href}>{children}</Link> : <>{children}</>);

export function PositionTable({ id, caption, table, groupHref }: Props) {
  const groupLabel = table.by === "config" ? "Configuration" : "Model";
  const evaluated = groupHref !== undefined;
  return (
    <div className="table-scroll">
      <table id={id} className={evaluated ? "position-table" : "position-table reported"}>
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{groupLabel}</th>
            <th scope="col">Mode</th>
            {evaluated && (
              <th scope="col" className="num">
                Systems
              </th>
            )}
            {table.positions.map((p, i) => (
              <th key={p} scope="col" className="num">
                Pos. {p} <small className="muted">n = {table.chainsAt[i]}</small>
              </th>
            ))}
          </tr>
        </thead>
        {table.groups.map((g) => (
          <tbody key={g.key}>
            {g.rows.map((row, i) => {
              const href = rowHref(row, groupHref?.(g.key));
              return (
                <tr key={row.mode} className={i === 0 ? "group-start" : undefined}>
                  {i === 0 && (
                    <th scope="rowgroup" rowSpan={g.rows.length}>
                      {g.key}
                    </th>
                  )}
                  <th scope="row">
                    <ChartModeKey mode={row.mode} />
                  </th>
                  {evaluated && (
                    <td className="num">
                      <Maybe href={href}>{row.submissionIds.length}</Maybe>
                    </td>
                  )}
                  {row.cells.map((c) => (
                    <td key={c.position} className="num">
                      <Maybe href={href}>{formatPercent(c.value)}</Maybe>
                      {c.vsOracle !== null && " "}
                      {c.vsOracle !== null && <span className="rel">{formatRelativeChange(c.vsOracle)}</span>}
                      {c.runs && (
                        <small className="pos-runs muted" title="Run-to-run spread: the mean over the systems of each one's lowest and highest run">
                          runs {formatPercent(c.runs.min)}–{formatPercent(c.runs.max)}
                        </small>
                      )}
                    </td>
                  ))}
                </tr>
              );
            })}
          </tbody>
        ))}
      </table>
    </div>
  );
}
