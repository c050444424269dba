/**
 * A bundle of an evaluation directory (`chainswe bundle DIR`): its results,
 * summary and logs, the dataset and predictions files the run named (checked
 * against the sha256 summary.json recorded), and the images' facts.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { sha256File, loadDataset } from "@/evaluator/dataset";
import { bugLogDir, loadRunResults } from "@/evaluator/replay/output";
import { InputError } from "@/core/errors";
import { bugKey, bundleFiles } from "./bundle";
import { imageFacts } from "./environment";

const readOrNull = (path: string) => readFile(path, "utf8").catch(() => null);

/** The run's file (dataset or predictions) as summary.json names it, or as given; its sha256 must be the recorded one. */
async function runFile(what: "dataset" | "predictions", recorded: { path: string; sha256: string }, given: string | undefined): Promise<string> {
  const path = given ?? recorded.path;
  const hash = await sha256File(path).catch(() => null);
  if (hash === null) throw new InputError("bundle", [{ line: 0, field: `--${what}`, message: `${path} cannot be read; give the run's ${what} file with --${what}` }]);
  if (hash !== recorded.sha256) throw new InputError("bundle", [{ line: 0, field: `--${what}`, message: `${path} is not the ${what} file this run used (its sha256 differs from summary.json's)` }]);
  return readFile(path, "utf8");
}

export async function bundleFromDir(dir: string, opts: { dataset?: string; predictions?: string } = {}): Promise<Map<string, Buffer>> {
  const { summary, bugs } = await loadRunResults(dir);
  const datasetJsonl = await runFile("dataset", summary.dataset, opts.dataset);
  const predictionsJsonl = await runFile("predictions", summary.predictions, opts.predictions);
  const dataset = await loadDataset(opts.dataset ?? summary.dataset.path);
  const logs = new Map<string, { log: string | null; modelPatch: string }>();
  for (const b of bugs) {
    const d = bugLogDir(dir, b.continuous_id, b.order);
    logs.set(bugKey(b.continuous_id, b.order), { log: await readOrNull(join(d, "test_output.txt")), modelPatch: (await readOrNull(join(d, "model.patch"))) ?? "" });
  }
  const graded = new Set(bugs.map((b) => b.continuous_id));
  const images = await imageFacts(dataset.chains.filter((c) => graded.has(c.continuous_id)).map((c) => c.docker_image));
  return bundleFiles({ summary, bugs, logs, predictionsJsonl, datasetJsonl, datasetName: summary.dataset.path, images });
}
