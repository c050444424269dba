/**
 * Chain-error analysis (SPEC §5): read-only triage of an Oracle run against a Seq
 * (or Seq+Mem) run of the same system.
 *
 * Invariants:
 * - a chain error is a bug at position k ≥ 2, graded in both runs, resolved under
 *   Oracle and unresolved under Seq by its own grade (lenient);
 * - for each prior bug j < k, with M_j = the Seq model_files of bug j (empty when j
 *   is not in the Seq results) and F_j = gold_files of bug j, and K = bug k's gold,
 *   test and Seq model files:
 *   overshoot evidence = M_j \ F_j ∩ K (always strong);
 *   undershoot evidence = F_j \ M_j, strong when bug j is unresolved under Seq (or
 *   missing) or the file is in K;
 * - cause = the evidence kinds present (strong or not): overshoot, undershoot,
 *   both, or unattributed when there is none;
 * - output order: system, seq_mode, continuous_id, order; evidence by prior_order,
 *   overshoot before undershoot, then file (code-unit order, locale-free).
 */
import { z } from "zod";
import { modeSchema } from "@/core/schemas/prediction";
import { FINGERPRINTS, fingerprintSchema, type GradedBug } from "@/core/schemas/results";
import { chainRecords, indexBugs, type ChainRecord, type RunResults } from "@/core/scoring";

export const CAUSES = ["overshoot", "undershoot", "both", "unattributed"] as const;
export const causeSchema = z.enum(CAUSES);
export type Cause = z.infer<typeof causeSchema>;

export const evidenceSchema = z.object({
  prior_order: z.number().int().positive(),
  file: z.string(),
  kind: z.enum(["overshoot", "undershoot"]),
  strong: z.boolean(),
});
export type Evidence = z.infer<typeof evidenceSchema>;

export const seqModeSchema = modeSchema.exclude(["oracle"]);
export type SeqMode = z.infer<typeof seqModeSchema>;

export const chainErrorSchema = z.object({
  system: z.string(),
  continuous_id: z.string(),
  swebench_instance_id: z.string(),
  order: z.number().int().min(2),
  seq_mode: seqModeSchema,
  /** the Seq grade's fingerprint (null only if the results omit it) */
  fingerprint: fingerprintSchema.nullable(),
  cause: causeSchema,
  evidence: z.array(evidenceSchema),
});
export type ChainError = z.infer<typeof chainErrorSchema>;

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const KIND_RANK = { overshoot: 0, undershoot: 1 } as const;

function compareEvidence(a: Evidence, b: Evidence): number {
  return a.prior_order - b.prior_order || KIND_RANK[a.kind] - KIND_RANK[b.kind] || cmp(a.file, b.file);
}

export function compareChainErrors(a: ChainError, b: ChainError): number {
  return cmp(a.system, b.system) || cmp(a.seq_mode, b.seq_mode) || cmp(a.continuous_id, b.continuous_id) || a.order - b.order;
}

export function causeOf(evidence: readonly Evidence[]): Cause {
  const over = evidence.some((e) => e.kind === "overshoot");
  const under = evidence.some((e) => e.kind === "undershoot");
  return over && under ? "both" : over ? "overshoot" : under ? "undershoot" : "unattributed";
}

/** Evidence that prior bug j left state that bug k (touching `later`) trips over. */
function priorEvidence(
  priorOrder: number,
  seqPrior: GradedBug | undefined,
  goldFiles: readonly string[],
  later: ReadonlySet<string>,
): Evidence[] {
  const model = new Set(seqPrior?.model_files ?? []);
  const gold = new Set(goldFiles);
  const unresolved = seqPrior?.resolved !== true;
  const evidence: Evidence[] = [];
  for (const file of model) {
    if (!gold.has(file) && later.has(file)) evidence.push({ prior_order: priorOrder, file, kind: "overshoot", strong: true });
  }
  for (const file of gold) {
    if (!model.has(file)) {
      evidence.push({ prior_order: priorOrder, file, kind: "undershoot", strong: unresolved || later.has(file) });
    }
  }
  return evidence;
}

function assertPair(oracle: RunResults, seq: RunResults): SeqMode {
  if (oracle.summary.mode !== "oracle") throw new RangeError(`expected an oracle run, got ${oracle.summary.mode}`);
  const mode = seq.summary.mode;
  if (mode === "oracle") throw new RangeError("expected a seq or seq_mem run, got oracle");
  if (oracle.summary.system !== seq.summary.system) {
    throw new RangeError(`chain errors compare one system: ${oracle.summary.system} vs ${seq.summary.system}`);
  }
  return mode;
}

