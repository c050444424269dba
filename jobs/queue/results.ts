/**
 * A graded bug as a BugResult row: the GradedBug the replay produced, less what
 * the submission (mode, system) and the prediction (cost, tokens) already hold.
 * Every JSON column goes through columnJson, so nothing malformed is stored.
 */
import type { BugArtifacts } from "@/evaluator/replay";
import type { Prisma } from "@/db/generated/prisma/client";
import { columnJson, fileListSchema, testSplitSchema } from "@/core/schemas/columns";

/**
 * The bytes the rows' text takes (UTF-8; a JSON value as its JSON): what a
 * submission's stored size counts, for the storage limit (lib/submissions/storage.ts).
 */
export function textBytes(rows: readonly object[]): number {
  let n = 0;
  for (const row of rows) {
    for (const v of Object.values(row)) {
      if (typeof v === "string") n += Buffer.byteLength(v);
      else if (v !== null && typeof v === "object" && !(v instanceof Date)) n += Buffer.byteLength(JSON.stringify(v));
    }
  }
  return n;
}

export function bugResultRow(submissionId: string, a: BugArtifacts): Prisma.BugResultCreateManyInput {
  const b = a.bug;
  return {
    submissionId,
    continuousId: b.continuous_id,
    order: b.order,
    swebenchInstanceId: b.swebench_instance_id,
    resolved: b.resolved,
    patchApplied: b.patch_applied,
    applyMethod: b.apply_method,
    fingerprint: b.fingerprint,
    tampered: b.tampered,
    failToPass: columnJson(testSplitSchema, b.fail_to_pass),
    passToPass: columnJson(testSplitSchema, b.pass_to_pass),
    exitCode: b.exit_code,
    timedOut: b.timed_out,
    durationS: b.duration_s,
    modelFiles: columnJson(fileListSchema, b.model_files),
    goldFiles: columnJson(fileListSchema, b.gold_files),
    testFiles: columnJson(fileListSchema, b.test_files),
    discardedFiles: columnJson(fileListSchema, b.discarded_files),
    log: a.log,
    graderVersion: b.grader_version ?? null,
    packageVersion: b.package_version ?? null,
    logParser: b.log_parser ?? null,
    recordSha256: b.record_sha256 ?? null,
    predictionSha256: b.prediction_sha256 ?? null,
    goldSimilarity: b.gold_similarity ?? null,
  };
}

/** The bugs of one chain must be that chain's, each order once: anything else is a bug in the caller. */
export function assertOneChain(continuousId: string, bugs: BugArtifacts[]): void {
  const orders = new Set<number>();
  for (const { bug } of bugs) {
    if (bug.continuous_id !== continuousId) {
      throw new Error(`result for chain ${bug.continuous_id} handed in for a job of chain ${continuousId}`);
    }
    if (orders.has(bug.order)) throw new Error(`bug ${bug.order} of ${continuousId} handed in twice`);
    orders.add(bug.order);
  }
}
