/**
 * Data selection (paper §3.3), pure: the re-execution verdicts split candidates into
 * kept and rejected; selection drops length-2 chains, optionally keeps only chains
 * whose Oracle run solved at least ⌊k/2⌋+1 of their k bugs, and finally picks windows
 * that share no instance (a dataset version holds each instance once), longest first.
 */
import type { ChainValidation } from "@/evaluator/replay/gold";
import type { Chain } from "@/core/schemas/dataset";
import type { GradedBug } from "@/core/schemas/results";

export type Rejection = { continuous_id: string; reasons: string[] };

export function splitByVerdict(chains: Chain[], verdicts: ChainValidation[]): { kept: Chain[]; rejected: Rejection[] } {
  const byId = new Map(verdicts.map((v) => [v.continuous_id, v]));
  const kept: Chain[] = [];
  const rejected: Rejection[] = [];
  for (const chain of chains) {
    const v = byId.get(chain.continuous_id);
    if (!v) continue; // not re-executed in this run
    if (v.ok) kept.push(chain);
    else rejected.push({ continuous_id: chain.continuous_id, reasons: v.problems });
  }
  return { kept, rejected };
}

export const MIN_SELECTED_LENGTH = 3;

/** The paper's difficulty rule: more than half of a chain's k bugs solved under Oracle. */
export function solvedEnough(k: number, solved: number): boolean {
  return solved >= Math.floor(k / 2) + 1;
}

export type SelectOptions = {
  /** graded bugs of an Oracle run over (some of) these chains; no difficulty filter when absent */
  oracle?: GradedBug[];
};

export type Selection = { selected: Chain[]; dropped: Rejection[] };

function oracleSolved(oracle: GradedBug[]): Map<string, Set<number>> {
  const solved = new Map<string, Set<number>>();
  for (const b of oracle) {
    if (!solved.has(b.continuous_id)) solved.set(b.continuous_id, new Set());
    if (b.resolved) solved.get(b.continuous_id)!.add(b.order);
  }
  return solved;
}

/** Longer chains first, then earlier, then by id: the order disjoint windows are picked in. */
function preference(a: Chain, b: Chain): number {
  return b.bug_fixes.length - a.bug_fixes.length || a.date_range.localeCompare(b.date_range) || a.continuous_id.localeCompare(b.continuous_id);
}

export function selectChains(chains: Chain[], o: SelectOptions = {}): Selection {
  const dropped: Rejection[] = [];
  const drop = (c: Chain, reason: string) => dropped.push({ continuous_id: c.continuous_id, reasons: [reason] });
  const solved = o.oracle ? oracleSolved(o.oracle) : null;
  const eligible = chains.filter((c) => {
    const k = c.bug_fixes.length;
    if (k < MIN_SELECTED_LENGTH) return drop(c, `length ${k} < ${MIN_SELECTED_LENGTH}`), false;
    if (!solved) return true;
    const got = solved.get(c.continuous_id);
    if (!got) return drop(c, "not graded in the Oracle run"), false;
    if (!solvedEnough(k, got.size)) return drop(c, `Oracle solved ${got.size}/${k} bugs; needs ${Math.floor(k / 2) + 1}`), false;
    return true;
  });
  const owner = new Map<string, string>();
  const selected: Chain[] = [];
  for (const c of [...eligible].sort(preference)) {
    const taken = c.swebench_instance_ids.find((id) => owner.has(id));
    if (taken) {
      drop(c, `shares instance ${taken} with selected chain ${owner.get(taken)}`);
      continue;
    }
    for (const id of c.swebench_instance_ids) owner.set(id, c.continuous_id);
    selected.push(c);
  }
  // the file keeps the candidates' order (repository, then date)
  const position = new Map(chains.map((c, i) => [c.continuous_id, i]));
  selected.sort((a, b) => position.get(a.continuous_id)! - position.get(b.continuous_id)!);
  return { selected, dropped };
}
