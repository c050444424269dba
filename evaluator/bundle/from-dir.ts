/**
 * A bundle of an evaluation directory (`chainswe bundle DIR`): its results,
 * summary and logs, the dataset and predictions files the run named (checked
 * against the sha256 summary.json recorded), and the images' facts.
 */
import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { sha256File, loadDataset } from "@/evaluator/dataset";
import { bugLogDir, loadRunResults } from "@/evaluator/replay/output";
import { InputError } from "@/core/errors";
import { runWithout } from "@/core/dataset/held-out";
import { bugKey, bundleFiles, environmentSchema, sha256 } from "./bundle";
import { imageFacts } from "./environment";

const readOrNull = (path: string) => readFile(path, "utf8").catch(() => null);

const exists = (path: string) => stat(path).then((s) => s.isFile(), () => false);

/**
 * The run's file (dataset or predictions): as given, else as summary.json names it, else
 * the copy beside it (`dataset.jsonl`, `predictions.jsonl` in an extracted bundle, whose
 * summary names a dataset version and a submission, not files). Its sha256 must be one
 * the run recorded: summary.json's, or for an extracted bundle's dataset.jsonl (the
 * version's records, not the file it was imported from) environment.json's.
 */
async function runFile(dir: string, what: "dataset" | "predictions", recorded: { path: string; sha256: string }, also: string[], given: string | undefined): Promise<{ path: string; text: string }> {
  const beside = join(dir, `${what}.jsonl`);
  const path = given ?? ((await exists(recorded.path)) || !(await exists(beside)) ? recorded.path : beside);
  const hash = await sha256File(path).catch(() => null);
  if (hash === null) throw new InputError("bundle", [{ line: 0, field: `--${what}`, message: `${path} cannot be read; give the run's ${what} file with --${what}` }]);
  if (hash !== recorded.sha256 && !also.includes(hash)) {
    throw new InputError("bundle", [{ line: 0, field: `--${what}`, message: `${path} is not the ${what} file this run used (its sha256 differs from summary.json's)` }]);
  }
  return { path, text: await readFile(path, "utf8") };
}

/** The sha256 environment.json records for the dataset of an extracted bundle, if `dir` is one. */
async function bundledDatasetSha256(dir: string): Promise<string[]> {
  const text = await readOrNull(join(dir, "environment.json"));
  if (text === null) return [];
  try {
    return [environmentSchema.parse(JSON.parse(text)).dataset.sha256];
  } catch {
    return [];
  }
}

/** The predictions of the chains not `hidden`, as JSON Lines (from JSON Lines or a JSON array). */
function publicPredictions(text: string, hidden: ReadonlySet<string>): string {
  const trimmed = text.trim();
  const records: unknown[] = trimmed.startsWith("[") ? (JSON.parse(trimmed) as unknown[]) : trimmed.split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l) as unknown);
  return records
    .filter((r) => !hidden.has(String((r as { continuous_id?: unknown }).continuous_id)))
    .map((r) => `${JSON.stringify(r)}\n`)
    .join("");
}

/**
 * `heldOut`: the version's held-out chains (SPEC §8), left out as the portal's
 * bundle leaves them out for all but reviewers: the bundle is then the run over
 * the public chains (its population, results, logs, dataset and predictions),
 * and verifies as such. Each must be a chain of the run's dataset. A reviewer's
 * bundle names none.
 */
export async function bundleFromDir(dir: string, opts: { dataset?: string; predictions?: string; heldOut?: string[] } = {}): Promise<Map<string, Buffer>> {
  const run = await loadRunResults(dir);
  const datasetFile = await runFile(dir, "dataset", run.summary.dataset, await bundledDatasetSha256(dir), opts.dataset);
  const dataset = await loadDataset(datasetFile.path);
  const hidden = new Set(opts.heldOut ?? []);
  const unknown = [...hidden].filter((id) => !dataset.chains.some((c) => c.continuous_id === id));
  if (unknown.length) throw new InputError("bundle", unknown.map((id) => ({ line: 0, field: "--held-out", message: `no chain ${id} in ${datasetFile.path}` })));
  const { summary: ran, bugs } = runWithout(run, hidden);
  // left as they are without held-out chains: the run's own files, byte for byte
  const datasetJsonl = hidden.size ? dataset.chains.filter((c) => !hidden.has(c.continuous_id)).map((c) => `${JSON.stringify(c)}\n`).join("") : datasetFile.text;
  const predictionsText = (await runFile(dir, "predictions", run.summary.predictions, [], opts.predictions)).text;
  const predictionsJsonl = hidden.size ? publicPredictions(predictionsText, hidden) : predictionsText;
  // as the portal's bundle records it: the sha256 of the predictions it holds, so the extracted bundle bundles again
  const summary = hidden.size ? { ...ran, predictions: { ...ran.predictions, sha256: sha256(predictionsJsonl) } } : ran;
  const logs = new Map<string, { log: string | null; modelPatch: string }>();
  for (const b of bugs) {
    const d = bugLogDir(dir, b.continuous_id, b.order);
    logs.set(bugKey(b.continuous_id, b.order), { log: await readOrNull(join(d, "test_output.txt")), modelPatch: (await readOrNull(join(d, "model.patch"))) ?? "" });
  }
  const graded = new Set(bugs.map((b) => b.continuous_id));
  const images = await imageFacts(dataset.chains.filter((c) => graded.has(c.continuous_id)).map((c) => c.docker_image));
  return bundleFiles({ summary, bugs, logs, predictionsJsonl, datasetJsonl, datasetName: summary.dataset.path, images });
}
