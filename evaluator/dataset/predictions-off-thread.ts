/**
 * loadPredictions on a worker thread: checking an upload is
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

type Reply = { id: number } & (
  | { ok: true; predictions: Predictions }
  | { ok: false; kind: "input"; source: string; issues: InputIssue[] }
  | { ok: false; kind: "limit"; message: string; status: 413 | 429; field?: string }
  | { ok: false; kind: "other"; message: string }
);

// the server bundle has no stable import.meta.url; the site runs from the repository root (deploy/Dockerfile, scripts/demo.sh)
// (turbopackIgnore: the bundler must not try to bundle the thread's entry; it runs from source through tsx)
const entry = () => join(/*turbopackIgnore: true*/ process.cwd(), "evaluator", "dataset", "predictions-thread.mjs");

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

type Pending = { resolve: (p: Predictions) => void; reject: (e: unknown) => void };

/**
 * One checking thread per heap size, started on first use and kept (starting
 * one compiles the checker: seconds). Checks queue on it one at a time, which
 * also bounds the memory uploads can take together. A thread that dies (out
 * of memory) fails what it held and is replaced on the next check.
 */
class CheckingThread {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  constructor(private readonly heapMb: number) {}

  check(path: string, chains: Chain[], limits: PredictionLimits): Promise<Predictions> {
    const worker = this.worker ?? this.start();
    const id = this.nextId++;
    return new Promise<Predictions>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.ref(); // a check in flight keeps the process alive
      worker.postMessage({ id, path, chains, limits });
    });
  }

  private start(): Worker {
    const worker = new Worker(/*turbopackIgnore: true*/ entry(), { resourceLimits: { maxOldGenerationSizeMb: this.heapMb } });
    worker.unref();
    worker.on("message", (m: Reply | { ready: true }) => {
      if (!("id" in m)) return;
      const p = this.pending.get(m.id);
      this.pending.delete(m.id);
      if (this.pending.size === 0) worker.unref();
      try {
        p?.resolve(fromReply(m));
      } catch (e) {
        p?.reject(e);
      }
    });
    const fail = (e: unknown) => {
      if (this.worker === worker) this.worker = null;
      const oom = (e as { code?: string } | null)?.code === "ERR_WORKER_OUT_OF_MEMORY";
      for (const p of this.pending.values()) {
        p.reject(oom ? new FieldError("predictions", `too costly to check (over ${this.heapMb} MB of memory): send JSON Lines, one prediction per line`) : e);
      }
      this.pending.clear();
    };
    worker.on("error", fail);
    worker.on("exit", (code) => fail(new Error(`the checking thread exited (${code})`)));
    this.worker = worker;
    return worker;
  }
}

const threads = new Map<number, CheckingThread>();

/** As loadPredictions, run on a worker thread with a capped heap; the caller's thread stays free for other requests. */
export function loadPredictionsOffThread(path: string, chains: Chain[], limits: PredictionLimits = {}, heapMb = CHECK_HEAP_MB): Promise<Predictions> {
  let thread = threads.get(heapMb);
  if (!thread) threads.set(heapMb, (thread = new CheckingThread(heapMb)));
  return thread.check(path, chains, limits);
}
