/**
 * Upload checks on a worker thread (upload-thread.mjs): loadPredictions, and
 * the trajectories archive's reading and scan (runOffThread). Checking an
 * upload is CPU-bound (JSON.parse of lines or of a whole array, the schema,
 * the diffs; every log's timeline and shortcut scan), and on the request
 * thread one hostile 100 MB file stalled every other request for the whole
 * check. The thread's heap is capped, so a file built to blow up when parsed
 * is refused (FieldError) instead of taking the site's memory.
 */
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { FieldError, InputError, LimitError, type InputIssue } from "@/core/errors";
import type { Chain } from "@/core/schemas/dataset";
import type { PredictionLimits, Predictions } from "@/evaluator/dataset/predictions";

/** The checking thread's old-generation heap: ample for 100 MB of real predictions (patches are strings). */
export const CHECK_HEAP_MB = 1024;

type Reply = { id: number } & (
  | { ok: true; value: unknown }
  | { ok: false; kind: "input"; source: string; issues: InputIssue[] }
  | { ok: false; kind: "field"; field: string; message: string }
  | { ok: false; kind: "limit"; message: string; status: 413 | 429; field?: string }
  | { ok: false; kind: "other"; message: string }
);

// the server bundle has no stable import.meta.url; the site runs from the repository root (deploy/Dockerfile, scripts/demo.sh)
// (turbopackIgnore: the bundler must not try to bundle the thread's entry; it runs from source through tsx)
const entry = () => join(/*turbopackIgnore: true*/ process.cwd(), "lib", "submissions", "upload-thread.mjs");

function fromReply(reply: Reply): unknown {
  if (reply.ok) return reply.value;
  switch (reply.kind) {
    case "input":
      throw new InputError(reply.source, reply.issues);
    case "field":
      throw new FieldError(reply.field, reply.message);
    case "limit":
      throw new LimitError(reply.message, reply.status, reply.field);
    case "other":
      throw new Error(`checking the upload failed: ${reply.message}`);
  }
}

type Pending = { resolve: (value: unknown) => void; reject: (e: unknown) => void; field: string };

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

  /** `field`: the upload's part a check that runs out of memory is blamed on */
  run(task: UploadTask, args: unknown, field: string): Promise<unknown> {
    const worker = this.worker ?? this.start();
    const id = this.nextId++;
    return new Promise<unknown>((resolve, reject) => {
      this.pending.set(id, { resolve, reject, field });
      worker.ref(); // a check in flight keeps the process alive
      worker.postMessage({ id, task, args });
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
        const hint = p.field === "predictions" ? ": send JSON Lines, one prediction per line" : "";
        p.reject(oom ? new FieldError(p.field, `too costly to check (over ${this.heapMb} MB of memory)${hint}`) : e);
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

/** The checks the thread runs (upload-thread.mjs TASKS). */
export type UploadTask = "predictions" | "trajectories" | "chains";

/** Runs one of the thread's checks with its arguments (structured-cloned); the caller's thread stays free for other requests. */
export function runOffThread(task: UploadTask, args: unknown, field: string, heapMb = CHECK_HEAP_MB): Promise<unknown> {
  let thread = threads.get(heapMb);
  if (!thread) threads.set(heapMb, (thread = new CheckingThread(heapMb)));
  return thread.run(task, args, field);
}

/**
 * As loadPredictions, run on a worker thread with a capped heap. With
 * `stageTo` (a database URL), the thread writes the large patches there
 * (Predictions.stagedPatches) instead of cloning them back to this thread.
 */
export async function loadPredictionsOffThread(path: string, chains: Chain[], limits: PredictionLimits = {}, opts: { heapMb?: number; stageTo?: string } = {}): Promise<Predictions> {
  return (await runOffThread("predictions", { path, chains, limits, stageTo: opts.stageTo }, "predictions", opts.heapMb ?? CHECK_HEAP_MB)) as Predictions;
}
