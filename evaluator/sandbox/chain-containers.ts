/**
 * The containers of one chain, all started from the chain's image. The replay
 * builds its states in one of them and grades bugs in others: a container
 * where submitted code ran never serves another bug, so nothing that code left
 * anywhere (site-packages, PATH, /etc, ignored files, .git, PID 1, processes)
 * can reach a later grade, whatever it was. Containers are started ahead of
 * need, beside the work before them, and removed in the background once used;
 * remove() ends every one, those in use included (a stopped job's replay then
 * fails at its next exec).
 */
import { EnvironmentError } from "@/core/errors";
import { Sandbox } from "./container";
import type { SandboxLimits } from "./limits";

/** Called with a used container just before it is removed (tests inspect it here). */
export type BeforeRemove = (sandbox: Sandbox, use: string) => Promise<void>;

/** What a container of the chain is for: a bug's grade or agent turn, or building states (background work). */
export type ContainerUse = "bug" | "states";

export class ChainContainers {
  private readonly ahead: { use: ContainerUse; starting: Promise<Sandbox> }[] = [];
  private readonly inUse = new Set<Sandbox>();
  private readonly removals: Promise<void>[] = [];
  private closed = false;

  constructor(
    readonly image: string,
    readonly limits: SandboxLimits,
    readonly labels: Record<string, string>,
    private readonly beforeRemove?: BeforeRemove,
  ) {}

  private start(use: ContainerUse): Promise<Sandbox> {
    return Sandbox.start(this.image, this.limits, { ...this.labels, "chainswe.use": use }, { background: use === "states" });
  }

  /** Starts a container in the background for a later take() of the same use. */
  prepare(use: ContainerUse = "bug"): void {
    if (this.closed) return;
    const starting = this.start(use);
    // a failed start is reported by the take() that awaits it
    starting.catch(() => {});
    this.ahead.push({ use, starting });
  }

  /** A started container: the oldest prepared one of that use, else one started now. */
  async take(use: ContainerUse = "bug"): Promise<Sandbox> {
    if (this.closed) throw new EnvironmentError(`the containers of ${this.image} were removed`);
    const i = this.ahead.findIndex((a) => a.use === use);
    const prepared = i < 0 ? undefined : this.ahead.splice(i, 1)[0]!.starting;
    const sandbox = await (prepared ?? this.start(use));
    if (this.closed) {
      await sandbox.remove();
      throw new EnvironmentError(`the containers of ${this.image} were removed`);
    }
    this.inUse.add(sandbox);
    return sandbox;
  }

  /** Removes a used container in the background; remove() waits for it. */
  retire(sandbox: Sandbox, use: string): void {
    this.inUse.delete(sandbox);
    const inspected = this.beforeRemove ? this.beforeRemove(sandbox, use) : Promise.resolve();
    const removal = inspected.finally(() => sandbox.remove());
    removal.catch(() => {});
    this.removals.push(removal);
  }

  /** Removes every container of the chain (started ahead, in use, retired); safe to call twice. */
  async remove(): Promise<void> {
    this.closed = true;
    const ahead = this.ahead.splice(0).map((a) => a.starting.then((sandbox) => sandbox.remove(), () => undefined));
    const inUse = [...this.inUse].map((s) => s.remove());
    this.inUse.clear();
    const results = await Promise.allSettled([...ahead, ...inUse, ...this.removals]);
    const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
    if (failed) throw failed.reason;
  }
}
