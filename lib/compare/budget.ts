/**
 * The comparison page's budget curves (SPEC §4 "Budget curves") as the chart,
 * its table and the export read them: one series per visible row, the curves'
 * values at any cap, and the few caps the table shows. Pure and client-safe.
 */
import type { BudgetCurve, EffortKind } from "@/core/scoring";
import type { Mode } from "@/core/schemas/prediction";
import { MODE_LABELS } from "@/core/scoring/format";

/** A visible row's curve. */
export type BudgetSeries = {
  submissionId: string;
  system: string;
  mode: Mode;
  /** the row is compared as A or B */
  picked: "a" | "b" | null;
  curve: BudgetCurve;
};

export type BudgetMetric = "per_bug" | "chain";

export const EFFORT_LABELS: Record<EffortKind, string> = { cost_usd: "cost", steps: "steps", wall_seconds: "wall time" };

/** A line's name: `A: demo-gold · Seq`. */
export const seriesName = (s: BudgetSeries): string => `${s.picked ? `${s.picked.toUpperCase()}: ` : ""}${s.system} · ${MODE_LABELS[s.mode]}`;

/** A cap as read: `$0.4332`, `33 steps`, `9.3 s`. */
export function formatCap(kind: EffortKind, cap: number): string {
  if (kind === "cost_usd") return `$${Number(cap.toFixed(4))}`;
  if (kind === "steps") return `${cap} step${cap === 1 ? "" : "s"}`;
  return `${Number(cap.toFixed(1))} s`;
}

/**
 * The curve's value at `cap`: its point at the largest cap at or below it, 0
 * below its first cap (every bug is over it); null when the curve has no point
 * or (chain %) no chain.
 */
export function valueAt(curve: BudgetCurve, cap: number, metric: BudgetMetric): number | null {
  if (curve.points.length === 0 || (metric === "chain" && curve.chains === 0)) return null;
  let at: number | null = 0;
  for (const p of curve.points) {
    if (p.cap > cap) break;
    at = p[metric];
  }
  return at;
}

/** The chart's rows: one per cap of any drawn series, ascending, each series' value there under its submission id (the step curves are exact at every one). */
export function budgetChartRows(series: readonly BudgetSeries[], metric: BudgetMetric): Record<string, number | null>[] {
  const caps = [...new Set(series.flatMap((s) => s.curve.points.map((p) => p.cap)))].sort((a, b) => a - b);
  return caps.map((cap) => ({ cap, ...Object.fromEntries(series.map((s) => [s.submissionId, valueAt(s.curve, cap, metric)])) }));
}

/** The caps the table shows: a quarter, half, three quarters and all of the largest effort of any series, rounded up to the kind's unit. */
export function tableCaps(series: readonly BudgetSeries[], kind: EffortKind): number[] {
  const top = Math.max(0, ...series.flatMap((s) => s.curve.points.map((p) => p.cap)));
  if (top === 0) return [];
  const unit = kind === "cost_usd" ? 0.01 : kind === "steps" ? 1 : 0.1;
  // rounded up so the largest cap keeps every bug; to the unit's decimals so 0.3 is 0.3, not 0.30000000000000004
  const round = (x: number) => Number((Math.ceil(x / unit - 1e-9) * unit).toFixed(2));
  return [...new Set([1, 2, 3, 4].map((k) => round((top * k) / 4)))];
}
