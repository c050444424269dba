/**
 * Builders for small hand-checked runs, shared by the scoring and analysis tests.
 * Only the fields scoring and analysis read vary; the rest are fixed placeholders.
 */
import type { Mode } from "@/core/schemas/prediction";
import type { GradedBug, RunSummary } from "@/core/schemas/results";
import type { RunResults } from "./outcomes";

export type BugSpec = Partial<GradedBug> & { continuous_id: string; order: number; resolved: boolean };

export function gradedBug(mode: Mode, system: string, spec: BugSpec): GradedBug {
  const { resolved } = spec;
  return {
    swebench_instance_id: `${spec.continuous_id}-${spec.order}`,
    mode,
    system,
    patch_applied: true,
    apply_method: "git_apply",
    fingerprint: resolved ? null : "left_unfixed",
    tampered: false,
    fail_to_pass: { success: [], failure: [] },
    pass_to_pass: { success: [], failure: [] },
    exit_code: resolved ? 0 : 1,
    timed_out: false,
    duration_s: 1,
    model_files: [],
    gold_files: [],
    test_files: [],
    discarded_files: [],
    ...spec,
  };
}

export function runSummary(system: string, mode: Mode, chains: [string, number][]): RunSummary {
  return {
    system,
    mode,
    dataset: {
      path: "dataset.jsonl",
      sha256: "0".repeat(64),
      chains: chains.map(([continuous_id, length]) => ({ continuous_id, length })),
    },
    predictions: { path: "predictions.jsonl", sha256: "0".repeat(64) },
    chains_selected: null,
    started_at: "2026-01-01T00:00:00Z",
    finished_at: "2026-01-01T01:00:00Z",
    chains_graded: chains.length,
    chains_failed: 0,
    bugs_graded: 0,
    bugs_resolved: 0,
    wall_seconds: 1,
    test_seconds: 1,
    limits: { memory_bytes: 1, nano_cpus: 1, pids: 1, test_timeout_s: 1 },
  };
}

export function makeRun(system: string, mode: Mode, chains: [string, number][], bugs: BugSpec[]): RunResults {
  return { summary: runSummary(system, mode, chains), bugs: bugs.map((b) => gradedBug(mode, system, b)) };
}

/** Bugs of one chain from a resolved pattern, e.g. grades("c1", [true, false, true]). */
export function grades(continuous_id: string, resolved: boolean[], extra: Partial<GradedBug>[] = []): BugSpec[] {
  return resolved.map((r, i) => ({ continuous_id, order: i + 1, resolved: r, ...extra[i] }));
}
