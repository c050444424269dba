/**
 * The leaderboard as data: the same rows as the page's view,
 * with raw numbers (rates in percent, relative changes as fractions, −0.29 for
 * −29%), as JSON objects or CSV lines. One column list serves both CSV kinds of
 * row: evaluated rows and, when asked, the paper's reported ones (marked
 * `kind`, and never mixed into the evaluated rows' order).
 */
import type { Estimate } from "@/core/scoring";
import type { CsvColumn } from "@/lib/export/csv";
import type { Leaderboard, LeaderboardRow } from "@/lib/leaderboard/data";
import type { LeaderboardApiQuery } from "@/lib/leaderboard/url";
import { systemColumns } from "@/lib/leaderboard/rows";
import { PAPER_SOURCE, REPORTED_LABEL, type ReportedMainRow } from "@/lib/reference/paper";
import { submissionPageUrl } from "@/lib/submissions/urls";
import type { ShortcutKind } from "@/core/trajectory/shortcuts";
import type { Effort } from "@/core/scoring/schemas";

export type ApiRow = {
  submission_id: string;
  /** the submission's page on this site */
  url: string;
  model: string;
  system: string;
  team: string;
  scaffold: string;
  config: string;
  mode: LeaderboardRow["mode"];
  per_bug: Estimate;
  chain: Estimate;
  vs_oracle: { per_bug: number | null; chain: number | null };
  cost_per_chain: number | null;
  /** per figure (input_tokens, output_tokens, steps, wall_seconds), the mean over chains of the chain's sum; null from scores of an older release */
  effort_per_chain: Effort | null;
  /** what one solved chain costs: cost_per_chain / (chain % / 100); null without a cost or a solved chain */
  cost_per_solved_chain: number | null;
  peak_context_tokens: number | null;
  per_position: LeaderboardRow["perPosition"];
  counts: { chains: number; bugs: number; resolved: number; chains_resolved: number };
  finished_at: string | null;
  open_weights: boolean;
  open_scaffold: boolean;
  reviewed: boolean;
  /** a row of k ≥ 2 repeated runs (SPEC §7): its rates are means over them; null for a single run */
  runs: {
    k: number;
    submission_ids: string[];
    per_bug: { min: number; max: number };
    chain: { min: number; max: number };
    pass_k: Estimate;
    per_position: { position: number; min: number; max: number }[];
    by_run: { per_bug: number; chain: number }[];
  } | null;
  /** enough reviewed runs and no rule broken, by the dataset version's rules */
  verified: boolean;
  /** SPEC §7: bugs whose model patch edits tests (summed over runs), and whether the policy flags them */
  test_edit_bugs: number;
  test_edits_flagged: boolean;
  /** the version's rules the runs' manifests broke (flagged on upload) */
  rule_breaches: { run: number; field: string; rule: string; message: string }[];
  /** the shortcut scan's flags on the runs' trajectories: per run and kind, the bugs hit */
  shortcut_flags: { run: number; kind: ShortcutKind; bugs: number }[];
  /** the grader version(s) its scores came from (SPEC §6); null from an older release */
  grader_version: string | null;
  /** SPEC §7 close to gold: graded bugs whose patch is at least the version's threshold similar to gold, and their share of the graded bugs with a similarity (null with none) */
  close_to_gold_bugs: number;
  close_to_gold_share: number | null;
  /** SPEC §8 held-out split: the row's chain % over the held-out chains (one aggregate) with its interval, the gap public − held-out with its interval, flagged when that interval excludes 0; null when the version holds no chain out */
  held_out: { chains: number; chain: Estimate; gap: Estimate; flagged: boolean } | null;
  /** SPEC §4 rank tiers among the rows of its mode: null under a bug-date window, without test edits, or before the version's ranking is refreshed */
  tier: number | null;
  /** the exact sign test over chains against the row above, raw and Holm-corrected; null for a mode's first row */
  p_vs_above: number | null;
  p_vs_above_holm: number | null;
  /** its tier's leader (the submission of the tier's first row) and the sign test that placed it, raw and Holm-corrected (in ranking order): against that leader, or for a leader against the tier above's; null for a mode's first row */
  tier_leader: string | null;
  p_vs_tier_leader: number | null;
  p_vs_tier_leader_adjusted: number | null;
  /** share of resamples of chains in which the row keeps its rank */
  rank_stability: number | null;
};

