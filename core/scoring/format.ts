/**
 * Relative change vs Oracle and the paper's number formats, shared by the text
 * report and the portal so both print the same strings.
 *
 * - percents: one decimal (`49.0`); costs: `$5.60`; tokens: `48.2k`; missing: `—`;
 * - relative change: whole percent with a sign, `−29%` / `+9%`, unicode minus.
 *   As in the paper's Table 2, only an increase gets `+`; no change prints `−0%`.
 *   Rounding is half away from zero on the unrounded ratio, which reproduces every
 *   annotation of the paper's Table 2 from its printed numbers.
 */
import type { Mode } from "@/core/schemas/prediction";

export const MISSING = "—";
export const MINUS = "−";

/** (mode − oracle) / oracle as a fraction (−0.29 for −29%); null when either is missing or oracle is 0. */
export function relativeChange(value: number | null, oracleValue: number | null): number | null {
  if (value === null || oracleValue === null || oracleValue === 0) return null;
  return (value - oracleValue) / oracleValue;
}

/** `−29%`, `+9%`, `−0%`; `—` for null. */
export function formatRelativeChange(rel: number | null): string {
  if (rel === null || !Number.isFinite(rel)) return MISSING;
  const whole = Math.floor(Math.abs(rel) * 100 + 0.5);
  return `${rel > 0 ? "+" : MINUS}${whole}%`;
}

/** `49.0 −29%` with a relative change, `49.0` without (null or undefined). */
export function formatWithChange(value: number | null | undefined, rel: number | null | undefined): string {
  const text = formatPercent(value);
  return rel === undefined || rel === null ? text : `${text} ${formatRelativeChange(rel)}`;
}

/** Mode names as the paper prints them. */
export const MODE_LABELS: Record<Mode, string> = { oracle: "Oracle", seq: "Seq", seq_mem: "Seq+Mem" };

function signed(text: string): string {
  return text.startsWith("-") ? MINUS + text.slice(1) : text;
}

/** A percentage with one decimal (`49.0`, `−3.2`); `—` for null. */
export function formatPercent(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return MISSING;
  const text = value.toFixed(1);
  return signed(text === "-0.0" ? "0.0" : text);
}

/** `[45.1, 53.0]`; `—` for null. */
export function formatInterval(ci: readonly [number, number] | null | undefined): string {
  if (!ci) return MISSING;
  return `[${formatPercent(ci[0])}, ${formatPercent(ci[1])}]`;
}

/** `$5.60`; `—` for null. */
export function formatCost(usd: number | null | undefined): string {
  if (usd === null || usd === undefined || !Number.isFinite(usd)) return MISSING;
  return `$${usd.toFixed(2)}`;
}

/** Thousands of tokens as in the paper's Table 8: `48.2k`; `—` for null. */
export function formatTokens(tokens: number | null | undefined): string {
  if (tokens === null || tokens === undefined || !Number.isFinite(tokens)) return MISSING;
  return `${(tokens / 1000).toFixed(1)}k`;
}

/** `12 (48.0%)`; the percentage is `—` when there is no denominator. */
export function formatShare(count: number, pct: number | null): string {
  return pct === null ? `${count} (${MISSING})` : `${count} (${formatPercent(pct)}%)`;
}

export type Align = "left" | "right";

/** Plain-text table: columns padded to their widest cell, two spaces apart. */
export function renderTable(header: readonly string[], rows: readonly (readonly string[])[], align?: readonly Align[]): string {
  const width = header.map((h, c) => Math.max(h.length, ...rows.map((r) => (r[c] ?? "").length)));
  const line = (cells: readonly string[]) =>
    header
      .map((_, c) => {
        const cell = cells[c] ?? "";
        const w = width[c] as number;
        return (align?.[c] ?? (c === 0 ? "left" : "right")) === "left" ? cell.padEnd(w) : cell.padStart(w);
      })
      .join("  ")
      .trimEnd();
  const rule = width.map((w) => "-".repeat(w)).join("  ");
  return [line(header), rule, ...rows.map(line)].join("\n");
}
