/**
 * A chain replay that can be stopped from outside: a lost lease, a released
 * job, a cancel on the site. The first reason wins; the chain's containers go
 * at once, so the replay's next exec fails, and `throwIfStopped` (handed to
 * replayInSandbox as checkStopped) ends it between steps. The embedded worker
 * (jobs/queue/run-job.ts) and the distributed one
 * (jobs/distributed/worker/) both stop their chains with it.
 */
import type { ChainContainers } from "@/evaluator/sandbox";
import { EnvironmentError } from "@/core/errors";

export class ChainStop<Reason extends string = string> {
  private stoppedFor: Reason | undefined;
  private containers: ChainContainers | undefined;

  /** why the chain was stopped; undefined while it runs */
  get reason(): Reason | undefined {
    return this.stoppedFor;
  }

  /** replayInSandbox's onSandbox: the chain's containers while it has them */
  readonly attach = (containers: ChainContainers | undefined): void => {
    this.containers = containers;
  };

  stop(reason: Reason): void {
    this.stoppedFor ??= reason;
    void this.containers?.remove().catch(() => {});
  }

  /** replayInSandbox's checkStopped */
  readonly throwIfStopped = (): void => {
    if (this.stoppedFor) throw new EnvironmentError(`chain run stopped: ${this.stoppedFor}`);
  };
}
