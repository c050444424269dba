/** Gold replay (`validate`): the gold patch as every bug's model patch, Oracle mode. */
import type { Dataset, Predictions } from "@/evaluator/dataset";
import type { Chain } from "@/core/schemas/dataset";
import type { PredictionLine } from "@/core/schemas/prediction";
import type { GradedBug, RunError } from "@/core/schemas/results";

export const GOLD_SYSTEM = "gold";

/** One chain's gold patches as its predictions (order → line). */
export function goldPredictionLines(chain: Chain): Map<number, PredictionLine> {
  return new Map(
    chain.bug_fixes.map((b) => [
      b.order,
      { continuous_id: chain.continuous_id, swebench_instance_id: b.swebench_instance_id, model_patch: b.patch, model_name_or_path: GOLD_SYSTEM },
    ]),
  );
}

export function goldPredictions(dataset: Dataset): Predictions {
  const byChain = new Map(dataset.chains.map((chain) => [chain.continuous_id, goldPredictionLines(chain)]));
  return { path: `${dataset.path}#gold`, sha256: dataset.sha256, system: GOLD_SYSTEM, byChain, warnings: [] };
}

export type ChainValidation = { continuous_id: string; ok: boolean; problems: string[] };

/** A chain is valid when gold replay graded every bug resolved with no error. */
export function validationVerdicts(chainIds: string[], bugs: GradedBug[], errors: RunError[]): ChainValidation[] {
  return chainIds.map((id) => {
    const problems: string[] = [];
    const graded = bugs.filter((b) => b.continuous_id === id);
    // errors.jsonl keeps history; an error only stands while the chain has no grades
    if (graded.length === 0) {
      for (const e of errors.filter((e) => e.continuous_id === id)) {
        problems.push(`${e.kind} error${e.order ? ` at bug ${e.order}` : ""}: ${e.message.split("\n")[0]}`);
      }
    }
    if (graded.length === 0 && problems.length === 0) problems.push("not graded");
    for (const b of graded.filter((b) => !b.resolved)) {
      const failing = [...b.fail_to_pass.failure, ...b.pass_to_pass.failure];
      problems.push(`bug ${b.order} (${b.swebench_instance_id}) unresolved under gold: ${b.fingerprint}; failing: ${failing.slice(0, 5).join(", ") || "none listed"}`);
    }
    return { continuous_id: id, ok: problems.length === 0, problems };
  });
}