export type ApiReportedRow = {
  source: string;
  note: string;
  model: string;
  config: string;
  mode: ReportedMainRow["mode"];
  per_bug: number;
  chain: number;
  vs_oracle: { per_bug: number | null; chain: number | null };
  cost_per_chain: number;
};

export function apiRow(r: LeaderboardRow): ApiRow {
  return {
    submission_id: r.submissionId,
    url: submissionPageUrl(r.submissionId),
    ...systemColumns(r),
    per_bug: r.perBug,
    chain: r.chain,
    vs_oracle: { per_bug: r.vsOracle.perBug, chain: r.vsOracle.chain },
    cost_per_chain: r.costPerChain,
    cost_per_solved_chain: r.costPerSolvedChain,
    effort_per_chain: r.effortPerChain,
    peak_context_tokens: r.peakContext,
    per_position: r.perPosition,
    counts: { chains: r.counts.chains, bugs: r.counts.bugs, resolved: r.counts.resolved, chains_resolved: r.counts.chainsResolved },
    finished_at: r.finishedAt?.toISOString() ?? null,
    grader_version: r.graderVersion,
    open_weights: r.system.openWeights,
    open_scaffold: r.system.openScaffold,
    reviewed: r.reviewed,
    runs: r.runs && {
      k: r.runs.k,
      submission_ids: r.runs.submissionIds,
      per_bug: r.runs.perBug,
      chain: r.runs.chain,
      pass_k: r.runs.passK,
      per_position: r.runs.perPosition,
      by_run: r.runs.byRun.map((x) => ({ per_bug: x.perBug, chain: x.chain })),
    },
    verified: r.verified,
    test_edit_bugs: r.testEdits.bugs,
    test_edits_flagged: r.testEdits.flagged,
    rule_breaches: r.breaches.map((b) => ({ run: b.run, field: b.field, rule: b.rule, message: b.message })),
    shortcut_flags: r.shortcuts,
    close_to_gold_bugs: r.closeToGold.bugs,
    close_to_gold_share: r.closeToGold.of > 0 ? r.closeToGold.bugs / r.closeToGold.of : null,
    held_out: r.heldOut,
    tier: r.tier?.tier ?? null,
    p_vs_above: r.tier?.p_vs_above ?? null,
    p_vs_above_holm: r.tier?.p_vs_above_holm ?? null,
    tier_leader: r.tier?.tier_leader ?? null,
    p_vs_tier_leader: r.tier?.p_vs_tier_leader ?? null,
    p_vs_tier_leader_adjusted: r.tier?.p_vs_tier_leader_adjusted ?? null,
    rank_stability: r.tier?.rank_stability ?? null,
  };
}

export function apiReportedRow(r: ReportedMainRow): ApiReportedRow {
  return {
    source: `${PAPER_SOURCE}, Table 2`,
    note: REPORTED_LABEL,
    model: r.model,
    config: r.config,
    mode: r.mode,
    per_bug: r.perBug,
    chain: r.chain,
    vs_oracle: { per_bug: r.vsOracle.perBug, chain: r.vsOracle.chain },
    cost_per_chain: r.costPerChain,
  };
}

/** The JSON document: the view's state, its rows in order, and the paper's rows apart. */
export function leaderboardDocument(board: Leaderboard, query: LeaderboardApiQuery, rows: LeaderboardRow[], reported: ReportedMainRow[], reportedHidden: string | null) {
  const { format: _format, all: _all, ...state } = query;
  return {
    version: board.version,
    versions: board.versions,
    scoring: board.scoring,
    /** the day an archived board stands as of (SPEC §6); null for today's */
    as_of: board.asOf,
    /** the full version's rows, or its Mini split's (SPEC §8) */
    split: board.split,
    query: state,
    /** what the bug-date window keeps (SPEC §7); null when none is set */
    window: board.window,
    count: rows.length,
    rows: rows.map(apiRow),
    ...(query.paper ? { reported: reported.map(apiReportedRow), reported_hidden: reportedHidden } : {}),
  };
}

