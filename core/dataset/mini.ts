/**
 * A version's Mini split (SPEC §8): a subset of its chains that keeps the
 * full board's order. Computed, never hand-picked, by one deterministic
 * procedure that the portal and `chainswe select --mini` share:
 *
 *   greedy forward selection. Start from no chain; while fewer than `size`
 *   chains are chosen, add the chain whose addition gives the highest Kendall
 *   τ-b between the rows' Mini chain % and their full chain %; ties go to the
 *   chain first in the version's order. An undefined τ (every row equal on one
 *   side) ranks below any defined one.
 *
 * A row is one published board row (system × mode), given as the share of its
 * runs that solved each chain under strict scoring (1 or 0 for a single run;
 * a row of k runs has chain % = the mean of its runs', SPEC §7). Pure, over plain data.
 */

/** One board row: per chain of the version, the share of its runs that solved it (absent = 0). */
export type MiniRow = { id: string; solved: ReadonlyMap<string, number> };

/** A row of one run: these chains solved. */
export const solvedOnce = (id: string, chains: Iterable<string>): MiniRow => miniRows([{ row: id, solved: chains }])[0]!;

/** Board rows from runs: the runs naming one row form it, each chain weighted by the share of them that solved it; rows in first-seen order. */
export function miniRows(runs: readonly { row: string; solved: Iterable<string> }[]): MiniRow[] {
  const byRow = new Map<string, Set<string>[]>();
  for (const r of runs) byRow.set(r.row, [...(byRow.get(r.row) ?? []), new Set(r.solved)]);
  return [...byRow].map(([id, sets]) => {
    const solved = new Map<string, number>();
    for (const set of sets) for (const c of set) solved.set(c, (solved.get(c) ?? 0) + 1 / sets.length);
    return { id, solved };
  });
}

/** Whether a chain record's every bug was resolved (strict scoring's chain success: 1 at every position). */
export const chainSolved = (bugs: readonly (0 | 1 | null)[]): boolean => bugs.length > 0 && bugs.every((b) => b === 1);

export type MiniSplit = {
  /** the chosen chains, in the version's order */
  chains: string[];
  size: number;
  /** τ-b between Mini and full chain % over the rows; null when undefined */
  tau: number | null;
  rows: number;
  /** the order the greedy procedure chose them in, with τ after each */
  steps: { chain: string; tau: number | null }[];
};

export const MINI_METHOD =
  "greedy forward selection maximising Kendall τ-b between Mini and full chain % (strict) over the published rows; ties to the chain first in the version's order";

/** Kendall's τ-b of two equal-length samples; null when either has no two different values. O(n²). */
export function kendallTauB(x: ArrayLike<number>, y: ArrayLike<number>): number | null {
  const n = x.length;
  if (y.length !== n) throw new RangeError(`kendallTauB: ${n} and ${y.length} values`);
  let concordant = 0;
  let discordant = 0;
  let tiedX = 0;
  let tiedY = 0;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const dx = Math.sign(x[i]! - x[j]!);
      const dy = Math.sign(y[i]! - y[j]!);
      if (dx === 0) tiedX++;
      if (dy === 0) tiedY++;
      if (dx !== 0 && dy !== 0) {
        if (dx === dy) concordant++;
        else discordant++;
      }
    }
  }
  const pairs = (n * (n - 1)) / 2;
  const denominator = Math.sqrt((pairs - tiedX) * (pairs - tiedY));
  return denominator === 0 ? null : (concordant - discordant) / denominator;
}

/** Why a Mini of this size cannot be drawn from these chains and rows; null when it can. */
export function miniProblem(chains: readonly string[], rows: readonly MiniRow[], size: number): string | null {
  if (!Number.isInteger(size) || size < 1) return `the Mini size must be a whole number of chains, at least 1 (got ${size})`;
  if (size > chains.length) return `the Mini size ${size} is larger than the version (${chains.length} chains)`;
  if (rows.length < 2) return `a Mini keeps the board's order, so it needs at least 2 published rows (there ${rows.length === 1 ? "is 1" : `are ${rows.length}`})`;
  return null;
}

/** The Mini split of `size` chains (SPEC §8); throws RangeError when miniProblem names one. */
export function miniSplit(chains: readonly string[], rows: readonly MiniRow[], size: number): MiniSplit {
  const problem = miniProblem(chains, rows, size);
  if (problem) throw new RangeError(problem);
  // solvedBy[c][r]: the share of row r's runs that solved chain c
  const solvedBy = chains.map((c) => Float64Array.from(rows, (r) => r.solved.get(c) ?? 0));
  const full = rows.map((_, r) => solvedBy.reduce((sum, col) => sum + col[r]!, 0) / chains.length);
  const counts = new Float64Array(rows.length);
  const trial = new Float64Array(rows.length);
  const chosen = new Set<number>();
  const steps: MiniSplit["steps"] = [];
  let tau: number | null = null;
  while (chosen.size < size) {
    let best = -1;
    let bestTau: number | null = null;
    for (let c = 0; c < chains.length; c++) {
      if (chosen.has(c)) continue;
      for (let r = 0; r < rows.length; r++) trial[r] = counts[r]! + solvedBy[c]![r]!;
      const t = kendallTauB(trial, full);
      if (best < 0 || (t !== null && (bestTau === null || t > bestTau))) {
        best = c;
        bestTau = t;
      }
    }
    chosen.add(best);
    for (let r = 0; r < rows.length; r++) counts[r]! += solvedBy[best]![r]!;
    tau = bestTau;
    steps.push({ chain: chains[best]!, tau });
  }
  return { chains: chains.filter((_, i) => chosen.has(i)), size, tau, rows: rows.length, steps };
}