/** Every chain error of a system's Seq (or Seq+Mem) run against its Oracle run, with evidence. */
export function chainErrors(oracle: RunResults, seq: RunResults): ChainError[] {
  const seqMode = assertPair(oracle, seq);
  const oracleBugs = indexBugs(oracle);
  const seqBugs = indexBugs(seq);
  const errors: ChainError[] = [];
  for (const { continuous_id, length } of seq.summary.dataset.chains) {
    const seqChain = seqBugs.get(continuous_id);
    const oracleChain = oracleBugs.get(continuous_id);
    if (!seqChain || !oracleChain) continue;
    for (let k = 2; k <= length; k++) {
      const bug = seqChain.get(k);
      if (!bug || bug.resolved || oracleChain.get(k)?.resolved !== true) continue;
      const later = new Set([...bug.gold_files, ...bug.test_files, ...bug.model_files]);
      const evidence: Evidence[] = [];
      for (let j = 1; j < k; j++) {
        const seqPrior = seqChain.get(j);
        const gold = seqPrior?.gold_files ?? oracleChain.get(j)?.gold_files ?? [];
        evidence.push(...priorEvidence(j, seqPrior, gold, later));
      }
      evidence.sort(compareEvidence);
      errors.push({
        system: seq.summary.system,
        continuous_id,
        swebench_instance_id: bug.swebench_instance_id,
        order: k,
        seq_mode: seqMode,
        fingerprint: bug.fingerprint,
        cause: causeOf(evidence),
        evidence,
      });
    }
  }
  return errors.sort(compareChainErrors);
}

const count = z.number().int().nonnegative();
/** a count and its share of the row's chain errors, in percent (null when there are none) */
const shareSchema = z.object({ count, pct: z.number().nullable() });
export type Share = z.infer<typeof shareSchema>;

const breakdownStatsSchema = z.object({
  chain_errors: count,
  /** Seq bugs at position ≥ 2 in the results and unresolved (own grade) */
  unresolved_downstream: count,
  /** chain_errors / unresolved_downstream in percent; null when nothing is unresolved */
  rate: z.number().nullable(),
  causes: z.object({ overshoot: shareSchema, undershoot: shareSchema, both: shareSchema, unattributed: shareSchema }),
  fingerprints: z.object({
    broke_working_code: shareSchema,
    left_unfixed: shareSchema,
    no_usable_patch: shareSchema,
    /** chain errors whose Seq grade carries no fingerprint (malformed results) */
    unknown: shareSchema,
  }),
});
export type BreakdownStats = z.infer<typeof breakdownStatsSchema>;

export const breakdownRowSchema = breakdownStatsSchema.extend({ position: z.number().int().min(2) });
export type BreakdownRow = z.infer<typeof breakdownRowSchema>;

export const chainErrorBreakdownSchema = z.object({
  system: z.string(),
  seq_mode: seqModeSchema,
  positions: z.array(breakdownRowSchema),
  overall: breakdownStatsSchema,
});
export type ChainErrorBreakdown = z.infer<typeof chainErrorBreakdownSchema>;

const FINGERPRINT_KEYS = [...FINGERPRINTS, "unknown"] as const;

function stats(errors: readonly ChainError[], unresolved: number): BreakdownStats {
  const n = errors.length;
  const share = (c: number): Share => ({ count: c, pct: n === 0 ? null : (100 * c) / n });
  const tally = <K extends string>(keys: readonly K[], keyOf: (e: ChainError) => K) =>
    Object.fromEntries(keys.map((k) => [k, share(errors.filter((e) => keyOf(e) === k).length)])) as Record<K, Share>;
  return {
    chain_errors: n,
    unresolved_downstream: unresolved,
    rate: unresolved === 0 ? null : (100 * n) / unresolved,
    causes: tally(CAUSES, (e) => e.cause),
    fingerprints: tally(FINGERPRINT_KEYS, (e) => e.fingerprint ?? "unknown"),
  };
}

/**
 * Chain errors per position and overall, against the unresolved downstream bugs of
 * the Seq run. Only errors of that run's system and mode are counted.
 */
export function chainErrorBreakdown(errors: readonly ChainError[], seq: RunResults): ChainErrorBreakdown {
  return chainErrorBreakdownOf(errors, { system: seq.summary.system, mode: seq.summary.mode }, chainRecords(seq));
}

/**
 * The same over the Seq run's chain records: the whole dataset, or the chains a
 * bug-date window keeps (SPEC §7; pass only the errors of those chains).
 */
export function chainErrorBreakdownOf(
  errors: readonly ChainError[],
  seq: { system: string; mode: RunResults["summary"]["mode"] },
  chains: readonly ChainRecord[],
): ChainErrorBreakdown {
  const seqMode = seq.mode;
  if (seqMode === "oracle") throw new RangeError("chain-error breakdown needs a seq or seq_mem run, got oracle");
  const mine = errors.filter((e) => e.system === seq.system && e.seq_mode === seqMode);
  const unresolvedAt = new Map<number, number>();
  for (const { bugs } of chains) {
    // graded and unresolved; a bug missing from the results is not counted
    for (let p = 2; p <= bugs.length; p++) unresolvedAt.set(p, (unresolvedAt.get(p) ?? 0) + (bugs[p - 1] === 0 ? 1 : 0));
  }
  const positions = [...unresolvedAt.keys()].sort((a, b) => a - b);
  return {
    system: seq.system,
    seq_mode: seqMode,
    positions: positions.map((p) => ({
      position: p,
      ...stats(
        mine.filter((e) => e.order === p),
        unresolvedAt.get(p) ?? 0,
      ),
    })),
    overall: stats(
      mine,
      [...unresolvedAt.values()].reduce((a, b) => a + b, 0),
    ),
  };
}
