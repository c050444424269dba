// The worker thread that checks an upload (evaluator/dataset/predictions-off-thread.ts):
// plain JS so it starts in any runtime, then tsx for the TypeScript it runs.
import { parentPort, workerData } from "node:worker_threads";
import { register } from "tsx/esm/api";
import { fileURLToPath } from "node:url";

const root = new URL("../../", import.meta.url);
register({ tsconfig: fileURLToPath(new URL("tsconfig.json", root)) });
const { loadPredictions } = await import(new URL("evaluator/dataset/predictions.ts", root).href);
const { InputError, LimitError } = await import(new URL("lib/errors.ts", root).href);

const { path, chains, limits } = workerData;
try {
  parentPort.postMessage({ ok: true, predictions: await loadPredictions(path, chains, limits) });
} catch (e) {
  if (e instanceof InputError) parentPort.postMessage({ ok: false, kind: "input", source: e.source, issues: e.issues });
  else if (e instanceof LimitError) parentPort.postMessage({ ok: false, kind: "limit", message: e.message, status: e.status, field: e.field });
  else parentPort.postMessage({ ok: false, kind: "other", message: e instanceof Error ? e.message : String(e) });
}
