/**
 * The bug-date window (SPEC §7): which chains a window [from, until] keeps. A
 * chain is inside when every one of its bugs' `date` (SPEC §1) falls inside,
 * compared by UTC day, both ends inclusive; a chain with a date that is not a
 * date is outside any window that sets a bound. Pure.
 */
import { z } from "zod";
import { scoreChainRecords, type ChainOutcome } from "./outcomes";
import type { ChainRecord, RunScores } from "./schemas";
import { resolveBootstrap } from "./bootstrap";
import { headlineRatesOf, type HeadlineRates } from "./rates";
import { scoreGroupValues, scoreOutcomeSets, type RunValues, type ScoreOptions } from "./score-run";

/** A UTC day, YYYY-MM-DD: a window's bound, a model's release or cutoff. */
export const daySchema = z.iso.date({ error: "expected a day, YYYY-MM-DD" });

/** A window on bug dates; either end may be open; one that ends before it starts keeps no chain. */
export const bugWindowSchema = z.object({ from: daySchema.optional(), until: daySchema.optional() });
export type BugWindow = z.infer<typeof bugWindowSchema>;

export const isWindowSet = (w: BugWindow | undefined): w is BugWindow => Boolean(w?.from || w?.until);

/** The UTC day of a bug's date (`2023-10-02T09:12:30Z`, `2023-10-02`, any Date.parse form), or null. */
export function bugDay(date: string): string | null {
  if (/^\d{4}-\d{2}-\d{2}$/.test(date)) return date;
  const t = Date.parse(date);
  return Number.isNaN(t) ? null : new Date(t).toISOString().slice(0, 10);
}

/** The day after `day` (YYYY-MM-DD): a window starting after a cutoff. */
export function dayAfter(d: string): string {
  const t = Date.parse(`${d}T00:00:00Z`);
  if (Number.isNaN(t)) throw new RangeError(`not a day: ${d}`);
  return new Date(t + 86_400_000).toISOString().slice(0, 10);
}

/** A chain's bug dates, in order. */
export type DatedChain = { continuous_id: string; dates: readonly string[] };

/** What a window keeps of a dataset version: the chains inside, and the counts a page shows. */
export type WindowKeeps = {
  inside: Set<string>;
  chains: number;
  bugs: number;
  /** the version's whole population, for "keeps 40 of 100 chains" */
  totalChains: number;
  totalBugs: number;
  /** chains outside only because a bug's date is not a date */
  undated: number;
};

export function chainsInWindow(chains: readonly DatedChain[], w: BugWindow): WindowKeeps {
  const inside = new Set<string>();
  let bugs = 0;
  let undated = 0;
  let totalBugs = 0;
  const set = isWindowSet(w);
  for (const c of chains) {
    totalBugs += c.dates.length;
    const days = set ? c.dates.map(bugDay) : [];
    if (days.includes(null)) {
      undated++;
      continue;
    }
    if (days.every((d) => (!w.from || (d as string) >= w.from) && (!w.until || (d as string) <= w.until))) {
      inside.add(c.continuous_id);
      bugs += c.dates.length;
    }
  }
  return { inside, chains: inside.size, bugs, totalChains: chains.length, totalBugs, undated };
}

/** Records by chain id, made once per list (a leaderboard rescores the same lists under many windows). */
const byIdCache = new WeakMap<readonly ChainRecord[], Map<string, ChainRecord>>();
function recordsById(records: readonly ChainRecord[]): Map<string, ChainRecord> {
  let m = byIdCache.get(records);
  if (!m) byIdCache.set(records, (m = new Map(records.map((r) => [r.continuous_id, r]))));
  return m;
}

/** The chains inside, in the version's order: worked out once per window, not once per run. */
const keptCache = new WeakMap<ReadonlySet<string>, { chains: readonly DatedChain[]; kept: DatedChain[] }>();
function keptChains(chains: readonly DatedChain[], inside: ReadonlySet<string>): DatedChain[] {
  const hit = keptCache.get(inside);
  if (hit && hit.chains === chains) return hit.kept;
  const kept = chains.filter((c) => inside.has(c.continuous_id));
  keptCache.set(inside, { chains, kept });
  return kept;
}

/** A row to score under a window: its name, and each of its runs' chain records (run 1..k; one for a single run). */
type WindowRun = { run: { system: string; mode: RunScores["mode"] }; runs: readonly (readonly ChainRecord[])[] };

/** A row's runs' outcomes on the kept chains, in the version's order; a chain a run has no record of counts as not graded. */
function keptOutcomes(chains: readonly DatedChain[], inside: ReadonlySet<string>, { run, runs }: WindowRun, opts: ScoreOptions): ChainOutcome[][] {
  const kept = keptChains(chains, inside);
  return runs.map((records) => {
    const byId = recordsById(records);
    const aligned = kept.map((c): ChainRecord => byId.get(c.continuous_id) ?? { continuous_id: c.continuous_id, bugs: c.dates.map(() => null), cost_usd: null, peak_context_tokens: null });
    return scoreChainRecords(aligned, opts.scoring ?? "strict", run.mode, opts.withoutTestEdits);
  });
}

/**
 * The scores of several rows of one dataset version over the chains a window
 * keeps (`inside`, non-empty), all at once (they share the bootstrap's resamples).
 */
export function scoreRunsInWindow(chains: readonly DatedChain[], inside: ReadonlySet<string>, rows: readonly WindowRun[], opts: ScoreOptions = {}): RunScores[] {
  return scoreOutcomeSets(
    rows.map((r) => ({ run: r.run, runs: keptOutcomes(chains, inside, r, opts) })),
    opts,
  );
}

/** Per-bug % and chain % with their intervals (and chain pass^k) over the chains a window keeps, for several rows at once: all a ranked table shows. */
export function headlinesInWindow(chains: readonly DatedChain[], inside: ReadonlySet<string>, rows: readonly WindowRun[], opts: ScoreOptions = {}): HeadlineRates[] {
  return headlineRatesOf(
    rows.map((r) => keptOutcomes(chains, inside, r, opts)),
    resolveBootstrap(opts),
  );
}

/** One row's values (no intervals) over the chains a window keeps: cheap, for every row of a leaderboard. */
export function valuesInWindow(chains: readonly DatedChain[], inside: ReadonlySet<string>, row: WindowRun, opts: ScoreOptions = {}): RunValues {
  return scoreGroupValues(keptOutcomes(chains, inside, row, opts), row.run, opts);
}

/**
 * Per chain a window keeps, in the version's order, the share of the row's runs
 * that solved it (every bug resolved under the scoring): its chain % is their
 * mean; what the held-out comparison resamples (SPEC §8).
 */
export function chainSolvedShares(chains: readonly DatedChain[], inside: ReadonlySet<string>, row: WindowRun, opts: ScoreOptions = {}): number[] {
  const runs = keptOutcomes(chains, inside, row, opts);
  return keptChains(chains, inside).map((_, i) => runs.reduce((n, r) => n + (r[i]!.resolved.every(Boolean) ? 1 : 0), 0) / runs.length);
}
