/**
 * Chains that still discriminate (SPEC §4): per chain and per bug, over the
 * rows of one ranking (one mode of one version under one scoring, in the
 * board's order), how often the rows solve it, how well it separates strong
 * rows from weak ones, and how hard it is.
 *
 * - solve rate: the mean over rows of the item's outcome (a bug resolved, a
 *   chain solved whole; a row of repeated runs counts its mean over runs);
 * - point-biserial: the item's outcomes against the rows' overall chain %
 *   (core/statistics/correlation.ts); null when either has no variance;
 * - difficulty: a Rasch model fitted by joint MAP (core/statistics/rasch.ts),
 *   once to the rows × bugs matrix of resolved bugs, once to the rows × chains
 *   matrix of solved chains: a chain's difficulty is its own item's in the
 *   second fit, on the same scale as the bugs' (the same prior pins both);
 * - flags: solved by all (every row's outcome 1), solved by none (every row's
 *   0), and "does not separate the top N": among the first N rows of the
 *   ranking (all of them when fewer) all solved it or none did.
 */
import { fitRasch, pointBiserial, type RaschFit, type RaschOptions } from "@/core/statistics";

export const TOP_N = 10;

/** One row of a ranking, best first: per chain (the version's order), each bug's outcome in [0, 1], and whether it solved the chain. */
export type DiscriminationRow = { id: string; bugs: readonly ArrayLike<number>[]; solved: ArrayLike<number> };
export type DiscriminationChain = { continuous_id: string; length: number };

export type ItemFigures = {
  solve_rate: number;
  point_biserial: number | null;
  difficulty: number;
  solved_by_all: boolean;
  solved_by_none: boolean;
  /** false: among the top N rows all solved it or none did */
  separates_top: boolean;
};
export type ChainFigures = ItemFigures & { continuous_id: string };
export type BugFigures = ItemFigures & { continuous_id: string; order: number };
export type FitSummary = Pick<RaschFit, "iterations" | "converged" | "max_gradient" | "log_posterior"> & { rows: number; items: number };

export type Discrimination = {
  rows: number;
  top_n: number;
  chains: ChainFigures[];
  bugs: BugFigures[];
  fit: { bugs: FitSummary; chains: FitSummary };
};

const EPSILON = 1e-9;

/** The figures of every item, columns of y (rows × items, row-major). */
function itemFigures(y: Float64Array, rows: number, items: number, chainPct: Float64Array, topN: number, opts: Partial<RaschOptions>): { figures: ItemFigures[]; fit: FitSummary } {
  const fit = fitRasch(y, rows, items, opts);
  const top = Math.min(topN, rows);
  const column = new Float64Array(rows);
  const figures = Array.from({ length: items }, (_, i) => {
    let sum = 0;
    let all = true;
    let none = true;
    let topAll = true;
    let topNone = true;
    for (let r = 0; r < rows; r++) {
      const v = y[r * items + i]!;
      column[r] = v;
      sum += v;
      const isAll = v > 1 - EPSILON;
      const isNone = v < EPSILON;
      all &&= isAll;
      none &&= isNone;
      if (r < top) {
        topAll &&= isAll;
        topNone &&= isNone;
      }
    }
    return {
      solve_rate: rows ? sum / rows : 0,
      point_biserial: pointBiserial(column, chainPct),
      difficulty: fit.difficulty[i]!,
      solved_by_all: rows > 0 && all,
      solved_by_none: rows > 0 && none,
      separates_top: !(topAll || topNone),
    };
  });
  return { figures, fit: { rows, items, iterations: fit.iterations, converged: fit.converged, max_gradient: fit.max_gradient, log_posterior: fit.log_posterior } };
}

/** Every chain's and bug's figures over these rows (best first). */
export function discrimination(chains: readonly DiscriminationChain[], rows: readonly DiscriminationRow[], opts: Partial<RaschOptions> & { topN?: number } = {}): Discrimination {
  const topN = opts.topN ?? TOP_N;
  const nChains = chains.length;
  const nBugs = chains.reduce((s, c) => s + c.length, 0);
  const n = rows.length;
  const bugY = new Float64Array(n * nBugs);
  const chainY = new Float64Array(n * nChains);
  const chainPct = new Float64Array(n);
  rows.forEach((row, r) => {
    if (row.bugs.length !== nChains || row.solved.length !== nChains) throw new RangeError(`row ${row.id} has ${row.bugs.length} chains, the version ${nChains}`);
    let k = 0;
    let solved = 0;
    chains.forEach((c, ci) => {
      const bugs = row.bugs[ci]!;
      if (bugs.length !== c.length) throw new RangeError(`row ${row.id}: chain ${c.continuous_id} has ${bugs.length} bugs, not ${c.length}`);
      for (let b = 0; b < c.length; b++) bugY[r * nBugs + k++] = bugs[b] as number;
      const s = row.solved[ci] as number;
      chainY[r * nChains + ci] = s;
      solved += s;
    });
    chainPct[r] = nChains ? (100 * solved) / nChains : 0;
  });
  const bugFit = itemFigures(bugY, n, nBugs, chainPct, topN, opts);
  const chainFit = itemFigures(chainY, n, nChains, chainPct, topN, opts);
  let k = 0;
  const bugs = chains.flatMap((c) => Array.from({ length: c.length }, (_, b) => ({ continuous_id: c.continuous_id, order: b + 1, ...bugFit.figures[k++]! })));
  return {
    rows: n,
    top_n: topN,
    chains: chains.map((c, ci) => ({ continuous_id: c.continuous_id, ...chainFit.figures[ci]! })),
    bugs,
    fit: { bugs: bugFit.fit, chains: chainFit.fit },
  };
}
