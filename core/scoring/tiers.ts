/**
 * Rank tiers (SPEC §4 "Rank tiers"): which rows of one ranking really differ.
 *
 * Rows are ranked as the board ranks them by default: resolved bugs (per-bug %)
 * best first, then solved chains, then id. Each row is tested against the row
 * directly above it and against its tier's leader with the exact sign test
 * over the chains both cover (core/statistics): per chain, the difference in
 * resolved bugs (a row of repeated runs: the mean over its runs). Tiers are
 * decided against the leader (the tier's first row), so a tier cannot drift
 * (A ≈ B and B ≈ C, yet A ≠ C, in one tier): going down the ranking, a row
 * starts a new tier, and leads it, when the test against the current leader,
 * Holm-corrected over the n − 1 comparisons made (taken in ranking order:
 * tierStarts), is below ALPHA. The p-values against the row above, raw and with Holm's
 * correction over the n − 1 adjacent pairs, are kept for the reader.
 *
 * Rank stability: over the bootstrap's resamples of chains (the same seeded
 * draws as the intervals, core/scoring/bootstrap.ts), the share in which a row's
 * rank (1 + rows strictly ahead of it) equals its rank on every chain.
 */
import { holmAdjust, signTest } from "@/core/statistics";
import { resampleMatrix, resolveBootstrap, type BootstrapOptions } from "./bootstrap";

export const TIER_ALPHA = 0.05;

/** One row of a ranking: per chain (the same chain order in every row), its resolved bugs and whether it solved the chain (means over runs). */
export type TierInput = { id: string; resolved: ArrayLike<number>; solved: ArrayLike<number> };

export type RowTier = {
  id: string;
  /** 1-based place in the ranking; rows level on both keys share it */
  rank: number;
  tier: number;
  /** the sign test against the row above, raw and Holm-corrected; null for the first row */
  p_vs_above: number | null;
  p_vs_above_holm: number | null;
  /** the id of its tier's leader (the tier's first row; its own id for a leader) */
  tier_leader: string;
  /**
   * the sign test that placed it, raw and Holm-corrected over the n − 1
   * comparisons (tierStarts): against its tier's leader, or for a leader against the leader
   * of the tier above (the test that opened its tier); null for the first row
   */
  p_vs_tier_leader: number | null;
  p_vs_tier_leader_adjusted: number | null;
  /** share of resamples in which the row keeps its rank */
  rank_stability: number;
};

const sum = (xs: ArrayLike<number>) => {
  let s = 0;
  for (let i = 0; i < xs.length; i++) s += xs[i] as number;
  return s;
};

/** Sums of means over runs differ by rounding only when level: compare them to within EPSILON. */
const EPSILON = 1e-9;
const byKeys = (a: number, b: number) => (Math.abs(a - b) < EPSILON ? 0 : a - b);

/** Ranks (1 + rows strictly ahead on resolved, then solved) of rows given their two keys. */
function competitionRanks(resolved: Float64Array, solved: Float64Array): Int32Array {
  const n = resolved.length;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => byKeys(resolved[b]!, resolved[a]!) || byKeys(solved[b]!, solved[a]!));
  const ranks = new Int32Array(n);
  order.forEach((row, place) => {
    const prev = place > 0 ? order[place - 1]! : -1;
    ranks[row] = prev >= 0 && byKeys(resolved[prev]!, resolved[row]!) === 0 && byKeys(solved[prev]!, solved[row]!) === 0 ? ranks[prev]! : place + 1;
  });
  return ranks;
}

/**
 * The tiers of rows ranked together (one mode of one version under one scoring),
 * in ranking order. Every row must have the same number of chains.
 */
