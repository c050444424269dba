/**
 * A completed submission as a reproducibility bundle (evaluator/bundle), for
 * whoever may read the submission: its results, logs and report, the dataset
 * version's records and the images' facts. The patches (predictions.jsonl and
 * each model.patch) are in it for the team and reviewers only, as with the
 * predictions download; the rest verifies without them. Held-out chains
 * (SPEC §8) are left out for all but reviewers: the bundle is then the run
 * over the public chains, and verifies as such.
 */
import { bugKey, bundleFiles, sha256 } from "@/evaluator/bundle";
import { bundleArchive } from "@/evaluator/bundle/archive";
import { imageFacts } from "@/evaluator/bundle/environment";
import type { Viewer } from "@/lib/authz";
import { db } from "@/db/client";
import { getChains } from "@/lib/dataset/data";
import { FieldError } from "@/core/errors";
import { readableSubmission } from "@/lib/submissions/access";
import { storedPredictionsJsonl } from "@/lib/submissions/downloads";
import { runResultsForSubmission } from "@/lib/submissions/run-results";
import { runWithout } from "@/core/dataset/held-out";

export async function submissionBundle(viewer: Viewer | null, id: string): Promise<{ filename: string; archive: Buffer }> {
  const access = await readableSubmission(viewer, id);
  if (access.status !== "completed") throw new FieldError("id", `submission ${id} is ${access.status}: a bundle holds a completed evaluation`);
  const run = runWithout((await runResultsForSubmission(id))!, access.hidden);
  const withPatches = access.role.team || access.role.reviewer;
  const [rows, jsonl, sub] = await Promise.all([
    db.bugResult.findMany({ where: { submissionId: id, continuousId: { notIn: [...access.hidden] } }, select: { continuousId: true, order: true, log: true } }),
    // the JSONL download's own lines, read once: hashed for everyone, given only to those who may have the patches
    storedPredictionsJsonl(id, access.hidden),
    db.submission.findUniqueOrThrow({ where: { id }, select: { datasetVersion: { select: { version: true } } } }),
  ]);
  const predictions = withPatches ? jsonl : null;
  // the sha256 of the bundle's predictions.jsonl, as `chainswe evaluate` records its predictions file's:
  // `chainswe bundle` on the extracted folder checks the predictions it is given against it
  const summary = { ...run.summary, predictions: { ...run.summary.predictions, sha256: sha256(jsonl) } };
  const patches = new Map(
    (predictions ?? "")
      .split("\n")
      .filter((l) => l)
      .map((l) => JSON.parse(l) as { continuous_id: string; order: number; model_patch: string })
      .map((p) => [bugKey(p.continuous_id, p.order), p.model_patch]),
  );
  const logs = new Map(rows.map((r) => [bugKey(r.continuousId, r.order), { log: r.log, modelPatch: patches.get(bugKey(r.continuousId, r.order)) ?? "" }]));
  const name = sub.datasetVersion.version;
  // the run's population (the Mini split's chains on a Mini submission): what verify recomputes the scores over
  const population = new Set(run.summary.dataset.chains.map((c) => c.continuous_id));
  const chains = (await getChains(name)).filter((c) => population.has(c.continuous_id));
  const graded = new Set(run.bugs.map((b) => b.continuous_id));
  const files = bundleFiles({
    summary,
    bugs: run.bugs,
    logs,
    predictionsJsonl: predictions,
    datasetJsonl: chains.map((c) => `${JSON.stringify(c)}\n`).join(""),
    datasetName: run.summary.dataset.path,
    images: await imageFacts(chains.filter((c) => graded.has(c.continuous_id)).map((c) => c.docker_image)),
  });
  return { filename: `chainswe-${id.replace(/[^A-Za-z0-9._-]/g, "_")}.bundle.tar.gz`, archive: await bundleArchive(files) };
}
