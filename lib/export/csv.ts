/**
 * CSV for every table's export: one header row of column
 * labels, then one row per record. csv-stringify does the quoting; callers
 * pick the columns so the CSV and the JSON export carry the same fields.
 * Text that a spreadsheet would run as a formula is defused (inert).
 */
import { stringify } from "csv-stringify/sync";

export type CsvColumn<T> = { label: string; value: (row: T) => string | number | boolean | null | undefined };

export function toCsv<T>(columns: readonly CsvColumn<T>[], rows: readonly T[]): string {
  return stringify([columns.map((c) => c.label), ...rows.map((r) => columns.map((c) => inert(c.value(r) ?? "")))]);
}

/**
 * Text a team chose (a system named `=HYPERLINK(…)`) must not become a formula
 * when the file is opened in a spreadsheet: text starting with = + - @ or a tab
 * or carriage return gets a leading apostrophe (OWASP's advice). Numbers are
 * left alone, so a negative rate stays a number.
 */
function inert(value: string | number | boolean): string | number | boolean {
  return typeof value === "string" && /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
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
