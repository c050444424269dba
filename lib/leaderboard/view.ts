/**
 * What the leaderboard page shows, derived from plain
 * data: the rows as the table prints them (the paper's reported rows too), why
 * a table is empty, and the page's whole view. Pure functions, no database and
 * nothing server-only: the page renders its first view on the server from
 * these. The view's URL state is lib/leaderboard/url.ts; which rows, in
 * which order, lib/leaderboard-rows.ts.
 */
import { costPerSolvedChain } from "@/core/scoring/score-run";
import { MODE_LABELS, formatCost, formatInterval, formatPercent, formatRelativeChange, formatTokens } from "@/core/scoring/format";
import type { Leaderboard, LeaderboardShownRow, LeaderboardValueRow } from "@/lib/leaderboard/data";
import { leaderboardHref, type LeaderboardView } from "@/lib/leaderboard/url";
import type { WindowSummary } from "@/lib/leaderboard/window";
import { dayAfter } from "@/core/scoring/window";
import { knowledgeCutoff } from "@/lib/teams/system-fields";
import { filterOptions, filterRows, finishedDay, limitGroups, rankRows, selectReportedRows, selectRows, systemColumns, type Rank, type RankableRow, type RowGroup } from "@/lib/leaderboard/rows";
import type { ReportedMainRow } from "@/lib/reference/paper";
import type { Mode } from "@/core/schemas/prediction";
import { submissionPageUrl } from "@/lib/submissions/urls";
import { SHORTCUT_LABELS } from "@/core/trajectory/shortcuts";

/** Rows the page shows before "show all" (the API always answers every row). */
export const PAGE_ROWS = 100;

// ---------------------------------------------------------------- as the table prints them

/** `title`: what a badge stands on (a rule breach's fields), for its tooltip */
export type Badge = { key: "open_weights" | "open_scaffold" | "reviewed" | "verified" | "rule_breach" | "test_edits" | "shortcuts" | "close_to_gold" | "held_out_gap"; label: string; title?: string };
/**
 * A rate as printed: `49.0`, its interval `[44.9, 53.1]` (null for reported
 * rows), `−29%` against Oracle (null for Oracle rows), and for a row of
 * repeated runs their spread, `runs 44.1–53.0` (else null).
 */
export type RateCell = { value: string; ci: string | null; vsOracle: string | null; spread?: string | null };

export type DisplayRow = {
  id: string;
  /** the row's place by per-bug % among the rows the filters keep, `=1` where tied; null for reported rows, never ranked */
  rank: { text: string; title: string } | null;
  /** the submission page, the way down to every bug's result; null for reported rows */
  href: string | null;
  model: string;
  system: string | null;
  team: string | null;
  scaffold: string | null;
  config: string;
  mode: Mode;
  perBug: RateCell;
  chain: RateCell;
  /** repeated runs (SPEC §7): how many, and chain pass^k; null for a single run or a reported row */
  runs: number | null;
  passK: RateCell | null;
  cost: string;
  /** what one solved chain costs; "—" without a cost or a solved chain */
  costPerSolved: string;
  peakContext: string;
  /** the evaluation's finishing day (UTC) */
  date: string | null;
  badges: Badge[];
  /** SPEC §8 the held-out chain % with its interval, and the gap to the public chain % (`−12.0 [−30.0, 5.0]`); null when the version holds none out, or for a reported row */
  heldOut: { value: string; ci: string; gap: string; flagged: boolean } | null;
  /** SPEC §4 rank tier among the rows of its mode, and what it rests on (its tooltip); null without a stored ranking or for a reported row */
  tier: { label: string; title: string } | null;
  /** the same view over only the bugs dated after the system's training cutoff (or release); null without one */
  afterCutoff: { href: string; day: string } | null;
};
export type DisplayGroup = { key: string | null; rows: DisplayRow[] };

const bugsText = (n: number) => `${n} bug${n === 1 ? "" : "s"}`;

const change = (rel: number | null) => (rel === null ? null : formatRelativeChange(rel));
/** An evaluated row's change: no change at all reads ±0%, not the paper's −0% (which its rounded figures print for a tie), so a tie is not shown as a loss. */
const evaluatedChange = (rel: number | null) => (rel === 0 ? "±0%" : change(rel));

