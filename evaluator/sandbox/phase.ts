/** When an exec's measured phase starts and when its time is up. */

export type PhaseOptions = {
  timeoutMs?: number;
  /** a line printed when the measured phase begins; without it the phase starts with the exec */
  phaseMarker?: string;
  /** bound of what comes before the marker line */
  setupTimeoutMs?: number;
};

/**
 * The clock of an exec: without a phase marker it starts with the exec; with
 * one, the setup before the marker line has its own bound and the measured
 * phase (duration and timeout) starts when the line arrives.
 */
export class PhaseClock {
  startedAt: number;
  readonly timeout: Promise<"timeout">;
  private fire: (v: "timeout") => void = () => {};
  private timer: NodeJS.Timeout | undefined;
  private seen = "";
  private waiting: boolean;

  constructor(
    started: number,
    private readonly opts: PhaseOptions,
    /** called once when the measured phase begins */
    private readonly onPhase: () => void = () => {},
  ) {
    this.startedAt = started;
    this.timeout = new Promise((resolve) => (this.fire = resolve));
    this.waiting = opts.phaseMarker !== undefined;
    this.arm(this.waiting ? (opts.setupTimeoutMs ?? 300_000) : opts.timeoutMs);
    if (!this.waiting) onPhase();
  }

  private arm(ms: number | undefined): void {
    clearTimeout(this.timer);
    if (ms !== undefined) this.timer = setTimeout(() => this.fire("timeout"), ms);
  }

  see(chunk: Buffer): void {
    if (!this.waiting) return;
    this.seen += chunk.toString("utf8");
    if (!this.seen.includes(`${this.opts.phaseMarker}\n`)) {
      if (this.seen.length > 1_000_000) this.seen = this.seen.slice(-4096);
      return;
    }
    this.waiting = false;
    this.seen = "";
    this.startedAt = Date.now();
    this.arm(this.opts.timeoutMs);
    this.onPhase();
  }

  stop(): void {
    clearTimeout(this.timer);
  }
}
