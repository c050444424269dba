/**
 * `chainswe verify --replay`: the bundle's predictions replayed in Docker over
 * its dataset records, for the chains whose images this engine has, and every
 * verdict compared with results.jsonl. Chains whose image is absent are
 * reported as skipped, not as disagreements.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadDataset, loadPredictions } from "@/evaluator/dataset";
import { evaluate } from "@/evaluator/replay";
import { readResults } from "@/evaluator/replay/output";
import { assertEngine, defaultLimits, imageExists } from "@/evaluator/sandbox";
import { gradedBugSchema, runSummarySchema } from "@/core/schemas/results";
import type { BundleProblem } from "./verify";

export type ReplayCheck = { replayed: string[]; skipped: string[]; problems: BundleProblem[] };

export async function replayBundle(files: Map<string, Buffer>): Promise<ReplayCheck> {
  const predictions = files.get("predictions.jsonl");
  const dataset = files.get("dataset.jsonl");
  const summaryFile = files.get("summary.json");
  if (!predictions || !dataset || !summaryFile) {
    return { replayed: [], skipped: [], problems: [{ file: predictions ? "dataset.jsonl" : "predictions.jsonl", problem: "missing: a replay needs the predictions, the dataset and summary.json (a bundle with its patches withheld cannot be replayed)" }] };
  }
  await assertEngine();
  const summary = runSummarySchema.parse(JSON.parse(summaryFile.toString("utf8")));
  const stored = (files.get("results.jsonl")?.toString("utf8") ?? "").split("\n").filter((l) => l.trim()).map((l) => gradedBugSchema.parse(JSON.parse(l)));
  const work = await mkdtemp(join(tmpdir(), "chainswe-verify-"));
  try {
    await writeFile(join(work, "dataset.jsonl"), dataset);
    await writeFile(join(work, "predictions.jsonl"), predictions);
    const ds = await loadDataset(join(work, "dataset.jsonl"));
    const graded = new Set(stored.map((b) => b.continuous_id));
    const chains = ds.chains.filter((c) => graded.has(c.continuous_id));
    const present = await Promise.all(chains.map((c) => imageExists(c.docker_image)));
    const replayed = chains.filter((_, i) => present[i]).map((c) => c.continuous_id);
    const skipped = chains.filter((_, i) => !present[i]).map((c) => `${c.continuous_id} (image ${c.docker_image} not here)`);
    const problems: BundleProblem[] = [];
    if (replayed.length > 0) {
      const out = join(work, "run");
      const preds = await loadPredictions(join(work, "predictions.jsonl"), ds.chains);
      await evaluate({ dataset: ds, predictions: preds, mode: summary.mode, outDir: out, system: summary.system, concurrency: 1, chainIds: replayed, limits: defaultLimits({ testTimeoutS: summary.limits.test_timeout_s }) });
      const again = new Map((await readResults(out)).map((b) => [`${b.continuous_id}/${b.order}`, b]));
      for (const b of stored.filter((s) => replayed.includes(s.continuous_id))) {
        const r = again.get(`${b.continuous_id}/${b.order}`);
        if (!r) problems.push({ file: "results.jsonl", problem: `${b.continuous_id} bug ${b.order}: the replay graded no such bug` });
        else if (r.resolved !== b.resolved || r.fingerprint !== b.fingerprint) {
          problems.push({ file: "results.jsonl", problem: `${b.continuous_id} bug ${b.order}: replayed ${r.resolved ? "RESOLVED" : `UNRESOLVED (${r.fingerprint})`}, stored ${b.resolved ? "RESOLVED" : `UNRESOLVED (${b.fingerprint})`}` });
        }
      }
    }
    return { replayed, skipped, problems };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