const spreadText = (s: { min: number; max: number } | undefined) => (s ? `runs ${formatPercent(s.min)}–${formatPercent(s.max)}` : null);

/** A place as the rank column prints it: `=1` when shared. */
export function rankCell(rank: Rank | undefined): DisplayRow["rank"] {
  if (!rank) return null;
  return rank.tied
    ? { text: `=${rank.place}`, title: `Tied for place ${rank.place}: another row has the same per-bug %` }
    : { text: String(rank.place), title: `Place ${rank.place} by per-bug %` };
}

/** The facts a row's badges stand on: its system's openness and its trust (lib/leaderboard/trust.ts). */
export type BadgeFacts = Pick<LeaderboardShownRow, "reviewed" | "verified" | "testEdits" | "shortcuts" | "shortcutBugs" | "closeToGold" | "breaches"> & Partial<Pick<LeaderboardShownRow, "heldOut">> & {
  system: Pick<LeaderboardShownRow["system"], "openWeights" | "openScaffold">;
};

/** A row's badges as the leaderboard shows them (the review queue shows a waiting submission's the same way). */
export function rowBadges(r: BadgeFacts): Badge[] {
  const badges: Badge[] = [];
  if (r.system.openWeights) badges.push({ key: "open_weights", label: "open weights" });
  if (r.system.openScaffold) badges.push({ key: "open_scaffold", label: "open scaffold" });
  if (r.reviewed) badges.push({ key: "reviewed", label: "reviewed" });
  if (r.verified) badges.push({ key: "verified", label: "verified", title: "Enough reviewed runs for this dataset version's rules, and no rule broken" });
  if (r.testEdits.flagged && r.testEdits.bugs > 0) {
    badges.push({
      key: "test_edits",
      label: `edits tests: ${bugsText(r.testEdits.bugs)}`,
      title: `${bugsText(r.testEdits.bugs)} whose model patch edits test files, kept and flagged by this dataset version's test-edit policy`,
    });
  }
  if (r.shortcuts.length > 0) {
    badges.push({
      key: "shortcuts",
      label: `shortcut flags: ${bugsText(r.shortcutBugs)}`,
      title: `The shortcut scan flagged the trajectories of ${bugsText(r.shortcutBugs)} (a bug flagged for two kinds counts once):\n${r.shortcuts.map((f) => `run ${f.run}: ${SHORTCUT_LABELS[f.kind]}, ${bugsText(f.bugs)}`).join("\n")}`,
    });
  }
  if (r.closeToGold.bugs > 0) {
    const { bugs, of, threshold } = r.closeToGold;
    badges.push({
      key: "close_to_gold",
      label: `close to gold ${formatPercent((bugs / of) * 100)}%`,
      title: `${bugs} of ${of} graded bug${of === 1 ? "" : "s"} have a model patch at least ${threshold} similar to the gold patch (SPEC §7): a flag for reviewers, not a verdict`,
    });
  }
  if (r.heldOut?.flagged) {
    badges.push({ key: "held_out_gap", label: "held-out gap", title: heldOutGapText(r.heldOut) });
  }
  if (r.breaches.length > 0) {
    badges.push({ key: "rule_breach", label: "rule breach", title: r.breaches.map((b) => `run ${b.run}: ${b.field}: ${b.message}`).join("\n") });
  }
  return badges;
}

export function displayRow(r: LeaderboardShownRow, q?: LeaderboardView, rank?: Rank): DisplayRow {
  return {
    id: r.submissionId,
    rank: rankCell(rank),
    href: submissionPageUrl(r.submissionId),
    ...systemColumns(r),
    perBug: { value: formatPercent(r.perBug.value), ci: formatInterval(r.perBug.ci), vsOracle: evaluatedChange(r.vsOracle.perBug), spread: spreadText(r.runs?.perBug) },
    chain: { value: formatPercent(r.chain.value), ci: formatInterval(r.chain.ci), vsOracle: evaluatedChange(r.vsOracle.chain), spread: spreadText(r.runs?.chain) },
    runs: r.runs?.k ?? null,
    passK: r.runs ? { value: formatPercent(r.runs.passK.value), ci: formatInterval(r.runs.passK.ci), vsOracle: null } : null,
    cost: formatCost(r.costPerChain),
    costPerSolved: formatCost(r.costPerSolvedChain),
    peakContext: formatTokens(r.peakContext),
    date: finishedDay(r.finishedAt),
    badges: rowBadges(r),
    heldOut: r.heldOut && { value: formatPercent(r.heldOut.chain.value), ci: formatInterval(r.heldOut.chain.ci), gap: `gap ${signed(r.heldOut.gap.value)} ${formatInterval(r.heldOut.gap.ci)}`, flagged: r.heldOut.flagged },
    tier: tierCell(r),
    afterCutoff: afterCutoffLink(r, q),
  };
}

