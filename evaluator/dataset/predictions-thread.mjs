// The worker thread that checks uploads (evaluator/dataset/predictions-off-thread.ts):
// plain JS so it starts in any runtime, then tsx for the TypeScript it runs. One
// check at a time; each request carries an id its reply echoes.
import { parentPort } from "node:worker_threads";
import { register } from "tsx/esm/api";
import { fileURLToPath } from "node:url";

const root = new URL("../../", import.meta.url);
register({ tsconfig: fileURLToPath(new URL("tsconfig.json", root)) });
const { loadPredictions } = await import(new URL("evaluator/dataset/predictions.ts", root).href);
const { InputError, LimitError } = await import(new URL("lib/errors.ts", root).href);

parentPort.on("message", async ({ id, path, chains, limits }) => {
  try {
    parentPort.postMessage({ id, ok: true, predictions: await loadPredictions(path, chains, limits) });
  } catch (e) {
    if (e instanceof InputError) parentPort.postMessage({ id, ok: false, kind: "input", source: e.source, issues: e.issues });
    else if (e instanceof LimitError) parentPort.postMessage({ id, ok: false, kind: "limit", message: e.message, status: e.status, field: e.field });
    else parentPort.postMessage({ id, ok: false, kind: "other", message: e instanceof Error ? e.message : String(e) });
  }
});
parentPort.postMessage({ ready: true });
