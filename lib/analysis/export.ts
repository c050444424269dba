/**
 * /analysis's tables for GET /api/v1/analysis: their columns as JSON fields and
 * CSV headers (`table=positions|systems|errors`).
 */
import type { z } from "zod";
import { CAUSES, type BreakdownStats } from "@/core/analysis";
import type { analysisExportQuerySchema } from "@/lib/analysis/url";
import { FINGERPRINT_KEYS } from "@/lib/analysis/view";
import type { getChainErrorView, AnalysisEntry, ChainErrorRow } from "@/lib/analysis/data";
import { exportTable, type ExportColumn, type ExportMeta, type ExportTable } from "@/lib/export/table";
import { failurePageUrl } from "@/lib/submissions/urls";
import { windowMeta } from "@/lib/leaderboard/window";

/** The breakdown columns of a row that carries BreakdownStats at `stats`. */
function statsColumns<T>(stats: (row: T) => BreakdownStats): ExportColumn<T>[] {
  return [
    { label: "unresolved_downstream", value: (r) => stats(r).unresolved_downstream },
    { label: "chain_errors", value: (r) => stats(r).chain_errors },
    { label: "rate_pct", value: (r) => stats(r).rate },
    ...CAUSES.map((c) => ({ label: c, value: (r: T) => stats(r).causes[c].count })),
    ...FINGERPRINT_KEYS.map((f) => ({ label: f, value: (r: T) => stats(r).fingerprints[f].count })),
  ];
}

type PositionLine = { position: number | "all"; stats: BreakdownStats };

/** The table asked for (`q.table`) and the facts that go with it, for JSON or CSV (exportResponse). */
export function analysisExport(q: z.infer<typeof analysisExportQuerySchema>, view: Awaited<ReturnType<typeof getChainErrorView>>): { table: ExportTable; meta: ExportMeta } {
  const name = `chainswe-chain-errors-${q.table}-${view.version ?? "none"}`;
  const meta = { version: view.version, system: q.system, mode: q.mode ?? null, ...windowMeta(view.window) };
  if (q.table === "positions") {
    const lines: PositionLine[] = [...view.combined.positions.map((p) => ({ position: p.position, stats: p })), { position: "all", stats: view.combined.overall }];
    return { table: exportTable<PositionLine>(name, [{ label: "position", value: (l) => l.position }, ...statsColumns<PositionLine>((l) => l.stats)], lines), meta };
  }
  if (q.table === "systems") {
    const columns: ExportColumn<AnalysisEntry>[] = [
      { label: "system", value: (a) => a.system.name },
      { label: "team", value: (a) => a.team.name },
      { label: "model", value: (a) => a.system.model },
      { label: "context_config", value: (a) => a.system.contextConfig },
      { label: "mode", value: (a) => a.mode },
      { label: "seq_submission", value: (a) => a.seqSubmissionId },
      { label: "oracle_submission", value: (a) => a.oracleSubmissionId },
      ...statsColumns<AnalysisEntry>((a) => a.breakdown.overall),
    ];
    return { table: exportTable(name, columns, view.analyses), meta };
  }
  const columns: ExportColumn<ChainErrorRow>[] = [
    { label: "system", value: (e) => e.system },
    { label: "team", value: (e) => e.team },
    { label: "mode", value: (e) => e.seq_mode },
    { label: "continuous_id", value: (e) => e.continuous_id },
    { label: "order", value: (e) => e.order },
    { label: "swebench_instance_id", value: (e) => e.swebench_instance_id },
    { label: "fingerprint", value: (e) => e.fingerprint },
    { label: "cause", value: (e) => e.cause },
    { label: "evidence", value: (e) => e.evidence.map((x) => `#${x.prior_order} ${x.file} (${x.kind}${x.strong ? "" : ", weak"})`).join("; ") },
    { label: "seq_submission", value: (e) => e.seqSubmissionId },
    { label: "failure_page", value: (e) => failurePageUrl(e.seqSubmissionId, e.continuous_id, e.order) },
  ];
  return { table: exportTable(name, columns, view.errors), meta: { ...meta, position: q.position ?? null, cause: q.cause ?? null, fingerprint: q.fingerprint ?? null } };
}
