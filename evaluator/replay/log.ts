/**
 * The per-bug log kept for reviewers: how the patch was applied, then the test
 * run bracketed by harness markers that carry a per-run random token. The token
 * is made on the host and never enters the container, so output printed by a
 * patch cannot forge the brackets; the exit code comes from the engine.
 */
import { describeDiskExceeded, type ExecResult } from "@/evaluator/sandbox";
import type { GradedBug } from "@/core/schemas/results";
import { LISTED_TESTS_HEADER, STOPPED_BY_HARNESS, listedTestLine, runBeginMarker, runEndMarker } from "./markers";

export type BugLogInput = {
  bug: GradedBug;
  setupLog: string;
  run: ExecResult;
  token: string;
  statuses: Record<string, string>;
};

export { runBeginMarker, runEndMarker } from "./markers";

export function bugLogText({ bug, setupLog, run, token, statuses }: BugLogInput): string {
  const verdict = bug.resolved ? "RESOLVED" : `UNRESOLVED (${bug.fingerprint})`;
  const listed = Object.entries(statuses).map(([id, s]) => listedTestLine(id, s));
  return [
    `=== chainswe ${bug.mode} ${bug.continuous_id} bug ${bug.order} (${bug.swebench_instance_id}) ===`,
    "--- patch application and hidden-test restore ---",
    setupLog.trimEnd(),
    `--- model patch: ${bug.patch_applied ? `applied (${bug.apply_method})` : "not applied"}`,
    ...(bug.discarded_files.length ? [`--- discarded model edits to hidden-test files: ${bug.discarded_files.join(", ")}`] : []),
    runBeginMarker(token),
    run.output.trimEnd(),
    `${runEndMarker(token)} exit=${run.exitCode ?? "none"} timed_out=${run.timedOut} duration_s=${(run.durationMs / 1000).toFixed(2)} truncated=${run.truncated}`,
    ...(run.diskExceeded ? [`${STOPPED_BY_HARNESS}${describeDiskExceeded(run.diskExceeded)}`] : []),
    LISTED_TESTS_HEADER,
    ...listed,
    `--- verdict: ${verdict}${bug.tampered ? " [tampered: statuses contradicted in the log]" : ""}`,
    "",
  ].join("\n");
}
