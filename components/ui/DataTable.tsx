import type { ReactNode } from "react";

/** One column: its header, and what a row shows in it. */
export type Column<Row> = {
  /** the column's name (and its key among the columns) */
  header: string;
  /** what the header cell shows when it is more than the name (an abbreviation, a mode tag) */
  label?: ReactNode;
  /** a class of the header cell (a mode's colour) */
  headerClass?: string;
  /** the header is read by screen readers only (a column of buttons) */
  hiddenHeader?: boolean;
  /** right-aligned figures */
  numeric?: boolean;
  /** kept on one line (a model's name, a date): the table scrolls sideways instead of breaking it */
  nowrap?: boolean;
  cell: (row: Row) => ReactNode;
  /** a class for this column's cell in a row (an outcome's colour) */
  cellClass?: (row: Row) => string;
};

/**
 * The portal's plain table: a header row, one row per item, the first cell a
 * row header (unless `rowHeader` is false, where no column names the row), in
 * a scroll box on narrow screens; `empty` is shown instead when there are no
 * rows. Server-rendered; sortable, grouped tables (the leaderboard) use
 * @tanstack/react-table instead.
 */
export function DataTable<Row>({
  columns,
  rows,
  rowKey,
  caption,
  captionHidden,
  empty,
  rowHeader = true,
  className,
  id,
  testId,
  rowAttributes,
}: {
  columns: Column<Row>[];
  rows: Row[];
  rowKey: (row: Row) => string;
  caption?: ReactNode;
  /** the caption is for screen readers only */
  captionHidden?: boolean;
  empty?: ReactNode;
  rowHeader?: boolean;
  className?: string;
  /** the table's id (an anchor the page links to) */
  id?: string;
  /** the table's data-testid */
  testId?: string;
  /** extra attributes of a row's <tr> (a test id, a class) */
  rowAttributes?: (row: Row) => Record<string, string>;
}) {
  if (rows.length === 0 && empty !== undefined) return <p className="muted">{empty}</p>;
  const numeric = (c: Column<Row>) => (c.numeric ? "num" : undefined);
  const cellClass = (c: Column<Row>, row: Row) => [numeric(c), c.nowrap && "nowrap", c.cellClass?.(row)].filter(Boolean).join(" ") || undefined;
  return (
    <div className="table-scroll">
      <table className={className} id={id} data-testid={testId}>
        {caption && <caption className={captionHidden ? "visually-hidden" : undefined}>{caption}</caption>}
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.header} scope="col" className={[numeric(c), c.headerClass].filter(Boolean).join(" ") || undefined}>
                {c.hiddenHeader ? <span className="visually-hidden">{c.header}</span> : (c.label ?? c.header)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)} {...rowAttributes?.(row)}>
              {columns.map((c, i) =>
                i === 0 && rowHeader ? (
                  <th key={c.header} scope="row" className={cellClass(c, row)}>
                    {c.cell(row)}
                  </th>
                ) : (
                  <td key={c.header} className={cellClass(c, row)}>
                    {c.cell(row)}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