type Line = { kind: "evaluated"; row: ApiRow } | { kind: "reported"; row: ApiReportedRow };
const evaluated = (l: Line) => (l.kind === "evaluated" ? l.row : null);
/** CSV cells: floats without binary noise (2.0466, not 2.0465999999999998), booleans as words */
const num = (x: number | null | undefined) => (x === null || x === undefined ? null : Math.round(x * 1e4) / 1e4);
/** p-values keep their small magnitudes: six significant digits */
const pValue = (x: number | null | undefined) => (x === null || x === undefined ? null : Number(x.toPrecision(6)));
const bool = (x: boolean | undefined) => (x === undefined ? null : String(x));

export const CSV_COLUMNS: CsvColumn<Line>[] = [
  { label: "kind", value: (l) => (l.kind === "evaluated" ? "evaluated" : REPORTED_LABEL) },
  { label: "model", value: (l) => l.row.model },
  { label: "system", value: (l) => evaluated(l)?.system },
  { label: "team", value: (l) => evaluated(l)?.team },
  { label: "scaffold", value: (l) => evaluated(l)?.scaffold },
  { label: "config", value: (l) => l.row.config },
  { label: "mode", value: (l) => l.row.mode },
  { label: "per_bug_pct", value: (l) => num(l.kind === "evaluated" ? l.row.per_bug.value : l.row.per_bug) },
  { label: "per_bug_ci_low", value: (l) => num(evaluated(l)?.per_bug.ci[0]) },
  { label: "per_bug_ci_high", value: (l) => num(evaluated(l)?.per_bug.ci[1]) },
  { label: "per_bug_vs_oracle", value: (l) => num(l.row.vs_oracle.per_bug) },
  { label: "chain_pct", value: (l) => num(l.kind === "evaluated" ? l.row.chain.value : l.row.chain) },
  { label: "chain_ci_low", value: (l) => num(evaluated(l)?.chain.ci[0]) },
  { label: "chain_ci_high", value: (l) => num(evaluated(l)?.chain.ci[1]) },
  { label: "chain_vs_oracle", value: (l) => num(l.row.vs_oracle.chain) },
  // repeated runs (SPEC §7): empty for a single run
  { label: "runs", value: (l) => (l.kind === "evaluated" ? (l.row.runs?.k ?? 1) : null) },
  { label: "per_bug_min", value: (l) => num(evaluated(l)?.runs?.per_bug.min) },
  { label: "per_bug_max", value: (l) => num(evaluated(l)?.runs?.per_bug.max) },
  { label: "chain_min", value: (l) => num(evaluated(l)?.runs?.chain.min) },
  { label: "chain_max", value: (l) => num(evaluated(l)?.runs?.chain.max) },
  { label: "chain_pass_k_pct", value: (l) => num(evaluated(l)?.runs?.pass_k.value) },
  { label: "chain_pass_k_ci_low", value: (l) => num(evaluated(l)?.runs?.pass_k.ci[0]) },
  { label: "chain_pass_k_ci_high", value: (l) => num(evaluated(l)?.runs?.pass_k.ci[1]) },
  { label: "cost_per_chain_usd", value: (l) => num(l.row.cost_per_chain) },
  { label: "cost_per_solved_chain_usd", value: (l) => num(evaluated(l)?.cost_per_solved_chain) },
  { label: "peak_context_tokens", value: (l) => num(evaluated(l)?.peak_context_tokens) },
  { label: "input_tokens_per_chain", value: (l) => num(evaluated(l)?.effort_per_chain?.input_tokens) },
  { label: "output_tokens_per_chain", value: (l) => num(evaluated(l)?.effort_per_chain?.output_tokens) },
  { label: "steps_per_chain", value: (l) => num(evaluated(l)?.effort_per_chain?.steps) },
  { label: "wall_seconds_per_chain", value: (l) => num(evaluated(l)?.effort_per_chain?.wall_seconds) },
  { label: "finished_at", value: (l) => evaluated(l)?.finished_at },
  { label: "grader_version", value: (l) => evaluated(l)?.grader_version },
  { label: "open_weights", value: (l) => bool(evaluated(l)?.open_weights) },
  { label: "open_scaffold", value: (l) => bool(evaluated(l)?.open_scaffold) },
  { label: "reviewed", value: (l) => bool(evaluated(l)?.reviewed) },
  { label: "verified", value: (l) => bool(evaluated(l)?.verified) },
  { label: "test_edit_bugs", value: (l) => evaluated(l)?.test_edit_bugs },
  { label: "rule_breaches", value: (l) => evaluated(l)?.rule_breaches.map((b) => `run ${b.run}: ${b.field}`).join("; ") },
  { label: "shortcut_flags", value: (l) => evaluated(l)?.shortcut_flags.map((f) => `run ${f.run}: ${f.kind} (${f.bugs} bugs)`).join("; ") },
  { label: "close_to_gold_bugs", value: (l) => evaluated(l)?.close_to_gold_bugs },
  { label: "close_to_gold_share", value: (l) => num(evaluated(l)?.close_to_gold_share) },
  // SPEC §8 held-out split, empty when the version holds no chain out
  { label: "held_out_chains", value: (l) => evaluated(l)?.held_out?.chains },
  { label: "held_out_chain_pct", value: (l) => num(evaluated(l)?.held_out?.chain.value) },
  { label: "held_out_chain_ci_low", value: (l) => num(evaluated(l)?.held_out?.chain.ci[0]) },
  { label: "held_out_chain_ci_high", value: (l) => num(evaluated(l)?.held_out?.chain.ci[1]) },
  { label: "held_out_gap", value: (l) => num(evaluated(l)?.held_out?.gap.value) },
  { label: "held_out_gap_ci_low", value: (l) => num(evaluated(l)?.held_out?.gap.ci[0]) },
  { label: "held_out_gap_ci_high", value: (l) => num(evaluated(l)?.held_out?.gap.ci[1]) },
  { label: "held_out_gap_flagged", value: (l) => bool(evaluated(l)?.held_out?.flagged) },
  // SPEC §4 rank tiers, empty when the view has none
  { label: "tier", value: (l) => evaluated(l)?.tier },
  { label: "p_vs_above", value: (l) => pValue(evaluated(l)?.p_vs_above) },
  { label: "p_vs_above_holm", value: (l) => pValue(evaluated(l)?.p_vs_above_holm) },
  { label: "rank_stability", value: (l) => num(evaluated(l)?.rank_stability) },
  // the population each row is scored over: the version's chains, or those a bug-date window keeps
  { label: "chains", value: (l) => evaluated(l)?.counts.chains },
  { label: "bugs", value: (l) => evaluated(l)?.counts.bugs },
  { label: "submission_id", value: (l) => evaluated(l)?.submission_id },
  // SPEC §4 the tier's leader and the test that placed the row (last, so earlier columns keep their places)
  { label: "tier_leader", value: (l) => evaluated(l)?.tier_leader },
  { label: "p_vs_tier_leader", value: (l) => pValue(evaluated(l)?.p_vs_tier_leader) },
  { label: "p_vs_tier_leader_adjusted", value: (l) => pValue(evaluated(l)?.p_vs_tier_leader_adjusted) },
];

export function csvLines(rows: LeaderboardRow[], reported: ReportedMainRow[]): Line[] {
  return [...rows.map((r) => ({ kind: "evaluated" as const, row: apiRow(r) })), ...reported.map((r) => ({ kind: "reported" as const, row: apiReportedRow(r) }))];
}
