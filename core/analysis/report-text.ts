/**
 * The report (./report.ts) as plain-text tables in the paper's styles, for
 * `chainswe report` and `chainswe demo`: scores, per-position rates, paired
 * comparisons against Oracle, and the chain-error breakdowns and list.
 */
import {
  MISSING,
  MODE_LABELS,
  formatCost,
  formatInterval,
  formatPercent,
  formatShare,
  formatTokens,
  formatWithChange,
  renderTable,
} from "@/core/scoring";
import { CAUSES, type ChainError, type ChainErrorBreakdown } from "./index";
import type { ModeReport, Report } from "./report";


const capitalize = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);
/** the paper's order (§5.3): broke working code, left unfixed, no usable patch */
const FINGERPRINT_COLUMNS = [
  ["broke_working_code", "Broke working code"],
  ["left_unfixed", "Left unfixed"],
  ["no_usable_patch", "No usable patch"],
] as const;
const SCORING_NOTE = {
  strict: "strict: a Seq/Seq+Mem bug counts only if every earlier bug of its chain is resolved",
  lenient: "lenient: each bug on its own grade",
} as const;

type Row = { system: string; entry: ModeReport };
const rowsOf = (report: Report): Row[] => report.systems.flatMap((s) => s.modes.map((entry) => ({ system: s.system, entry })));

function scoresTable(report: Report, scoring: "strict" | "lenient"): string {
  const header = ["System", "Mode", "Per-bug %", "95% CI", "Chain %", "95% CI", "Cost/chain", "Peak ctx"];
  const rows = rowsOf(report).map(({ system, entry }) => {
    const s = entry[scoring];
    const rel = entry.relative_to_oracle?.[scoring];
    return [
      system,
      MODE_LABELS[entry.mode],
      formatWithChange(s.per_bug.value, rel?.per_bug),
      formatInterval(s.per_bug.ci),
      formatWithChange(s.chain.value, rel?.chain),
      formatInterval(s.chain.ci),
      formatCost(s.cost_per_chain),
      formatTokens(s.peak_context_tokens),
    ];
  });
  const title = `Scores (Table 2 style) — Seq scoring ${SCORING_NOTE[scoring]}`;
  return `${title}\n${renderTable(header, rows, ["left", "left"])}`;
}

function positionTable(report: Report, scoring: "strict" | "lenient"): string {
  const rows = rowsOf(report);
  const maxPos = Math.max(0, ...rows.map((r) => r.entry[scoring].per_position.length));
  const positions = Array.from({ length: maxPos }, (_, i) => i + 1);
  const header = ["System", "Mode", "n", ...positions.flatMap((p) => [`Pos. ${p}`, "95% CI"])];
  const body = rows.map(({ system, entry }) => {
    const s = entry[scoring];
    const rel = entry.relative_to_oracle?.[scoring];
    return [
      system,
      MODE_LABELS[entry.mode],
      String(s.per_position[0]?.n ?? 0),
      ...positions.flatMap((p) => {
        const rate = s.per_position.find((r) => r.position === p);
        // position 1 starts from the same clean state in every mode: the paper leaves it unannotated
        const change = p === 1 ? undefined : rel?.per_position.find((r) => r.position === p)?.value;
        return [formatWithChange(rate?.value ?? null, change), formatInterval(rate?.ci)];
      }),
    ];
  });
  const set = report.positions === "length3" ? "length-3 chains" : "all chains";
  const title =
    `Per-position resolution % (Tables 3–4 style, ${set}; n = chains in the set) — ` +
    `Seq scoring ${SCORING_NOTE[scoring]}`;
  return `${title}\n${renderTable(header, body, ["left", "left"])}`;
}

function pairedTable(report: Report): string | null {
  const rows = rowsOf(report).flatMap(({ system, entry }) => {
    const p = entry.paired_vs_oracle;
    if (!p) return [];
    return [
      [
        system,
        MODE_LABELS[entry.mode],
        String(p.chains),
        formatPercent(p.difference.value),
        formatInterval(p.difference.ci),
        `${p.wins}/${p.losses}/${p.ties}`,
      ],
    ];
  });
  if (rows.length === 0) return null;
  const header = ["System", "Mode", "Chains", "Δ per-bug pts", "95% CI", "Chains W/L/T"];
  return `Paired vs Oracle (same chains; Seq scoring strict)\n${renderTable(header, rows, ["left", "left"])}`;
}

function breakdownTable(b: ChainErrorBreakdown): string {
  const header = [
    "Position",
    "Chain errors",
    "Unresolved",
    "Rate %",
    ...CAUSES.map(capitalize),
    ...FINGERPRINT_COLUMNS.map(([, label]) => label),
  ];
  const showUnknown = b.overall.fingerprints.unknown.count > 0;
  const row = (label: string, s: ChainErrorBreakdown["overall"]) => [
    label,
    String(s.chain_errors),
    String(s.unresolved_downstream),
    formatPercent(s.rate),
    ...CAUSES.map((c) => formatShare(s.causes[c].count, s.causes[c].pct)),
    ...FINGERPRINT_COLUMNS.map(([f]) => formatShare(s.fingerprints[f].count, s.fingerprints[f].pct)),
    ...(showUnknown ? [formatShare(s.fingerprints.unknown.count, s.fingerprints.unknown.pct)] : []),
  ];
  const rows = [...b.positions.map((p) => row(String(p.position), p)), row("All", b.overall)];
  const title =
    `Chain errors — ${b.system}, ${MODE_LABELS[b.seq_mode]} vs Oracle ` +
    "(rate = chain errors / unresolved Seq bugs at position ≥ 2, lenient grades; splits in % of chain errors)";
  return `${title}\n${renderTable(showUnknown ? [...header, "Unknown"] : header, rows)}`;
}

function errorList(errors: readonly ChainError[]): string {
  const lines = errors.map((e) => {
    const ev = e.evidence.map((x) => `#${x.prior_order} ${x.file} (${x.kind}${x.strong ? "" : ", weak"})`);
    const head = `${e.system}  ${MODE_LABELS[e.seq_mode]}  ${e.continuous_id} #${e.order}  ${e.fingerprint ?? MISSING}  ${e.cause}`;
    return ev.length ? `${head}  evidence: ${ev.join("; ")}` : head;
  });
  return [`Chain errors (${errors.length})`, ...lines].join("\n");
}

/** The report as plain-text tables in the paper's styles, strict and lenient labelled. */
export function formatReportTables(report: Report): string {
  const { seed, draws, level } = report.bootstrap;
  const sections = [
    `Intervals: ${Math.round(level * 100)}% percentile bootstrap over chains, seed ${seed}, ${draws} draws. ` +
      "Relative change vs the same system's Oracle.",
    scoresTable(report, "strict"),
    scoresTable(report, "lenient"),
    positionTable(report, "strict"),
    positionTable(report, "lenient"),
    pairedTable(report),
    ...report.chain_error_breakdowns.map(breakdownTable),
    report.chain_error_breakdowns.length > 0 ? errorList(report.chain_errors) : null,
  ];
  return sections.filter((s): s is string => s !== null).join("\n\n") + "\n";
}
