/**
 * CSV for every table's export (issue 4, item 7): one header row of column
 * labels, then one row per record. csv-stringify does the quoting; callers
 * pick the columns so the CSV and the JSON export carry the same fields.
 */
import { stringify } from "csv-stringify/sync";

export type CsvColumn<T> = { label: string; value: (row: T) => string | number | boolean | null | undefined };

export function toCsv<T>(columns: readonly CsvColumn<T>[], rows: readonly T[]): string {
  return stringify([columns.map((c) => c.label), ...rows.map((r) => columns.map((c) => c.value(r) ?? ""))]);
}

/** A download response for an export, named so "save as" says what it is. */
export function csvResponse(csv: string, filename: string): Response {
  return new Response(csv, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${filename.replace(/[^A-Za-z0-9._-]/g, "_")}"`,
      "cache-control": "no-store",
    },
  });
}
