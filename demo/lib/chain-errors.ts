/**
 * SPEC §5, applied strictly to one system's simulated Oracle and Seq results of a chain:
 * bug k ≥ 2 is a chain error when Oracle resolves it and Seq does not. For every prior
 * bug j, M_j = files the applied Seq patch j touched, F_j = gold files of j, and
 * K = files of bug k's gold patch, test patch and applied Seq patch:
 * overshoot evidence = (M_j \ F_j) ∩ K; undershoot evidence = F_j \ M_j (strong when
 * Seq bug j is unresolved or the file is in K). Written independently of
 * core/analysis so the demo cross-checks it.
 */
import type { Fingerprint } from "@/core/schemas/results";
import type { SimulatedBug } from "./simulate";

export const CAUSES = ["overshoot", "undershoot", "both", "unattributed"] as const;
export type Cause = (typeof CAUSES)[number];

export type Evidence = { prior_order: number; file: string; kind: "overshoot" | "undershoot"; strong: boolean };

export type DemoChainError = {
  continuous_id: string;
  swebench_instance_id: string;
  order: number;
  seq_mode: "seq";
  cause: Cause;
  fingerprint: Fingerprint | null;
  evidence: Evidence[];
};

function evidenceFrom(prior: SimulatedBug, later: Set<string>): Evidence[] {
  const model = new Set(prior.model_files);
  const gold = new Set(prior.gold_files);
  const over = [...model].filter((f) => !gold.has(f) && later.has(f)).sort();
  const under = [...gold].filter((f) => !model.has(f)).sort();
  return [
    ...over.map((file) => ({ prior_order: prior.order, file, kind: "overshoot" as const, strong: true })),
    ...under.map((file) => ({ prior_order: prior.order, file, kind: "undershoot" as const, strong: !prior.resolved || later.has(file) })),
  ];
}

export function findChainErrors(oracle: SimulatedBug[], seq: SimulatedBug[]): DemoChainError[] {
  const errors: DemoChainError[] = [];
  for (const bug of seq) {
    const oracleBug = oracle.find((b) => b.order === bug.order);
    if (bug.order < 2 || bug.resolved || !oracleBug?.resolved) continue;
    const later = new Set([...bug.gold_files, ...bug.test_files, ...bug.model_files]);
    const evidence = seq.filter((b) => b.order < bug.order).flatMap((prior) => evidenceFrom(prior, later));
    const over = evidence.some((e) => e.kind === "overshoot");
    const under = evidence.some((e) => e.kind === "undershoot");
    errors.push({
      continuous_id: bug.continuous_id,
      swebench_instance_id: bug.swebench_instance_id,
      order: bug.order,
      seq_mode: "seq",
      cause: over && under ? "both" : over ? "overshoot" : under ? "undershoot" : "unattributed",
      fingerprint: bug.fingerprint,
      evidence,
    });
  }
  return errors;
}