const signed = (x: number) => `${x > 0 ? "+" : x < 0 ? "−" : "±"}${formatPercent(Math.abs(x))}`;

/** Why a row's held-out gap is flagged, in one sentence (its badge's text). */
function heldOutGapText(h: NonNullable<LeaderboardShownRow["heldOut"]>): string {
  return `Public chain % minus held-out chain % (${h.chains} held-out chain${h.chains === 1 ? "" : "s"}) is ${signed(h.gap.value)} points, 95% interval ${formatInterval(h.gap.ci)}, which excludes 0: a possible overfitting signal (SPEC §8)`;
}

const pText = (p: number) => (p < 0.001 ? "< 0.001" : p.toFixed(3));

/** A row's tier as printed, with its rank stability, the test against the row above and the one that placed it in its tier on hover. */
export function tierCell(r: Pick<LeaderboardShownRow, "tier" | "mode" | "submissionId">): DisplayRow["tier"] {
  if (!r.tier) return null;
  const t = r.tier;
  const above =
    t.p_vs_above === null || t.p_vs_above_holm === null
      ? `The first ${MODE_LABELS[r.mode]} row.`
      : `Against the ${MODE_LABELS[r.mode]} row above: p = ${pText(t.p_vs_above)} (Holm-corrected ${pText(t.p_vs_above_holm)}).`;
  // a ranking stored before tiers had leaders has no such test
  const placed =
    t.p_vs_tier_leader === null || t.p_vs_tier_leader_adjusted === null
      ? ""
      : t.tier_leader === r.submissionId
        ? ` Leads its tier: against the leader of the tier above, p = ${pText(t.p_vs_tier_leader)} (Holm-corrected ${pText(t.p_vs_tier_leader_adjusted)}).`
        : ` Against its tier's leader (its first row): p = ${pText(t.p_vs_tier_leader)} (Holm-corrected ${pText(t.p_vs_tier_leader_adjusted)}).`;
  return { label: String(t.tier), title: `Tier ${t.tier} of the ${MODE_LABELS[r.mode]} rows. ${above}${placed} Keeps its rank in ${Math.round(t.rank_stability * 100)}% of resamples of chains.` };
}

/** One click to the view over the bugs dated after this row's system's cutoff (SPEC §7), keeping every other choice. */
function afterCutoffLink(r: LeaderboardShownRow, q: LeaderboardView | undefined): DisplayRow["afterCutoff"] {
  const cutoff = knowledgeCutoff(r.system);
  if (!q || !cutoff) return null;
  return { day: cutoff, href: leaderboardHref(q, { bug_from: dayAfter(cutoff), bug_until: undefined, all: false }) };
}

export function displayReportedRow(r: ReportedMainRow): DisplayRow {
  return {
    id: `paper:${r.model}:${r.config}:${r.mode}`,
    rank: null,
    href: null,
    model: r.model,
    system: null,
    team: null,
    scaffold: "SWE-Edit",
    config: r.config,
    mode: r.mode,
    perBug: { value: formatPercent(r.perBug), ci: null, vsOracle: change(r.vsOracle.perBug) },
    chain: { value: formatPercent(r.chain), ci: null, vsOracle: change(r.vsOracle.chain) },
    runs: null,
    passK: null,
    cost: formatCost(r.costPerChain),
    costPerSolved: formatCost(costPerSolvedChain({ cost_per_chain: r.costPerChain, chain: r.chain })),
    peakContext: formatTokens(null),
    date: null,
    badges: [],
    heldOut: null,
    tier: null,
    afterCutoff: null,
  };
}

// ---------------------------------------------------------------- controls and empty states

