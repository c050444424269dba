/**
 * What the chain-error page shows (SPEC §5, the paper's
 * Figure 4), derived from the stored chain-error breakdowns: several systems'
 * breakdowns summed into one, the bars by cause and by fingerprint, and the
 * list of chain errors narrowed by position, cause and fingerprint. Pure:
 * /analysis, its export and the tests all call these, so a table, its chart
 * and its CSV cannot disagree.
 */
import {
  CAUSES,
  type BreakdownRow,
  type BreakdownStats,
  type Cause,
  type ChainError,
  type ChainErrorBreakdown,
  type Share,
} from "@/core/analysis";
import { FINGERPRINTS } from "@/core/schemas/results";

export const FINGERPRINT_KEYS = [...FINGERPRINTS, "unknown"] as const;
export type FingerprintKey = (typeof FINGERPRINT_KEYS)[number];

export const CAUSE_LABELS: Record<Cause, string> = {
  overshoot: "Overshoot",
  undershoot: "Undershoot",
  both: "Both",
  unattributed: "Unattributed",
};
/** in the paper's order (§5.3) */
export const FINGERPRINT_LABELS: Record<FingerprintKey, string> = {
  broke_working_code: "Broke working code",
  left_unfixed: "Left unfixed",
  no_usable_patch: "No usable patch",
  unknown: "Unknown",
};
export const FINGERPRINT_ORDER: readonly FingerprintKey[] = ["broke_working_code", "left_unfixed", "no_usable_patch", "unknown"];

type Counts = { chain_errors: number; unresolved: number; causes: Record<Cause, number>; fingerprints: Record<FingerprintKey, number> };

const zeroCounts = (): Counts => ({
  chain_errors: 0,
  unresolved: 0,
  causes: Object.fromEntries(CAUSES.map((c) => [c, 0])) as Record<Cause, number>,
  fingerprints: Object.fromEntries(FINGERPRINT_KEYS.map((f) => [f, 0])) as Record<FingerprintKey, number>,
});

function add(into: Counts, s: BreakdownStats): void {
  into.chain_errors += s.chain_errors;
  into.unresolved += s.unresolved_downstream;
  for (const c of CAUSES) into.causes[c] += s.causes[c].count;
  for (const f of FINGERPRINT_KEYS) into.fingerprints[f] += s.fingerprints[f].count;
}

/** Counts back to the evaluator's BreakdownStats shape, shares and rate recomputed from the sums. */
function toStats(c: Counts): BreakdownStats {
  const share = (count: number): Share => ({ count, pct: c.chain_errors === 0 ? null : (100 * count) / c.chain_errors });
  return {
    chain_errors: c.chain_errors,
    unresolved_downstream: c.unresolved,
    rate: c.unresolved === 0 ? null : (100 * c.chain_errors) / c.unresolved,
    causes: Object.fromEntries(CAUSES.map((k) => [k, share(c.causes[k])])) as BreakdownStats["causes"],
    fingerprints: Object.fromEntries(FINGERPRINT_KEYS.map((k) => [k, share(c.fingerprints[k])])) as BreakdownStats["fingerprints"],
  };
}

export type CombinedBreakdown = { analyses: number; positions: BreakdownRow[]; overall: BreakdownStats };

/**
 * Several systems' breakdowns as one, as the paper pools its Baseline models:
 * counts are summed per position and overall, and the rates and shares are
 * recomputed from the sums (not averaged, so a system with more failures weighs more).
 */
export function sumBreakdowns(breakdowns: readonly ChainErrorBreakdown[]): CombinedBreakdown {
  const overall = zeroCounts();
  const byPosition = new Map<number, Counts>();
  for (const b of breakdowns) {
    add(overall, b.overall);
    for (const row of b.positions) {
      const at = byPosition.get(row.position) ?? zeroCounts();
      add(at, row);
      byPosition.set(row.position, at);
    }
  }
  const positions = [...byPosition.entries()].sort(([a], [b]) => a - b).map(([position, c]) => ({ position, ...toStats(c) }));
  return { analyses: breakdowns.length, positions, overall: toStats(overall) };
}

/** Figure 4a: each position's unresolved downstream Seq bugs, chain errors split by cause, the rest not chain errors. */
export type CauseBar = { position: number; not_chain_error: number } & Record<Cause, number>;

export function causeBars(combined: CombinedBreakdown): CauseBar[] {
  return combined.positions.map((p) => ({
    position: p.position,
    ...(Object.fromEntries(CAUSES.map((c) => [c, p.causes[c].count])) as Record<Cause, number>),
    not_chain_error: p.unresolved_downstream - p.chain_errors,
  }));
}

/** Figure 4b: each position's chain errors by fingerprint. */
export type FingerprintBar = { position: number } & Record<FingerprintKey, number>;

export function fingerprintBars(combined: CombinedBreakdown): FingerprintBar[] {
  return combined.positions.map((p) => ({
    position: p.position,
    ...(Object.fromEntries(FINGERPRINT_KEYS.map((f) => [f, p.fingerprints[f].count])) as Record<FingerprintKey, number>),
  }));
}

export type ChainErrorFilter = { position?: number; cause?: Cause; fingerprint?: FingerprintKey };

export function filterChainErrors<E extends ChainError>(errors: readonly E[], f: ChainErrorFilter): E[] {
  return errors.filter(
    (e) =>
      (f.position === undefined || e.order === f.position) &&
      (f.cause === undefined || e.cause === f.cause) &&
      (f.fingerprint === undefined || (e.fingerprint ?? "unknown") === f.fingerprint),
  );
}