export function rankTiers(rows: readonly TierInput[], opts: Partial<BootstrapOptions> = {}): RowTier[] {
  if (rows.length === 0) return [];
  const chains = rows[0]!.resolved.length;
  for (const r of rows) {
    if (r.resolved.length !== chains || r.solved.length !== chains) throw new RangeError(`row ${r.id} has ${r.resolved.length} chains, the first row ${chains}: rank rows of one dataset version`);
  }
  const totals = rows.map((r) => ({ row: r, resolved: sum(r.resolved), solved: sum(r.solved) }));
  totals.sort((a, b) => byKeys(b.resolved, a.resolved) || byKeys(b.solved, a.solved) || (a.row.id < b.row.id ? -1 : a.row.id > b.row.id ? 1 : 0));
  const ranked = totals.map((t) => t.row);
  const ranks = competitionRanks(Float64Array.from(totals, (t) => t.resolved), Float64Array.from(totals, (t) => t.solved));
  const pairP = (a: TierInput, b: TierInput) => {
    const d = new Float64Array(chains);
    for (let c = 0; c < chains; c++) d[c] = (a.resolved[c] as number) - (b.resolved[c] as number);
    return signTest(d).p;
  };
  const raw = ranked.slice(1).map((r, i) => pairP(ranked[i]!, r));
  const holm = holmAdjust(raw);
  const stability = rankStability(ranked, ranks, resolveBootstrap(opts));
  const { leaders, vsLeader, adjusted } = tierStarts(ranked.length, raw, (j, i) => pairP(ranked[j]!, ranked[i]!));
  let tier = 1;
  return ranked.map((r, i) => {
    // a row opens a tier when it leads it
    if (i > 0 && leaders[i] === i) tier++;
    return {
      id: r.id,
      rank: ranks[i]!,
      tier,
      p_vs_above: i > 0 ? raw[i - 1]! : null,
      p_vs_above_holm: i > 0 ? holm[i - 1]! : null,
      tier_leader: ranked[leaders[i]!]!.id,
      p_vs_tier_leader: i > 0 ? vsLeader[i - 1]! : null,
      p_vs_tier_leader_adjusted: i > 0 ? adjusted[i - 1]! : null,
      rank_stability: stability[i]!,
    };
  });
}

/**
 * Which rows open a tier, going down the ranking: row i (i ≥ 1) is compared
 * with the leader of the tier it would join (the last row before it that
 * opened one; row 0 leads the first), and opens a tier of its own when that
 * comparison rejects under Holm's sequentially rejective thresholds over the
 * n − 1 comparisons made: with r tiers opened so far, its p-value times
 * (n − 1 − r), capped at 1, is below ALPHA. Holm orders the comparisons by
 * their p-values; here each comparison's leader is known only once the rows
 * above are decided, so they are taken in ranking order. The family-wise error
 * stays at most ALPHA as in Holm's proof: a first wrong tier boundary, after r
 * right ones, needs one of the m0 true equalities to reject at ALPHA/(n − 1 − r)
 * ≤ ALPHA/m0. `above` holds each row's p-value against the row above (the
 * comparison when that row leads).
 */
export function tierStarts(
  n: number,
  above: readonly number[],
  pairP: (leader: number, row: number) => number,
): { leaders: number[]; vsLeader: number[]; adjusted: number[] } {
  const leaders = [0];
  const vsLeader: number[] = [];
  const adjusted: number[] = [];
  let leader = 0;
  let opened = 0;
  for (let i = 1; i < n; i++) {
    const p = leader === i - 1 ? above[i - 1]! : pairP(leader, i);
    const q = Math.min(1, p * (n - 1 - opened));
    vsLeader.push(p);
    adjusted.push(q);
    if (q < TIER_ALPHA) {
      leader = i;
      opened++;
    }
    leaders.push(leader);
  }
  return { leaders, vsLeader, adjusted };
}

/** Per row, the share of the bootstrap's resamples of chains in which its rank equals `ranks`. */
function rankStability(rows: readonly TierInput[], ranks: Int32Array, boot: BootstrapOptions): number[] {
  const n = rows.length;
  const chains = rows[0]!.resolved.length;
  if (chains === 0) return rows.map(() => 1);
  const matrix = resampleMatrix(chains, boot);
  const kept = new Int32Array(n);
  const resolved = new Float64Array(n);
  const solved = new Float64Array(n);
  for (let d = 0; d < boot.draws; d++) {
    const base = d * chains;
    for (let r = 0; r < n; r++) {
      const row = rows[r]!;
      let a = 0;
      let b = 0;
      for (let k = 0; k < chains; k++) {
        const c = matrix[base + k]!;
        a += row.resolved[c] as number;
        b += row.solved[c] as number;
      }
      resolved[r] = a;
      solved[r] = b;
    }
    const drawn = competitionRanks(resolved, solved);
    for (let r = 0; r < n; r++) if (drawn[r] === ranks[r]) kept[r] = kept[r]! + 1;
  }
  return Array.from(kept, (k) => k / boot.draws);
}
