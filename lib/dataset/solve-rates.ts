/**
 * The dataset browser's solve rates, pure: which public submissions stand
 * for the public systems, and how often they solved each bug, each position
 * and each whole chain.
 *
 * Invariants:
 * - the population is the leaderboard's: one submission per public system ×
 *   mode, its newest completed public one; a system counts once per mode;
 * - a bug is solved when its own grade resolved it (lenient: whatever happened
 *   earlier in the chain), so a bug's difficulty is its own; a chain is solved
 *   when every bug is (the same under strict and lenient scoring);
 * - a submission attempts the chains it was evaluated on; a bug of such a chain
 *   with no result is unsolved (SPEC §4: missing = unresolved).
 */
import { type PositionSet } from "@/core/scoring";
import { MODES, type Mode } from "@/core/schemas/prediction";

/** Solved out of attempted; pct is null when nothing was attempted. */
export type SolveRate = { solved: number; attempts: number; pct: number | null };

/** A rate over every standing submission and per mode. */
export type RatesByMode = Record<"all" | Mode, SolveRate>;

export const RATE_KEYS = ["all", ...MODES] as const;

/** Standing submissions per mode: the population every rate is over. */
export type Population = Record<Mode, number>;

/** The rate columns worth showing: all, and each mode some standing submission is in (every one when none is). */
export function shownRateKeys(population: Population): (typeof RATE_KEYS)[number][] {
  const modes = MODES.filter((m) => population[m] > 0);
  return ["all", ...(modes.length ? modes : MODES)];
}

export type ChainShape = { continuousId: string; length: number };

export type Verdict = { continuousId: string; order: number; resolved: boolean };

/** One public completed submission with its own-grade verdicts. */
export type PublicOutcome = {
  submissionId: string;
  systemId: string;
  mode: Mode;
  finishedAt: Date | null;
  /** chains it was evaluated on */
  chains: readonly string[];
  verdicts: readonly Verdict[];
};

/** The newest public completed submission of each system × mode (ties: the larger id, as the leaderboard orders). */
export function standingSubmissions<T extends Pick<PublicOutcome, "submissionId" | "systemId" | "mode" | "finishedAt">>(subs: readonly T[]): T[] {
  const time = (s: T) => s.finishedAt?.getTime() ?? -Infinity;
  const sorted = [...subs].sort((a, b) => time(b) - time(a) || (a.submissionId < b.submissionId ? 1 : a.submissionId > b.submissionId ? -1 : 0));
  const seen = new Set<string>();
  return sorted.filter((s) => {
    const key = `${s.systemId}\0${s.mode}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

const emptyRates = (): RatesByMode => Object.fromEntries(RATE_KEYS.map((k) => [k, { solved: 0, attempts: 0, pct: null }])) as RatesByMode;

function tally(rates: RatesByMode, mode: Mode, solved: boolean): void {
  for (const key of ["all", mode] as const) {
    const r = rates[key];
    r.attempts += 1;
    if (solved) r.solved += 1;
    r.pct = (100 * r.solved) / r.attempts;
  }
}

/** Verdicts by chain, then order. */
function verdictIndex(o: PublicOutcome): Map<string, Map<number, boolean>> {
  const index = new Map<string, Map<number, boolean>>();
  for (const v of o.verdicts) {
    let chain = index.get(v.continuousId);
    if (!chain) index.set(v.continuousId, (chain = new Map()));
    chain.set(v.order, v.resolved);
  }
  return index;
}

/** Each attempt of a chain by a submission: its own-grade solved flags by position. */
function attempts(chains: readonly ChainShape[], outcomes: readonly PublicOutcome[]): { chain: ChainShape; mode: Mode; solved: boolean[] }[] {
  const out: { chain: ChainShape; mode: Mode; solved: boolean[] }[] = [];
  for (const o of outcomes) {
    const covered = new Set(o.chains);
    const index = verdictIndex(o);
    for (const chain of chains) {
      if (!covered.has(chain.continuousId)) continue;
      const verdicts = index.get(chain.continuousId);
      out.push({ chain, mode: o.mode, solved: Array.from({ length: chain.length }, (_, i) => verdicts?.get(i + 1) === true) });
    }
  }
  return out;
}

/** Per chain: each bug's solve rate, by position (index 0 = bug 1). */
export function bugSolveRates(chains: readonly ChainShape[], outcomes: readonly PublicOutcome[]): Map<string, RatesByMode[]> {
  const rates = new Map(chains.map((c) => [c.continuousId, Array.from({ length: c.length }, emptyRates)]));
  for (const a of attempts(chains, outcomes)) {
    a.solved.forEach((solved, i) => tally(rates.get(a.chain.continuousId)![i]!, a.mode, solved));
  }
  return rates;
}

/** Per chain: how often a standing submission solved every one of its bugs. */
export function chainSolveRates(chains: readonly ChainShape[], outcomes: readonly PublicOutcome[]): Map<string, RatesByMode> {
  const rates = new Map(chains.map((c) => [c.continuousId, emptyRates()]));
  for (const a of attempts(chains, outcomes)) tally(rates.get(a.chain.continuousId)!, a.mode, a.solved.every(Boolean));
  return rates;
}

export type PositionSolveRate = { position: number; chains: number; rates: RatesByMode };

/** Solve rate at each position over the chosen chains (the paper's length-3 chains, or all). */
export function positionSolveRates(chains: readonly ChainShape[], outcomes: readonly PublicOutcome[], positions: PositionSet): PositionSolveRate[] {
  const chosen = chains.filter((c) => positions === "all" || c.length === 3);
  const longest = Math.max(0, ...chosen.map((c) => c.length));
  const rows: PositionSolveRate[] = Array.from({ length: longest }, (_, i) => ({
    position: i + 1,
    chains: chosen.filter((c) => c.length > i).length,
    rates: emptyRates(),
  }));
  for (const a of attempts(chosen, outcomes)) a.solved.forEach((solved, i) => tally(rows[i]!.rates, a.mode, solved));
  return rows;
}

/** `62.5% (5/8)`; `—` when nothing was attempted. */
export function formatSolveRate(r: SolveRate): string {
  return r.pct === null ? "—" : `${r.pct.toFixed(1)}% (${r.solved}/${r.attempts})`;
}
