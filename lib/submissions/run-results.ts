/**
 * A submission's stored results as the evaluator's own `RunResults` (what
 * `loadRunResults` reads from an evaluation directory), so the portal scores
 * and analyses with exactly the functions `chainswe report` uses: scoring
 * (core/scoring), chain errors (core/analysis), results.jsonl lines.
 * No authorization here: callers check the viewer first.
 */
import { defaultLimits } from "@/evaluator/sandbox/limits";
import type { RunResults } from "@/core/scoring";
import { db } from "@/db/client";
import { parseColumn, testSplitSchema } from "@/core/schemas/columns";
import { modeSchema, predictionMetaSchema, type Mode } from "@/core/schemas/prediction";
import { applyMethodSchema, fingerprintSchema, gradedBugSchema, type GradedBug } from "@/core/schemas/results";
import type { BugResult } from "@/db/generated/prisma/client";

type StoredResult = Omit<BugResult, "log" | "id" | "submissionId" | "gradedAt">;

/** A BugResult row back as the evaluator's GradedBug (the inverse of jobs/queue/results.ts bugResultRow). */
export function gradedBugFromRow(r: StoredResult, mode: Mode, system: string, meta: string | undefined): GradedBug {
  const files = (text: string, column: string) => parseColumn(gradedBugSchema.shape.model_files, text, column);
  return gradedBugSchema.parse({
    ...(meta ? parseColumn(predictionMetaSchema, meta, "Prediction.meta") : {}),
    continuous_id: r.continuousId,
    swebench_instance_id: r.swebenchInstanceId,
    order: r.order,
    mode,
    system,
    resolved: r.resolved,
    patch_applied: r.patchApplied,
    apply_method: r.applyMethod === null ? null : applyMethodSchema.parse(r.applyMethod),
    fingerprint: r.fingerprint === null ? null : fingerprintSchema.parse(r.fingerprint),
    tampered: r.tampered,
    fail_to_pass: parseColumn(testSplitSchema, r.failToPass, "BugResult.failToPass"),
    pass_to_pass: parseColumn(testSplitSchema, r.passToPass, "BugResult.passToPass"),
    exit_code: r.exitCode,
    timed_out: r.timedOut,
    duration_s: r.durationS,
    model_files: files(r.modelFiles, "BugResult.modelFiles"),
    gold_files: files(r.goldFiles, "BugResult.goldFiles"),
    test_files: files(r.testFiles, "BugResult.testFiles"),
    discarded_files: files(r.discardedFiles, "BugResult.discardedFiles"),
    ...provenanceFromRow(r),
  });
}

/** The grader fields a row holds; a row graded before grader versions existed holds none. */
function provenanceFromRow(r: StoredResult): Partial<GradedBug> {
  const out: Partial<GradedBug> = {};
  if (r.graderVersion !== null) out.grader_version = r.graderVersion;
  if (r.packageVersion !== null) out.package_version = r.packageVersion;
  if (r.logParser !== null) out.log_parser = r.logParser;
  if (r.recordSha256 !== null) out.record_sha256 = r.recordSha256;
  // a prediction hash is null both for "no prediction" and for old rows: keep it only beside a grader version
  if (r.graderVersion !== null) out.prediction_sha256 = r.predictionSha256;
  if (r.goldSimilarity !== null) out.gold_similarity = r.goldSimilarity;
  return out;
}

/**
 * The submission's graded bugs in dataset order (chain by chain as the jobs
 * were queued, then by position) with the per-bug cost figures of its
 * predictions, and a summary naming every chain of its dataset version, so a
 * chain that was never graded scores as unresolved (SPEC §4: missing = unresolved).
 * Null for an unknown submission.
 */
export async function runResultsForSubmission(submissionId: string): Promise<RunResults | null> {
  const sub = await db.submission.findUnique({
    where: { id: submissionId },
    select: {
      mode: true,
      split: true,
      createdAt: true,
      finishedAt: true,
      system: { select: { name: true } },
      datasetVersion: { select: { version: true, sha256: true, chains: { select: { continuousId: true, _count: { select: { bugs: true } } }, orderBy: { id: "asc" } } } },
      jobs: { select: { continuousId: true }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] },
    },
  });
  if (!sub) return null;
  const [rows, predictions] = await Promise.all([
    db.bugResult.findMany({ where: { submissionId }, omit: { log: true, id: true, submissionId: true, gradedAt: true } }),
    db.prediction.findMany({ where: { submissionId }, select: { continuousId: true, order: true, meta: true } }),
  ]);
  const mode = modeSchema.parse(sub.mode);
  const limits = defaultLimits();
  const meta = new Map(predictions.map((p) => [`${p.continuousId}\0${p.order}`, p.meta]));
  const chainOrder = new Map(sub.jobs.map((j, i) => [j.continuousId, i]));
  rows.sort((a, b) => (chainOrder.get(a.continuousId) ?? 0) - (chainOrder.get(b.continuousId) ?? 0) || a.order - b.order);
  const bugs = rows.map((r) => gradedBugFromRow(r, mode, sub.system.name, meta.get(`${r.continuousId}\0${r.order}`)));
  const selected = sub.jobs.map((j) => j.continuousId);
  // the population every rate counts (SPEC §4): the version's chains, or on its Mini split (SPEC §8) the Mini's
  const mini = sub.split === "mini" ? new Set(selected) : null;
  const allChains = sub.datasetVersion.chains.filter((c) => !mini || mini.has(c.continuousId)).map((c) => ({ continuous_id: c.continuousId, length: c._count.bugs }));
  return {
    summary: {
      system: sub.system.name,
      mode,
      dataset: { path: `dataset version ${sub.datasetVersion.version}${mini ? ", Mini split" : ""}`, sha256: sub.datasetVersion.sha256, chains: allChains },
      // hashing the predictions means reading every patch: left to the one place that writes them out as a file,
      // the bundle (lib/submissions/bundle.ts), which records the sha256 of its predictions.jsonl
      predictions: { path: `submission ${submissionId}`, sha256: "" },
      chains_selected: selected.length === allChains.length ? null : selected,
      started_at: sub.createdAt.toISOString(),
      finished_at: sub.finishedAt?.toISOString() ?? null,
      chains_graded: new Set(bugs.map((b) => b.continuous_id)).size,
      chains_failed: 0,
      bugs_graded: bugs.length,
      bugs_resolved: bugs.filter((b) => b.resolved).length,
      wall_seconds: 0,
      test_seconds: bugs.reduce((s, b) => s + b.duration_s, 0),
      // the site's configured limits: workers are expected to share them (they are not stored per job)
      limits: { memory_bytes: limits.memoryBytes, nano_cpus: limits.nanoCpus, pids: limits.pids, test_timeout_s: limits.testTimeoutS },
    },
    bugs,
  };
}
