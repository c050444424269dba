/**
 * The `chainswe report --json` document (SPEC §5 "Analysis output") and its
 * plain-text rendering in the paper's table styles.
 *
 * Invariants:
 * - runs are matched by `summary.system`; one run per (system, mode), else it throws;
 * - every mode carries both strict and lenient scores (Oracle's are identical);
 * - relative changes are fractions (−0.29 = −29%) of the unrounded rates against the
 *   same system's Oracle under the same scoring and position set; null without Oracle;
 * - systems keep the order in which their first run was given; modes are
 *   oracle, seq, seq_mem; chain errors are sorted (see ./index).
 */
import { z } from "zod";
import { MODES, modeSchema, type Mode } from "@/lib/schemas/prediction";
import {
  CI_LEVEL,
  MISSING,
  formatCost,
  formatInterval,
  formatPercent,
  formatWithChange,
  MODE_LABELS,
  formatShare,
  formatTokens,
  renderTable,
  bootstrapInfoSchema,
  pairedComparison,
  pairedComparisonSchema,
  positionSetSchema,
  relativeChange,
  resolveBootstrap,
  runScoresSchema,
  scoreRun,
  type PositionSet,
  type RunResults,
  type RunScores,
} from "@/evaluator/scoring";
import {
  CAUSES,
  chainErrorBreakdown,
  chainErrorBreakdownSchema,
  chainErrors,
  chainErrorSchema,
  compareChainErrors,
  type ChainError,
  type ChainErrorBreakdown,
} from "./index";

export const REPORT_VERSION = 1;

const relativeBlockSchema = z.object({
  per_bug: z.number().nullable(),
  chain: z.number().nullable(),
  per_position: z.array(z.object({ position: z.number().int().positive(), value: z.number().nullable() })),
});
export type RelativeBlock = z.infer<typeof relativeBlockSchema>;

export const modeReportSchema = z.object({
  mode: modeSchema,
  strict: runScoresSchema,
  lenient: runScoresSchema,
  /** vs the same system's Oracle, per scoring; null for Oracle itself or when it is absent */
  relative_to_oracle: z.object({ strict: relativeBlockSchema, lenient: relativeBlockSchema }).nullable(),
  /** this mode minus Oracle in per-bug points, strict scoring, paired on shared chains */
  paired_vs_oracle: pairedComparisonSchema.nullable(),
});
export type ModeReport = z.infer<typeof modeReportSchema>;

export const reportSchema = z.object({
  version: z.literal(REPORT_VERSION),
  bootstrap: bootstrapInfoSchema.extend({ level: z.number() }),
  positions: positionSetSchema,
  systems: z.array(z.object({ system: z.string(), modes: z.array(modeReportSchema) })),
  chain_errors: z.array(chainErrorSchema),
  chain_error_breakdowns: z.array(chainErrorBreakdownSchema),
});
export type Report = z.infer<typeof reportSchema>;

export type ReportOptions = { positions?: PositionSet; seed?: number; draws?: number };

/** Runs by system (first-seen order), then by mode. */
export function groupRuns(runs: readonly RunResults[]): Map<string, Map<Mode, RunResults>> {
  const bySystem = new Map<string, Map<Mode, RunResults>>();
  for (const run of runs) {
    const { system, mode } = run.summary;
    const modes = bySystem.get(system) ?? new Map<Mode, RunResults>();
    if (modes.has(mode)) throw new RangeError(`two ${mode} runs for system ${system}: give one run per system and mode`);
    modes.set(mode, run);
    bySystem.set(system, modes);
  }
  return bySystem;
}

function relativeBlock(scores: RunScores, oracle: RunScores): RelativeBlock {
  return {
    per_bug: relativeChange(scores.per_bug.value, oracle.per_bug.value),
    chain: relativeChange(scores.chain.value, oracle.chain.value),
    per_position: scores.per_position.map(({ position, value }) => ({
      position,
      value: relativeChange(value, oracle.per_position.find((p) => p.position === position)?.value ?? null),
    })),
  };
}

function modeReports(modes: Map<Mode, RunResults>, opts: Required<ReportOptions>): ModeReport[] {
  const score = (run: RunResults) => {
    const strict = scoreRun(run, { ...opts, scoring: "strict" });
    // Oracle ignores the scoring choice: the lenient scores are the strict ones, relabelled
    const lenient =
      run.summary.mode === "oracle"
        ? { ...strict, scoring: "lenient" as const }
        : scoreRun(run, { ...opts, scoring: "lenient" });
    return { strict, lenient };
  };
  const oracleRun = modes.get("oracle");
  const oracle = oracleRun ? score(oracleRun) : null;
  return MODES.flatMap((mode): ModeReport[] => {
    const run = modes.get(mode);
    if (!run) return [];
    const scores = mode === "oracle" && oracle ? oracle : score(run);
    const compared = mode !== "oracle" && oracle && oracleRun;
    return [
      {
        mode,
        ...scores,
        relative_to_oracle: compared
          ? {
              strict: relativeBlock(scores.strict, oracle.strict),
              lenient: relativeBlock(scores.lenient, oracle.lenient),
            }
          : null,
        paired_vs_oracle: compared ? pairedComparison(run, oracleRun, { ...opts, scoring: "strict" }) : null,
      },
    ];
  });
}

/** The SPEC §5 analysis document for a set of runs (any systems, any modes). */
export function buildReport(runs: readonly RunResults[], opts: ReportOptions = {}): Report {
  const boot = resolveBootstrap(opts);
  const resolved = { positions: opts.positions ?? "length3", ...boot } satisfies Required<ReportOptions>;
  const systems: Report["systems"] = [];
  const errors: ChainError[] = [];
  const breakdowns: ChainErrorBreakdown[] = [];
  for (const [system, modes] of groupRuns(runs)) {
    systems.push({ system, modes: modeReports(modes, resolved) });
    const oracle = modes.get("oracle");
    if (!oracle) continue;
    for (const mode of ["seq", "seq_mem"] as const) {
      const seq = modes.get(mode);
      if (!seq) continue;
      const found = chainErrors(oracle, seq);
      errors.push(...found);
      breakdowns.push(chainErrorBreakdown(found, seq));
    }
  }
  return {
    version: REPORT_VERSION,
    bootstrap: { ...boot, level: CI_LEVEL },
    positions: resolved.positions,
    systems,
    chain_errors: errors.sort(compareChainErrors),
    chain_error_breakdowns: breakdowns,
  };
}

// ---------------------------------------------------------------- text tables

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
