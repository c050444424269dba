/**
 * One chain job taken from Redis: replayed in this worker's sandboxes and
 * answered with one report — graded, failed, or released when it was stopped
 * (the site's abort key, or this worker stopping). Progress reports are for
 * display only.
 */
import { QUEUE_LABEL } from "@/jobs/queue/labels";
import { replayInSandbox, type BugArtifacts } from "@/evaluator/replay";
import { ChainStop } from "@/evaluator/replay/chain-stop";
import type { SandboxLimits } from "@/evaluator/sandbox";
import { toWireError, type ChainJob, type Report } from "../protocol";
import { WORKER_LABEL } from "./presence";

/** A chain being replayed here, stoppable by the site (its abort key) or by this worker's stop. */
export class Replay extends ChainStop {
  constructor(readonly job: ChainJob) {
    super();
  }
}

export type ReplayContext = {
  workerId: string;
  queueId: string;
  limits: SandboxLimits;
  report: (r: Report) => Promise<void>;
  log: (line: string) => void;
};

export async function replayJob(replay: Replay, o: ReplayContext): Promise<void> {
  const { job } = replay;
  const name = `${job.chain.continuous_id} (${job.mode}, job ${job.jobId}, attempt ${job.attempts})`;
  const lease = { jobId: job.jobId, leaseOwner: job.leaseOwner };
  o.log(`${name}: taken`);
  try {
    const bugs = await replayInSandbox({
      input: {
        chain: job.chain,
        mode: job.mode,
        system: job.system,
        testEdits: job.testEdits,
        // the dispatcher sends every prediction with its order (0 would match no bug: orders start at 1)
        predictions: new Map(job.predictions.map((p) => [p.order ?? 0, p])),
      },
      limits: o.limits,
      labels: {
        [QUEUE_LABEL]: o.queueId,
        "chainswe.job": job.jobId,
        "chainswe.lease": job.leaseOwner,
        "chainswe.submission": job.submissionId,
        "chainswe.chain": job.chain.continuous_id,
        "chainswe.mode": job.mode,
        [WORKER_LABEL]: o.workerId,
      },
      onBug: async (a: BugArtifacts) => {
        const { order, resolved, fingerprint } = a.bug;
        o.log(`${name}: bug ${order} ${resolved ? "resolved" : `unresolved (${fingerprint})`}`);
        // display only: a lost progress report costs nothing
        await o.report({ kind: "progress", ...lease, bug: { order, resolved, fingerprint } }).catch(() => {});
      },
      onSandbox: replay.attach,
      checkStopped: replay.throwIfStopped,
      log: (line) => o.log(`${name}: ${line}`),
    });
    await o.report({ kind: "graded", ...lease, workerId: o.workerId, bugs });
    o.log(`${name}: done, ${bugs.filter((b) => b.bug.resolved).length}/${bugs.length} resolved`);
  } catch (e) {
    if (replay.reason) {
      await o.report({ kind: "released", ...lease, workerId: o.workerId, reason: replay.reason });
      o.log(`${name}: released (${replay.reason})`);
    } else {
      const error = toWireError(e, job.chain.continuous_id);
      await o.report({ kind: "failed", ...lease, workerId: o.workerId, error });
      o.log(`${name}: failed: ${error.kind} error: ${error.message.split("\n")[0]}`);
    }
  }
}
