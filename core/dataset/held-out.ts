/**
 * A version's held-out chains (SPEC §8): chains whose problem statements reach
 * agents only through an audited download per team, and whose tests, gold
 * patches and per-chain results are shown to reviewers alone. Marked by the
 * version's rule `held_out` (set at import, at release, or later with
 * `chainswe dataset held-out`). Pure, over plain data.
 */
import type { Chain } from "@/core/schemas/dataset";
import type { RunResults } from "@/core/scoring";

/** Every problem with a held-out list for a version of these chains (each named), or none. */
export function heldOutProblems(chains: readonly string[], heldOut: readonly string[]): string[] {
  const known = new Set(chains);
  const seen = new Set<string>();
  const problems: string[] = [];
  for (const id of heldOut) {
    if (seen.has(id)) problems.push(`chain ${id} is named twice`);
    else if (!known.has(id)) problems.push(`no chain ${id} in this version`);
    seen.add(id);
  }
  if (heldOut.length > 0 && seen.size >= known.size) problems.push("every chain would be held out: keep at least one public chain");
  return problems;
}

/**
 * Why a version's held-out chains may not change from `before` to `after`
 * (either absent: none), or null. Once a submission on the version is
 * published, they are fixed: a change would rescore its rows and hide or
 * show what was already shown. The same chains in another order are no change.
 */
export function heldOutChangeProblem(version: string, before: readonly string[] | undefined, after: readonly string[] | undefined, published: number): string | null {
  const sorted = (ids: readonly string[] | undefined) => [...new Set(ids ?? [])].sort();
  const [a, b] = [sorted(before), sorted(after)];
  if (published === 0 || (a.length === b.length && a.every((id, i) => id === b[i]))) return null;
  return `dataset ${version}'s held-out chains are fixed: ${published} submission(s) on it are published, whose scores and shown chains would change; release a new version with --held-out instead`;
}

/** What a viewer may not see of a version: its held-out chains, or none for a reviewer. */
export function hiddenChains(heldOut: readonly string[] | undefined, reviewer: boolean): ReadonlySet<string> {
  return reviewer || !heldOut ? NO_CHAINS : new Set(heldOut);
}

export const NO_CHAINS: ReadonlySet<string> = new Set();

/**
 * A run as a viewer who may not see `hidden` chains gets it (a bundle,
 * results.jsonl): those chains gone from its population, its bugs and its
 * counts, so what remains verifies and scores over the public chains alone.
 */
export function runWithout(run: RunResults, hidden: ReadonlySet<string>): RunResults {
  if (hidden.size === 0) return run;
  const bugs = run.bugs.filter((b) => !hidden.has(b.continuous_id));
  const s = run.summary;
  const chains = s.dataset.chains.filter((c) => !hidden.has(c.continuous_id));
  const selected = s.chains_selected?.filter((c) => !hidden.has(c)) ?? null;
  return {
    summary: {
      ...s,
      dataset: { ...s.dataset, chains },
      chains_selected: selected && selected.length < chains.length ? selected : null,
      chains_graded: new Set(bugs.map((b) => b.continuous_id)).size,
      bugs_graded: bugs.length,
      bugs_resolved: bugs.filter((b) => b.resolved).length,
      test_seconds: bugs.reduce((t, b) => t + b.duration_s, 0),
    },
    bugs,
  };
}

/**
 * What a team's agents get of a held-out chain (the audited download): what a
 * run needs to start, and each bug's problem statement; never its tests, its
 * gold patch or its fixing commit.
 */
export type HeldOutTask = {
  continuous_id: string;
  repo: string;
  base_commit: string;
  docker_image: string;
  bug_fixes: { order: number; swebench_instance_id: string; problem_statement: string }[];
};

export function heldOutTask(c: Chain): HeldOutTask {
  return {
    continuous_id: c.continuous_id,
    repo: c.repo,
    base_commit: c.base_commit,
    docker_image: c.docker_image,
    bug_fixes: c.bug_fixes.map((b) => ({ order: b.order, swebench_instance_id: b.swebench_instance_id, problem_statement: b.problem_statement })),
  };
}
