/**
 * GET /api/v1/analysis: the tables of /analysis as JSON or CSV
 * (`table=positions|systems|errors`, `format=json|csv`, and the page's query:
 * version, system (repeatable), mode, and for the list position, cause,
 * fingerprint). Public data only. Shares and rates are percentages.
 */
import { CAUSES, type BreakdownStats } from "@/evaluator/analysis";
import { analysisExportQuerySchema } from "@/lib/analysis/url";
import { FINGERPRINT_KEYS } from "@/lib/analysis/view";
import { getChainErrorView, type AnalysisEntry, type ChainErrorRow } from "@/lib/analysis/data";
import { exportResponse, exportTable, type ExportColumn } from "@/lib/export-table";
import { errorResponse } from "@/lib/http";
import { failurePageUrl } from "@/lib/submissions/urls";
import { parseQuery } from "@/lib/view-query";

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

export async function GET(req: Request): Promise<Response> {
  try {
    const q = parseQuery(analysisExportQuerySchema, new URL(req.url).searchParams);
    const view = await getChainErrorView(q);
    const name = `chainswe-chain-errors-${q.table}-${view.version ?? "none"}`;
    const meta = { version: view.version, system: q.system, mode: q.mode ?? null };
    if (q.table === "positions") {
      const lines: PositionLine[] = [...view.combined.positions.map((p) => ({ position: p.position, stats: p })), { position: "all", stats: view.combined.overall }];
      return exportResponse(exportTable<PositionLine>(name, [{ label: "position", value: (l) => l.position }, ...statsColumns<PositionLine>((l) => l.stats)], lines), q.format, meta);
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
      return exportResponse(exportTable(name, columns, view.analyses), q.format, meta);
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
    return exportResponse(exportTable(name, columns, view.errors), q.format, { ...meta, position: q.position ?? null, cause: q.cause ?? null, fingerprint: q.fingerprint ?? null });
  } catch (e) {
    return errorResponse(e);
  }
}
