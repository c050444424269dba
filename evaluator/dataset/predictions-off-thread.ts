/**
 * loadPredictions on a worker thread (issue 15): checking an upload is
 * CPU-bound (JSON.parse of lines or of a whole array, the schema, the diffs),
 * and on the request thread one hostile 100 MB file stalled every other
 * request for the whole check. The thread's heap is capped, so a file built to
 * blow up when parsed is refused (FieldError) instead of taking the site's memory.
 */
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { FieldError, InputError, LimitError, type InputIssue } from "@/lib/errors";
import type { Chain } from "@/lib/schemas/dataset";
import type { PredictionLimits, Predictions } from "./predictions";

/** The checking thread's old-generation heap: ample for 100 MB of real predictions (patches are strings). */
export const CHECK_HEAP_MB = 1024;

type Reply =
  | { ok: true; predictions: Predictions }
  | { ok: false; kind: "input"; source: string; issues: InputIssue[] }
  | { ok: false; kind: "limit"; message: string; status: 413 | 429; field?: string }
  | { ok: false; kind: "other"; message: string };

// the server bundle has no stable import.meta.url; the site runs from the repository root (deploy/Dockerfile, scripts/demo.sh)
const entry = () => join(process.cwd(), "evaluator/dataset/predictions-thread.mjs");

function fromReply(reply: Reply): Predictions {
  if (reply.ok) return reply.predictions;
  switch (reply.kind) {
    case "input":
      throw new InputError(reply.source, reply.issues);
    case "limit":
      throw new LimitError(reply.message, reply.status, reply.field);
    case "other":
      throw new Error(`checking the predictions failed: ${reply.message}`);
  }
}

/** As loadPredictions, run on a worker thread with a capped heap; the caller's thread stays free for other requests. */
export function loadPredictionsOffThread(path: string, chains: Chain[], limits: PredictionLimits = {}, heapMb = CHECK_HEAP_MB): Promise<Predictions> {
  return new Promise<Predictions>((resolve, reject) => {
    let reply: Reply | null = null;
    const worker = new Worker(entry(), { workerData: { path, chains, limits }, resourceLimits: { maxOldGenerationSizeMb: heapMb } });
    worker.once("message", (m: Reply) => (reply = m));
    worker.once("error", (e: Error & { code?: string }) => {
      if (e.code === "ERR_WORKER_OUT_OF_MEMORY") {
        reject(new FieldError("predictions", `too costly to check (over ${heapMb} MB of memory): send JSON Lines, one prediction per line, not one huge array or object`));
      } else reject(e);
    });
    worker.once("exit", () => {
      if (!reply) return; // the error handler answered
      try {
        resolve(fromReply(reply));
      } catch (e) {
        reject(e);
      }
    });
  });
}
