// The worker thread that checks uploads (lib/submissions/predictions-off-thread.ts):
// plain JS so it starts in any runtime, then tsx for the TypeScript it runs. One
// check at a time; each request carries an id its reply echoes, and names its task:
// "predictions" (loadPredictions), "chains" (loadDataset, a chain proposal) or "trajectories" (a trajectories archive read
// and checked, lib/submissions/trajectories.ts).
import { parentPort } from "node:worker_threads";
import { register } from "tsx/esm/api";
import { fileURLToPath } from "node:url";

const root = new URL("../../", import.meta.url);
register({ tsconfig: fileURLToPath(new URL("tsconfig.json", root)) });
const { loadPredictions } = await import("../../evaluator/dataset/predictions.ts");
const { loadDataset } = await import("../../evaluator/dataset/dataset.ts");
const { readTrajectoryArchive, checkTrajectories } = await import("./trajectories.ts");
const { FieldError, InputError, LimitError } = await import("../../core/errors.ts");

const { stageTexts } = await import("./staged-texts.ts");

// `stageTo` (a database URL): the upload's large texts are written there from this thread and handed back as
// where they are (lib/submissions/staged-texts.ts), not cloned back to the answering thread
const TASKS = {
  // a chain proposal's file (lib/proposals/intake.ts): the dataset loader, every bad record named
  chains: async ({ path }) => {
    const { chains, lines, warnings, sha256 } = await loadDataset(path);
    return { chains, lines, warnings, sha256 };
  },
  predictions: async ({ path, chains, limits, stageTo }) => {
    const predictions = await loadPredictions(path, chains, limits);
    if (!stageTo) return predictions;
    const lines = [...predictions.byChain].flatMap(([chain, bugs]) => [...bugs].map(([order, line]) => ({ key: `${chain}\u0000${order}`, line })));
    const staged = await stageTexts(stageTo, lines.map((l) => l.line.model_patch));
    predictions.stagedPatches = {};
    lines.forEach(({ key, line }, i) => {
      if (typeof staged[i] === "string") return;
      predictions.stagedPatches[key] = staged[i].staged;
      line.model_patch = "";
    });
    return predictions;
  },
  trajectories: async ({ path, name, maxBytes, chains, chainIds, version, stageTo }) => {
    const checked = checkTrajectories(await readTrajectoryArchive(path, name, maxBytes), chains, chainIds, version);
    if (!stageTo) return checked;
    const logs = await stageTexts(stageTo, checked.rows.map((r) => r.log));
    checked.rows.forEach((row, i) => (row.log = logs[i]));
    return checked;
  },
};

parentPort.on("message", async ({ id, task, args }) => {
  try {
    parentPort.postMessage({ id, ok: true, value: await TASKS[task](args) });
  } catch (e) {
    if (e instanceof InputError) parentPort.postMessage({ id, ok: false, kind: "input", source: e.source, issues: e.issues });
    else if (e instanceof LimitError) parentPort.postMessage({ id, ok: false, kind: "limit", message: e.message, status: e.status, field: e.field });
    else if (e instanceof FieldError) parentPort.postMessage({ id, ok: false, kind: "field", field: e.field, message: e.message.slice(e.field.length + 2) });
    else parentPort.postMessage({ id, ok: false, kind: "other", message: e instanceof Error ? e.message : String(e) });
  }
});
parentPort.postMessage({ ready: true });