/** The filters in force, in words ("mode Seq", "open weights only"). */
export function describeFilters(q: LeaderboardView): string[] {
  const open = (what: string, v: boolean | undefined) => (v === undefined ? [] : [`${what} ${v ? "open" : "closed"}`]);
  return [
    ...(q.mode ? [`mode ${MODE_LABELS[q.mode]}`] : []),
    ...(q.config ? [`configuration ${q.config}`] : []),
    ...(q.model ? [`model ${q.model}`] : []),
    ...open("weights", q.open_weights),
    ...open("scaffold", q.open_scaffold),
    ...(q.from ? [`finished on or after ${q.from}`] : []),
    ...(q.to ? [`finished on or before ${q.to}`] : []),
    ...(q.test_edits === "without" ? ["without test-editing patches"] : []),
  ];
}

/** Why the evaluated table is empty (empty states say why), or null when it is not. */
export function emptyReason(
  board: { version: string | null; versions: readonly string[]; rows: readonly unknown[]; window?: WindowSummary | null },
  shown: number,
  q: LeaderboardView,
): string | null {
  if (shown > 0) return null;
  if (board.versions.length === 0) return "No dataset has been imported yet, so there is nothing to rank.";
  if (!board.version || !board.versions.includes(board.version)) return `There is no dataset version ${board.version ?? ""}; pick one of ${board.versions.join(", ")}.`;
  if (board.window && board.window.chains === 0) return "The bug-date window keeps no chain of this version, so there is nothing to score: widen it or clear it.";
  if (board.rows.length === 0) {
    return `No public evaluated submission on dataset ${board.version} yet: results appear here once a team publishes them and a reviewer approves.`;
  }
  return `No row matches these filters (${describeFilters(q).join("; ")}): ${board.rows.length} public row(s) on dataset ${board.version} are filtered out.`;
}

/** What strict and lenient mean, in one line next to their toggle. */
export const SCORING_EXPLANATION =
  "Strict (as the paper's Table 2): a Seq or Seq+Mem bug counts only if every earlier bug of its chain was resolved too; lenient: each bug counts on its own. Oracle rows are the same under both.";

// ---------------------------------------------------------------- the page, whole

export type LeaderboardPageView = {
  /** the state with the version shown pinned, so every link made from it keeps showing that version */
  query: LeaderboardView;
  groups: DisplayGroup[];
  /** evaluated rows shown / matching the filters */
  shown: number;
  total: number;
  empty: string | null;
  filtered: boolean;
  reported: DisplayGroup[];
  reportedHidden: string | null;
  options: { configs: string[]; models: string[] };
};

const toDisplay = <R>(groups: RowGroup<R>[], f: (r: R) => DisplayRow): DisplayGroup[] => groups.map((g) => ({ key: g.key, rows: g.rows.map(f) }));

/** The rows the page shows for a view, in its groups: the only ones it needs complete with their intervals. */
export function shownRows<R extends RankableRow>(rows: readonly R[], q: LeaderboardView): { groups: RowGroup<R>[]; shown: number; total: number } {
  return limitGroups(selectRows(rows, q), q.all ? null : PAGE_ROWS);
}

/**
 * Everything the leaderboard page renders, from the version's rows (values are
 * enough to pick them), those rows it shows complete (`complete`, by submission),
 * the state and the paper's rows.
 */
export function leaderboardPageView(
  board: Pick<Leaderboard, "version" | "versions"> & { rows: readonly LeaderboardValueRow[]; window?: WindowSummary | null },
  complete: ReadonlyMap<string, LeaderboardShownRow>,
  q: LeaderboardView,
  paper: readonly ReportedMainRow[],
): LeaderboardPageView {
  const query: LeaderboardView = { ...q, version: board.version ?? q.version };
  const page = shownRows(board.rows, query);
  const reported = selectReportedRows(paper, query);
  const ranks = rankRows(filterRows(board.rows, query));
  const full = (r: LeaderboardValueRow) => {
    const row = complete.get(r.submissionId);
    if (!row) throw new RangeError(`row ${r.submissionId} is shown but was not completed`);
    return displayRow(row, query, ranks.get(r.submissionId));
  };
  return {
    query,
    groups: toDisplay(page.groups, full),
    shown: page.shown,
    total: page.total,
    empty: emptyReason(board, page.total, query),
    filtered: describeFilters(query).length > 0,
    reported: toDisplay(reported.rows, displayReportedRow),
    reportedHidden: reported.hiddenBecause,
    options: filterOptions(board.rows, query.paper ? paper : []),
  };
}
