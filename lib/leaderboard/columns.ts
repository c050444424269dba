/**
 * The leaderboard's columns: which a reader always sees (rank, model, mode and
 * the two rates), which are shown until the reader hides them, and which wait
 * to be chosen; the choice is held in the URL (`cols`), so a copied link shows
 * the same columns. On a phone the table keeps the always-shown ones only
 * (app/globals.css). Pure and client-safe.
 */
import { z } from "zod";

/** Every column but the ones always shown, in the table's order. */
export const CHOOSABLE_COLUMNS = ["scaffold", "config", "held_out", "pass_k", "runs", "cost", "cost_per_solved", "peak_context", "date", "badges"] as const;
export type ChoosableColumn = (typeof CHOOSABLE_COLUMNS)[number];

export const COLUMN_NAMES: Record<ChoosableColumn, string> = {
  scaffold: "Scaffold",
  config: "Configuration",
  held_out: "Held-out chain %",
  pass_k: "Chain pass^k",
  runs: "Runs",
  cost: "Cost / chain",
  cost_per_solved: "Cost / solved chain",
  peak_context: "Peak context",
  date: "Date",
  badges: "Badges",
};

/** What each column holds, in one line: its header's title, and the page's list of them (which a touch reader can open). */
export const COLUMN_HELP = {
  rank: "Place by per-bug % among the rows these filters keep; =1 where rows tie (equal per-bug %)",
  model: "The system's model; below it, the system (a link to its submission) and its team",
  scaffold: "The agent scaffold that ran the model",
  config: "Context configuration (e.g. Baseline, Summarize, Sub-Agent)",
  mode: "Oracle: every bug starts from the gold state; Seq: from the agent's own earlier patches; Seq+Mem: Seq with notes carried between bugs",
  per_bug: "Resolved bugs / all bugs, with the 95% bootstrap interval over chains and the change against the same system's Oracle; for repeated runs, the mean over them and their spread",
  chain: "Chains with every bug resolved / all chains (the public chains, where the version holds some out)",
  held_out:
    "The chain % over the version's held-out chains (SPEC §8), one aggregate with its 95% bootstrap interval, and below it the gap to the public chain % with its interval; flagged when that interval excludes 0 (a possible overfitting signal)",
  pass_k: "For a row of k repeated runs: chains solved in every one of its runs / all chains, with its interval (chains resampled with all their runs)",
  runs: "Runs of the same system and mode averaged in this row; its rates are their means, with their spread (min–max) below",
  cost: "Mean over chains of the summed per-bug cost (USD)",
  cost_per_solved: "What one solved chain costs: cost per chain / chain solve rate (USD)",
  peak_context: "Mean over chains of the largest per-bug peak context (tokens)",
  date: "When the evaluation finished (UTC)",
  badges: "Open weights or scaffold, reviewed, verified (enough reviewed runs, no rule broken), rule breach, test-editing patches and shortcut flags, each with how many bugs it counts, and a held-out gap",
} as const;

/** What a reader needs first, on one 1400 px screen beside the always-shown columns. */
export const DEFAULT_COLUMNS: readonly ChoosableColumn[] = ["config", "cost", "peak_context", "date", "badges"];

/** The columns shown whatever is chosen, and the only ones on a phone. */
export const ALWAYS_SHOWN = ["rank", "model", "mode", "per_bug", "chain"] as const;

/** `cols` as the URL writes it: the chosen columns, comma-separated, in the table's order; "none" for none. */
export const columnsParamSchema = z
  .string()
  .trim()
  .transform((s, ctx) => {
    const asked = s === "none" ? [] : s.split(",").map((c) => c.trim());
    const unknown = asked.filter((c) => !(CHOOSABLE_COLUMNS as readonly string[]).includes(c));
    if (unknown.length > 0) {
      ctx.addIssue({ code: "custom", message: `no column ${unknown.join(", ")} (one of ${CHOOSABLE_COLUMNS.join(", ")})` });
      return z.NEVER;
    }
    return columnsParam(asked as ChoosableColumn[]);
  });

/** The canonical `cols` for a set of columns: undefined for the default set, so equal views have equal URLs. */
export function columnsParam(cols: readonly ChoosableColumn[]): string | undefined {
  const ordered = CHOOSABLE_COLUMNS.filter((c) => cols.includes(c));
  if (ordered.length === DEFAULT_COLUMNS.length && ordered.every((c) => DEFAULT_COLUMNS.includes(c))) return undefined;
  return ordered.length === 0 ? "none" : ordered.join(",");
}

/** The columns a `cols` value shows. */
export function shownColumns(cols: string | undefined): ChoosableColumn[] {
  if (cols === undefined) return [...DEFAULT_COLUMNS];
  if (cols === "none") return [];
  return CHOOSABLE_COLUMNS.filter((c) => cols.split(",").includes(c));
}

/** `cols` with one column shown or hidden. */
export function toggledColumns(cols: string | undefined, column: ChoosableColumn): string | undefined {
  const shown = shownColumns(cols);
  return columnsParam(shown.includes(column) ? shown.filter((c) => c !== column) : [...shown, column]);
}
