/**
 * The analysis pages' exports: a table as flat records keyed
 * by column label, answered as CSV or as JSON with the same columns.
 */
import { csvResponse, toCsv, type CsvColumn } from "@/lib/export/csv";
import { json } from "@/lib/http/requests";

export type ExportCell = string | number | boolean | null;
/** A column of an export: its label (the CSV header), its JSON field (`key`, the label when absent) and a record's value. */
export type ExportColumn<T> = { label: string; key?: string; value: (row: T) => ExportCell | undefined };
export type ExportTable = { name: string; columns: CsvColumn<Record<string, ExportCell>>[]; rows: Record<string, ExportCell>[] };

/** The JSON export's records: one flat object per row, keyed by each column's field, in column order. */
export function exportRecords<T>(columns: readonly ExportColumn<T>[], rows: readonly T[]): Record<string, ExportCell>[] {
  return rows.map((row) => Object.fromEntries(columns.map((c) => [c.key ?? c.label, c.value(row) ?? null])));
}

/** A table's records as flat objects keyed by column label, in column order. */
export function exportTable<T>(name: string, columns: readonly ExportColumn<T>[], rows: readonly T[]): ExportTable {
  const byLabel = columns.map((c) => ({ ...c, key: c.label }));
  return {
    name,
    columns: columns.map((c) => ({ label: c.label, value: (r: Record<string, ExportCell>) => r[c.label] })),
    rows: exportRecords(byLabel, rows),
  };
}

/** The export as a download: CSV, or JSON `{ table, ...meta, columns, rows }` with the same columns. */
/** What goes with a table: its dataset version, scoring, filters. */
export type ExportMeta = Record<string, ExportCell | string[]>;

export function exportResponse(table: ExportTable, format: "csv" | "json", meta: ExportMeta = {}): Response {
  if (format === "csv") return csvResponse(toCsv(table.columns, table.rows), `${table.name}.csv`);
  return json({ table: table.name, ...meta, columns: table.columns.map((c) => c.label), rows: table.rows });
}
