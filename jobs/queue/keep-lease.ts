/**
 * Heartbeats a claimed job's lease every third of it while the job runs, for
 * an evaluation (run-job.ts) and a validation (jobs/validation) alike. A beat
 * that finds the lease gone calls `lost` (the run stops); one that fails is
 * logged and tried again at the next beat (the lease may well still hold).
 */
import { coerceError } from "@/core/errors";

export type LeaseKeeping = {
  leaseMs: number;
  /** extends the lease; false when the caller no longer owns the job */
  beat: () => Promise<boolean>;
  lost: () => void;
  log: (line: string) => void;
};

/** Starts beating; answers the function that stops. */
export function keepLease(o: LeaseKeeping): () => void {
  let beating = false;
  const timer = setInterval(() => {
    if (beating) return;
    beating = true;
    o.beat()
      .then((owned) => {
        if (!owned) o.lost();
      })
      .catch((e: unknown) => o.log(`heartbeat failed: ${coerceError(e).message}`))
      .finally(() => (beating = false));
  }, Math.max(250, Math.floor(o.leaseMs / 3)));
  return () => clearInterval(timer);
}
