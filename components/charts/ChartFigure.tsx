/**
 * A chart's frame and a table's downloads: the chart has a title, a
 * fixed-height box it mounts into after the server-rendered table (so nothing
 * shifts), and a pointer to the table that carries the same numbers as text.
 */
import type { ReactNode } from "react";

export function ChartFigure({ id, title, tableId, tableName, tall, children }: { id: string; title: string; tableId: string; tableName: string; tall?: boolean; children: ReactNode }) {
  return (
    <figure className="chart-figure" aria-labelledby={`${id}-title`} data-testid="chart" id={id}>
      <figcaption id={`${id}-title`}>{title}</figcaption>
      <div className={tall ? "chart-box tall" : "chart-box"} aria-hidden="true">
        {children}
      </div>
      <p className="chart-alt">
        Text alternative: the table <a href={`#${tableId}`}>{tableName}</a> has these numbers.
      </p>
    </figure>
  );
}

/** CSV and JSON downloads of one table, with the page's query. */
export function ExportLinks({ csv, json, what }: { csv: string; json: string; what: string }) {
  return (
    <p className="exports">
      Download {what}:{" "}
      <a href={csv} download>
        CSV
      </a>{" "}
      ·{" "}
      <a href={json} download>
        JSON
      </a>
    </p>
  );
}
