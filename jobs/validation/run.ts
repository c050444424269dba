/**
 * One claimed validation, start to end (SPEC §8): the proposed chain's gold
 * patches replayed in Oracle order `runs` times, each in a fresh sandbox of
 * the queue (replayInSandbox, as an evaluation), while the lease is
 * heartbeated; then the verdict (core/dataset/proposal-validation.ts) handed
 * in. A test patch that does not apply is the replay's DatasetError: a
 * refusal naming the bug, not a failure. Anything else is a failed attempt,
 * retried as an evaluation's would be. Never throws.
 */
import { replayInSandbox } from "@/evaluator/replay";
import { ChainStop } from "@/evaluator/replay/chain-stop";
import { GOLD_SYSTEM, goldPredictionLines } from "@/evaluator/replay/gold";
import type { SandboxLimits } from "@/evaluator/sandbox";
import { DatasetError, coerceError } from "@/core/errors";
import { judgeProposedChain } from "@/core/dataset/proposal-validation";
import type { GradedBug } from "@/core/schemas/results";
import { keepLease } from "@/jobs/queue/keep-lease";
import { validationSandboxLabels } from "@/jobs/queue/reap";
import type { QueuePolicy } from "@/jobs/queue/payload";
import { completeValidation, failValidation, heartbeatValidation, releaseValidation, type ClaimedValidation, type ValidationVerdict } from "./jobs";

type AbortReason = "lease_lost" | "released";

export type ValidationRunContext = { policy: QueuePolicy; limits: SandboxLimits; log: (line: string) => void };

export class ValidationRun {
  private readonly stopper = new ChainStop<AbortReason>();

  constructor(
    readonly job: ClaimedValidation,
    private readonly ctx: ValidationRunContext,
  ) {}

  private get name(): string {
    return `validation of ${this.job.chain.continuous_id} (job ${this.job.jobId}, attempt ${this.job.attempts})`;
  }

  abort(reason: AbortReason): void {
    this.stopper.stop(reason);
  }

  /** The gold replays, one after another; their logs joined run by run, bug by bug. */
  private async replays(): Promise<{ runs: GradedBug[][]; log: string }> {
    const { chain, jobId, leaseOwner, proposedChainId } = this.job;
    const runs: GradedBug[][] = [];
    const logs: string[] = [];
    for (let r = 1; r <= this.job.runs; r++) {
      const bugs = await replayInSandbox({
        input: { chain, mode: "oracle", system: GOLD_SYSTEM, predictions: goldPredictionLines(chain) },
        limits: this.ctx.limits,
        labels: validationSandboxLabels({ jobId, leaseOwner, proposedChainId, continuousId: chain.continuous_id }),
        onBug: async (a) => this.ctx.log(`${this.name}: run ${r}, bug ${a.bug.order} ${a.bug.resolved ? "resolved" : `unresolved (${a.bug.fingerprint})`}`),
        onSandbox: this.stopper.attach,
        checkStopped: this.stopper.throwIfStopped,
        log: (line) => this.ctx.log(`${this.name}: ${line}`),
      });
      runs.push(bugs.map((a) => a.bug));
      for (const a of bugs) logs.push(`=== run ${r} of ${this.job.runs}, bug ${a.bug.order} (${a.bug.swebench_instance_id}) ===\n${a.log}`);
    }
    return { runs, log: logs.join("\n") };
  }

  private async verdict(): Promise<ValidationVerdict> {
    try {
      const { runs, log } = await this.replays();
      const v = judgeProposedChain(this.job.chain, runs, this.job.rule);
      return { result: v.result, validated: v.validated, refusal: v.problems.length ? v.problems.join("\n") : null, log };
    } catch (e) {
      if (!(e instanceof DatasetError) || this.stopper.reason) throw e;
      const bug = e.order ? this.job.chain.bug_fixes[e.order - 1] : undefined;
      return { result: null, validated: null, refusal: `${bug ? `bug ${bug.order} (${bug.swebench_instance_id}): ` : ""}${e.message}`, log: "" };
    }
  }

  async run(): Promise<void> {
    const { jobId, leaseOwner } = this.job;
    this.ctx.log(`${this.name}: claimed (${this.job.runs} gold run(s), flaky tests: ${this.job.rule})`);
    const stopBeating = keepLease({
      leaseMs: this.ctx.policy.leaseMs,
      beat: () => heartbeatValidation({ jobId, workerId: leaseOwner, leaseMs: this.ctx.policy.leaseMs }),
      lost: () => {
        this.ctx.log(`${this.name}: lease lost; stopping`);
        this.abort("lease_lost");
      },
      log: (line) => this.ctx.log(`${this.name}: ${line}`),
    });
    try {
      let verdict: ValidationVerdict;
      try {
        verdict = await this.verdict();
      } finally {
        stopBeating();
      }
      const accepted = await completeValidation({ jobId, workerId: leaseOwner, verdict });
      this.ctx.log(`${this.name}: ${!accepted ? "no longer ours; verdict discarded" : verdict.refusal ? `refused: ${verdict.refusal.split("\n")[0]}` : "valid"}`);
    } catch (e) {
      await this.endWithout(e).catch((e2: unknown) => this.ctx.log(`${this.name}: could not record the outcome (the lease will run out): ${coerceError(e2).message}`));
    }
  }

  private async endWithout(error: unknown): Promise<void> {
    const { jobId, leaseOwner } = this.job;
    if (this.stopper.reason === "released") {
      const released = await releaseValidation({ jobId, workerId: leaseOwner, reason: "the worker stopped" });
      this.ctx.log(`${this.name}: ${released ? "released back to the queue" : "not released (no longer ours)"}`);
      return;
    }
    const outcome = await failValidation({ jobId, workerId: leaseOwner, error, policy: this.ctx.policy });
    if (!outcome) this.ctx.log(`${this.name}: no longer ours; nothing recorded`);
    else this.ctx.log(`${this.name}: ${outcome.status === "failed" ? "failed" : `will retry after ${outcome.runAfter.toISOString()}`}: ${outcome.lastError.split("\n")[0]}`);
  }
}
