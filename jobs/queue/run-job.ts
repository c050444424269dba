/**
 * One claimed job, start to end: load the chain and the submission's
 * predictions, replay the chain in one sandbox while heartbeating the lease
 * (and recording each bug's verdict as it lands, progress.ts), hand the graded
 * bugs in. Like graphile-worker's worker, a claimed job always
 * ends as complete or fail (or, when the pool stops, is released); the only
 * exception is a database that cannot be written, and then the lease runs out
 * and another worker claims the job again.
 */
import { replayInSandbox, type BugArtifacts } from "@/evaluator/replay";
import { ChainStop } from "@/evaluator/replay/chain-stop";
import type { SandboxLimits } from "@/evaluator/sandbox";
import { DatasetError, coerceError } from "@/core/errors";
import { completeJob } from "./complete";
import { failJob, releaseJob } from "./fail";
import { heartbeatJob } from "./heartbeat";
import { keepLease } from "./keep-lease";
import type { ClaimedJob, QueueLoaders, QueuePolicy } from "./payload";
import { recordBugProgress } from "./progress";
import { jobSandboxLabels } from "./reap";

/**
 * The submission's last chain landed: its scores and chain-error analyses are
 * computed now, once, not on each page view. A failure here loses no result
 * (`chainswe aggregates refresh` recomputes), so it is logged, not retried.
 */
export async function storeAggregates(submissionId: string, loaders: QueueLoaders, log: (line: string) => void): Promise<void> {
  try {
    const r = await loaders.aggregates(submissionId);
    log(`submission ${submissionId} completed: scores stored${r.analyses ? `, ${r.analyses} chain-error analysis(es)` : ""}`);
  } catch (e) {
    log(`submission ${submissionId}: computing its aggregates failed (run chainswe aggregates refresh): ${coerceError(e).stack}`);
  }
}

export type ChainRunContext = { policy: QueuePolicy; limits: SandboxLimits; loaders: QueueLoaders; log: (line: string) => void };

/** Why a run stopped before its chain was graded. */
type AbortReason = "lease_lost" | "released";

export class ChainRun {
  private readonly stopper = new ChainStop<AbortReason>();

  constructor(
    readonly job: ClaimedJob,
    private readonly ctx: ChainRunContext,
  ) {}

  private get name(): string {
    const { payload, attempts } = this.job;
    return `${payload.continuousId} (${payload.mode}, job ${this.job.jobId}, attempt ${attempts})`;
  }

  /**
   * Stops the chain now: its container goes, so the replay's next exec fails.
   * "released" gives the job back to the queue; "lease_lost" drops the work.
   */
  abort(reason: AbortReason): void {
    this.stopper.stop(reason);
  }

  /** Heartbeats every third of the lease; losing the lease aborts the run. */
  private keepLease(): () => void {
    const { jobId, leaseOwner } = this.job;
    return keepLease({
      leaseMs: this.ctx.policy.leaseMs,
      beat: () => heartbeatJob({ jobId, workerId: leaseOwner, leaseMs: this.ctx.policy.leaseMs }),
      lost: () => {
        this.ctx.log(`${this.name}: lease lost (taken over or cancelled); stopping the chain`);
        this.abort("lease_lost");
      },
      log: (line) => this.ctx.log(`${this.name}: ${line}`),
    });
  }

  private async grade(): Promise<BugArtifacts[]> {
    const { payload } = this.job;
    const chain = await this.ctx.loaders.chain(payload.datasetVersion, payload.continuousId);
    if (!chain) throw new DatasetError(`no chain ${payload.continuousId} in dataset version ${payload.datasetVersion}`, payload.continuousId);
    const predictions = await this.ctx.loaders.predictions(payload.submissionId, payload.continuousId);
    return replayInSandbox({
      input: { chain, mode: payload.mode, system: payload.system, predictions, testEdits: payload.testEdits },
      limits: this.ctx.limits,
      labels: jobSandboxLabels(this.job),
      onBug: (a) => this.bugGraded(a),
      onSandbox: this.stopper.attach,
      checkStopped: this.stopper.throwIfStopped,
      log: (line) => this.ctx.log(`${this.name}: ${line}`),
    });
  }

  /** Shows the bug on the submission page at once; a lost lease stops the chain (the write is refused). */
  private async bugGraded(a: BugArtifacts): Promise<void> {
    const { order, resolved, fingerprint } = a.bug;
    this.ctx.log(`${this.name}: bug ${order} ${resolved ? "resolved" : `unresolved (${fingerprint})`}`);
    const { jobId, leaseOwner } = this.job;
    try {
      if (!(await recordBugProgress({ jobId, workerId: leaseOwner, bug: { order, resolved, fingerprint } }))) {
        this.ctx.log(`${this.name}: lease lost (taken over, cancelled or re-run); stopping the chain`);
        this.abort("lease_lost");
      }
    } catch (e) {
      // progress is for display: a failed write must not cost the chain its grade
      this.ctx.log(`${this.name}: recording progress failed: ${coerceError(e).message}`);
    }
  }

  /** Ends an attempt that did not hand in results: released, dropped, or failed (retried or not). */
  private async endWithout(error: unknown): Promise<void> {
    const { jobId, leaseOwner } = this.job;
    if (this.stopper.reason === "released") {
      const released = await releaseJob({ jobId, workerId: leaseOwner, reason: "the worker stopped" });
      this.ctx.log(`${this.name}: ${released ? "released back to the queue" : "not released (no longer ours)"}`);
      return;
    }
    const outcome = await failJob({ jobId, workerId: leaseOwner, error, policy: this.ctx.policy });
    if (!outcome) this.ctx.log(`${this.name}: no longer ours; nothing recorded (${coerceError(error).message.split("\n")[0]})`);
    else if (outcome.status === "failed") this.ctx.log(`${this.name}: failed: ${outcome.lastError}`);
    else this.ctx.log(`${this.name}: will retry after ${outcome.runAfter.toISOString()}: ${outcome.lastError.split("\n")[0]}`);
  }

  /** Runs the job to its end. Never throws: every failure is recorded on the job or logged. */
  async run(): Promise<void> {
    this.ctx.log(`${this.name}: claimed`);
    const stopBeating = this.keepLease();
    try {
      let bugs: BugArtifacts[];
      try {
        bugs = await this.grade();
      } catch (e) {
        return await this.endWithout(e);
      } finally {
        stopBeating();
      }
      const { jobId, leaseOwner } = this.job;
      try {
        const done = await completeJob({ jobId, workerId: leaseOwner, bugs });
        const resolved = bugs.filter((a) => a.bug.resolved).length;
        this.ctx.log(done.accepted ? `${this.name}: done, ${resolved}/${bugs.length} resolved` : `${this.name}: no longer ours; results discarded`);
        if (done.accepted && done.submissionStatus === "completed") await storeAggregates(done.submissionId, this.ctx.loaders, this.ctx.log);
      } catch (e) {
        await this.endWithout(e);
      }
    } catch (e) {
      this.ctx.log(`${this.name}: could not record the outcome (the lease will run out and the job be retried): ${coerceError(e).stack}`);
    }
  }
}
