/**
 * /compare's tables for GET /api/v1/compare: their columns as JSON fields and CSV
 * headers (`table=difference|chains|systems|budget`).
 */
import type { z } from "zod";
import type { compareExportQuerySchema } from "@/lib/compare/url";
import type { getComparison } from "@/lib/compare/data";
import type { ChainWinLoss } from "@/lib/compare/view";
import type { BudgetSeries } from "@/lib/compare/budget";
import type { BudgetPoint } from "@/core/scoring";
import { FieldError } from "@/core/errors";
import { exportTable, type ExportColumn, type ExportMeta, type ExportTable } from "@/lib/export/table";
import type { LeaderboardRow } from "@/lib/leaderboard/data";

/** The table asked for (`q.table`) and the facts that go with it, for JSON or CSV (exportResponse). */
export function compareExport(q: z.infer<typeof compareExportQuerySchema>, view: Awaited<ReturnType<typeof getComparison>>): { table: ExportTable; meta: ExportMeta } {
  const meta = { version: view.version, scoring: q.scoring, a: view.a?.submissionId ?? null, b: view.b?.submissionId ?? null };
  const name = `chainswe-compare-${q.table}-${view.version ?? "none"}-${q.scoring}`;
  if (q.table === "systems") {
    const onFrontier = new Set(view.scatter.points.filter((p) => p.frontier).map((p) => p.submissionId));
    const columns: ExportColumn<LeaderboardRow>[] = [
      { label: "submission", value: (r) => r.submissionId },
      { label: "system", value: (r) => r.system.name },
      { label: "team", value: (r) => r.team.name },
      { label: "model", value: (r) => r.system.model },
      { label: "context_config", value: (r) => r.system.contextConfig },
      { label: "mode", value: (r) => r.mode },
      { label: "cost_per_chain_usd", value: (r) => r.costPerChain },
      { label: "per_bug_pct", value: (r) => r.perBug.value },
      { label: "per_bug_ci_low", value: (r) => r.perBug.ci[0] },
      { label: "per_bug_ci_high", value: (r) => r.perBug.ci[1] },
      // null without a cost: not plotted, so neither on nor off the frontier
      { label: "on_pareto_frontier", value: (r) => (r.costPerChain === null ? null : onFrontier.has(r.submissionId)) },
      { label: "compared", value: (r) => (r.submissionId === view.a?.submissionId ? "A" : r.submissionId === view.b?.submissionId ? "B" : "") },
    ];
    return { table: exportTable(name, columns, view.rows), meta };
  }
  if (q.table === "budget") return { table: exportTable(`chainswe-compare-budget-${q.effort}-${view.version ?? "none"}-${q.scoring}`, BUDGET_COLUMNS, budgetLines(view.budget)), meta: { ...meta, effort: q.effort } };
  if (!view.a || !view.b) throw new FieldError(view.a ? "b" : "a", "pick both submissions to compare");
  if (!view.paired) throw new FieldError("b", `these two cannot be compared: ${view.problem ?? "no results"}`);
  const paired = view.paired;
  if (q.table === "chains") {
    const columns: ExportColumn<ChainWinLoss>[] = [
      { label: "continuous_id", value: (r) => r.continuousId },
      { label: "length", value: (r) => r.length },
      { label: "a_resolved", value: (r) => r.a },
      { label: "b_resolved", value: (r) => r.b },
      { label: "more_resolved_by", value: (r) => r.winner },
      { label: "resolved_by_a_only", value: (r) => r.flipped.a.join(" ") },
      { label: "resolved_by_b_only", value: (r) => r.flipped.b.join(" ") },
    ];
    return { table: exportTable(name, columns, view.chains), meta };
  }
  const columns: ExportColumn<typeof paired>[] = [
    { label: "a_system", value: (p) => p.a.system },
    { label: "a_mode", value: (p) => p.a.mode },
    { label: "a_per_bug_pct", value: (p) => p.a.per_bug },
    { label: "b_system", value: (p) => p.b.system },
    { label: "b_mode", value: (p) => p.b.mode },
    { label: "b_per_bug_pct", value: (p) => p.b.per_bug },
    { label: "difference_pts", value: (p) => p.difference.value },
    { label: "ci_low", value: (p) => p.difference.ci[0] },
    { label: "ci_high", value: (p) => p.difference.ci[1] },
    { label: "chains", value: (p) => p.chains },
    { label: "bugs", value: (p) => p.bugs },
    { label: "a_wins", value: (p) => p.wins },
    { label: "b_wins", value: (p) => p.losses },
    { label: "ties", value: (p) => p.ties },
    { label: "sign_test_p", value: (p) => p.sign_test_p },
    { label: "bugs_a_only", value: (p) => p.per_bug_test?.a_only },
    { label: "bugs_b_only", value: (p) => p.per_bug_test?.b_only },
    { label: "mcnemar_p", value: (p) => p.per_bug_test?.mcnemar_p },
  ];
  return { table: exportTable(name, columns, [paired]), meta };
}

/** One line per visible row and cap; a row with no bug on its curve gets one line with no cap, so its count of bugs without effort still shows. */
type BudgetLine = { series: BudgetSeries; point: BudgetPoint | null };
const budgetLines = (series: readonly BudgetSeries[]): BudgetLine[] =>
  series.flatMap((s): BudgetLine[] => (s.curve.points.length === 0 ? [{ series: s, point: null }] : s.curve.points.map((point) => ({ series: s, point }))));

const BUDGET_COLUMNS: ExportColumn<BudgetLine>[] = [
  { label: "submission", value: (l) => l.series.submissionId },
  { label: "system", value: (l) => l.series.system },
  { label: "mode", value: (l) => l.series.mode },
  { label: "cap", value: (l) => l.point?.cap ?? null },
  { label: "per_bug_pct", value: (l) => l.point?.per_bug ?? null },
  { label: "chain_pct", value: (l) => l.point?.chain ?? null },
  { label: "resolved_bugs", value: (l) => l.point?.resolved_bugs ?? null },
  { label: "resolved_chains", value: (l) => l.point?.resolved_chains ?? null },
  { label: "bugs", value: (l) => l.series.curve.bugs },
  { label: "chains", value: (l) => l.series.curve.chains },
  { label: "bugs_without_effort", value: (l) => l.series.curve.bugs_without_effort },
  { label: "compared", value: (l) => (l.series.picked ?? "").toUpperCase() },
];
