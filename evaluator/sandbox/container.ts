/**
 * One evaluation container: no network, bounded memory/CPU/pids/file size,
 * disk watched during test runs, no capabilities, no host mounts (files go in
 * with put-archive), no log kept on the host, always removed.
 */
import { PassThrough, type Duplex } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import type Docker from "dockerode";
import { env } from "@/env";
import { EnvironmentError, coerceError } from "@/core/errors";
import { DiskWatch, type DiskExceeded } from "./disk-watch";
import { docker, ensureImage } from "./docker";
import type { SandboxLimits } from "./limits";
import { CappedOutput, type OutputFrames } from "./output";
import { PhaseClock, type PhaseOptions } from "./phase";
import { tarOf } from "./tar";
import { markInterrupted, wasInterrupted } from "./interrupt";

/**
 * With `phaseMarker` (a line the script prints when its measured phase begins),
 * `timeoutMs` and `durationMs` count from that line and `setupTimeoutMs` bounds
 * what comes before it: one exec prepares a bug and runs its tests.
 */
export type ExecOptions = PhaseOptions & {
  workdir?: string;
  /** absolute path → content, unpacked before the script runs */
  files?: Record<string, string | Buffer>;
  /** kill every process left in the container before anything else */
  killFirst?: boolean;
  /** stop the measured phase when the writable layer passes the disk limits */
  watchDisk?: boolean;
  /** the shell that runs the script (default: bash from the image's PATH) */
  shell?: string;
  /** environment variables (NAME=value) on top of the container's */
  env?: string[];
  /** called once when the measured phase begins */
  onPhase?: () => void;
  /** sees the output as it arrives (stdout and stderr merged) */
  onOutput?: (chunk: Buffer) => void;
  /** takes byte frames out of a trusted script's output before anything else sees it */
  frames?: OutputFrames;
};

export type ExecResult = {
  exitCode: number | null;
  output: string;
  timedOut: boolean;
  /** the measured phase was stopped at a disk limit (watchDisk) */
  diskExceeded: DiskExceeded | null;
  truncated: boolean;
  durationMs: number;
};

/**
 * PID 1 is a bash loop: signals from inside the container cannot kill it, and
 * bash reaps orphans, so `kill -9 -1` after a run clears everything the patch
 * left behind without stopping the container or leaking zombies into the pids limit.
 */
const KEEPALIVE = 'trap "" TERM INT HUP; while :; do sleep 3600 & wait $!; done';
const KILL_TIMEOUT_MS = 10_000;
/** A background container's CPU weight: an eighth of the default 1024. */
const BACKGROUND_CPU_SHARES = 128;

const live = new Set<Sandbox>();
/** Creations the engine has not answered yet: Ctrl-C waits for them, then removes what they made. */
const beingCreated = new Set<Promise<Sandbox>>();

export class Sandbox {
  private removal: Promise<void> | undefined;

  private constructor(
    readonly container: Docker.Container,
    readonly image: string,
    readonly limits: SandboxLimits,
  ) {}

  /**
   * `background`: the container's work can wait for others' (a chain's states
   * are built beside its first bug's tests): a smaller CPU weight, so that on a
   * busy machine the kernel runs the tests first.
   */
  static async start(image: string, limits: SandboxLimits, given: Record<string, string> = {}, opts: { background?: boolean } = {}): Promise<Sandbox> {
    if (wasInterrupted()) throw new EnvironmentError("interrupted: no new containers are started");
    const tag = env().CHAINSWE_SANDBOX_TAG;
    const labels = tag ? { ...given, "chainswe.tag": tag } : given;
    // known to Ctrl-C's cleanup from here on, while the image is checked and the
    // engine creates the container: no container outlives an interrupt
    const creating = (async () => {
      await ensureImage(image);
      if (wasInterrupted()) throw new EnvironmentError("interrupted: no new containers are started");
      let container: Docker.Container;
      try {
        container = await docker()
          .createContainer({
            Image: image,
            Cmd: ["bash", "-c", KEEPALIVE],
            WorkingDir: "/testbed",
            Labels: { "chainswe.sandbox": "1", ...labels },
            NetworkDisabled: true,
            HostConfig: {
              NetworkMode: "none",
              Memory: limits.memoryBytes,
              MemorySwap: limits.memoryBytes,
              NanoCpus: limits.nanoCpus,
              PidsLimit: limits.pids,
              ...(opts.background ? { CpuShares: BACKGROUND_CPU_SHARES } : {}),
              CapDrop: ["ALL"],
              SecurityOpt: ["no-new-privileges"],
              Ulimits: [
                { Name: "nofile", Soft: 4096, Hard: 4096 },
                { Name: "fsize", Soft: limits.maxFileBytes, Hard: limits.maxFileBytes },
              ],
              // PID 1's output would go to a log file on the host, unbounded: keep none
              LogConfig: { Type: "none", Config: {} },
              Binds: [],
              Mounts: [],
            },
          });
      } catch (e) {
        throw new EnvironmentError(`cannot create a container from ${image}: ${coerceError(e).message}`);
      }
      const created = new Sandbox(container, image, limits);
      live.add(created);
      return created;
    })();
    beingCreated.add(creating);
    const sandbox = await creating.finally(() => beingCreated.delete(creating));
    try {
      if (sandbox.removal) throw new Error("removed by the cleanup before it started");
      await sandbox.container.start();
      if (sandbox.removal) throw new Error("removed by the cleanup while it started");
    } catch (e) {
      await sandbox.remove();
      throw new EnvironmentError(`cannot start a container from ${image}: ${coerceError(e).message}`);
    }
    return sandbox;
  }

  get id(): string {
    return this.container.id;
  }

  /**
   * Runs a bash script (stderr merged into stdout); on timeout kills every
   * process it left. `files` travel on the exec's stdin as a tar unpacked at
   * `/` before the script body — one round trip instead of put-archive + exec.
   */
  async exec(script: string, opts: ExecOptions = {}): Promise<ExecResult> {
    const started = Date.now();
    const input = opts.files ? await tarOf(opts.files) : null;
    const prelude = [
      "exec 2>&1",
      ...(opts.killFirst ? ["kill -9 -1 2>/dev/null"] : []),
      ...(input ? ["tar -x -f - -C / || { echo 'chainswe: cannot unpack input files'; exit 125; }"] : []),
      "exec </dev/null",
    ];
    let exec: Docker.Exec;
    let stream: Duplex;
    try {
      exec = await this.container.exec({
        Cmd: [opts.shell ?? "bash", "-c", `${prelude.join("\n")}\n${script}`],
        ...(opts.env ? { Env: opts.env } : {}),
        AttachStdin: input !== null,
        AttachStdout: true,
        AttachStderr: true,
        WorkingDir: opts.workdir ?? "/testbed",
      });
      stream = (await exec.start({ hijack: true, stdin: input !== null })) as Duplex;
    } catch (e) {
      throw new EnvironmentError(`exec failed in ${this.image}: ${coerceError(e).message}`);
    }
    if (input) stream.end(input);
    const out = new CappedOutput(this.limits.maxOutputBytes);
    const disk = new DiskWatch(this.container, this.limits);
    const phase = new PhaseClock(started, opts, () => {
      if (opts.watchDisk) disk.start();
      opts.onPhase?.();
    });
    const sink = new PassThrough();
    sink.on("data", (chunk: Buffer) => {
      const c = opts.frames ? opts.frames.push(chunk) : chunk;
      if (c.length === 0) return;
      out.push(c);
      phase.see(c);
      opts.onOutput?.(c);
    });
    docker().modem.demuxStream(stream, sink, sink);
    const ended = new Promise<"ended">((resolve) => {
      stream.on("end", () => resolve("ended"));
      stream.on("close", () => resolve("ended"));
      stream.on("error", () => resolve("ended"));
    });
    let diskExceeded: DiskExceeded | null = null;
    const atDiskLimit = disk.exceeded.then((e) => {
      diskExceeded = e;
      return "disk" as const;
    });
    const stopped = Promise.race([phase.timeout, atDiskLimit]);
    let outcome = await Promise.race([ended, stopped]);
    let info = await exec.inspect().catch(() => undefined);
    // The stream can end while the process runs on (it closed its output): wait for it, within the limit.
    while (outcome === "ended" && info?.Running) {
      outcome = await Promise.race([sleep(200).then(() => "ended" as const), stopped]);
      info = await exec.inspect().catch(() => undefined);
    }
    phase.stop();
    disk.stop();
    const held = opts.frames?.end();
    if (held?.length) out.push(held);
    const durationMs = Date.now() - phase.startedAt;
    if (outcome !== "ended") {
      await this.killAll();
      stream.destroy();
    } else if (!info) {
      // the exec is gone: the container was removed or the engine went away — not the test's doing
      throw new EnvironmentError(`exec in ${this.image} ended without an exit status (container removed or engine gone)`);
    }
    const exitCode = outcome !== "ended" || !info ? null : info.ExitCode;
    return {
      exitCode,
      output: out.text(),
      timedOut: outcome === "timeout",
      diskExceeded: outcome === "disk" ? diskExceeded : null,
      truncated: out.truncated,
      durationMs,
    };
  }

  /** Kills every process but PID 1; restarts the container (files kept) if even that fails. */
  async killAll(): Promise<void> {
    try {
      const result = await this.exec("kill -9 -1 2>/dev/null; true", { timeoutMs: KILL_TIMEOUT_MS });
      if (!result.timedOut) return;
    } catch {
      // a fork bomb can leave no pid for the exec; fall through to a restart
    }
    await this.restart();
  }

  /** Kills PID 1 (so every process dies with it) and starts the container again; files are kept. */
  async restart(): Promise<void> {
    await this.stop();
    await this.startAgain();
  }

  /** Kills PID 1 and every process with it; resolves once the engine has the container stopped. */
  private async stop(): Promise<void> {
    try {
      await this.container.kill({ signal: "SIGKILL" }).catch(() => undefined);
      await this.container.wait({ condition: "not-running" });
    } catch (e) {
      throw new EnvironmentError(`container of ${this.image} could not be stopped: ${coerceError(e).message}`);
    }
  }

  private async startAgain(): Promise<void> {
    try {
      await this.container.start();
    } catch (e) {
      throw new EnvironmentError(`container of ${this.image} could not be recovered: ${coerceError(e).message}`);
    }
  }

  /** Always safe to call, also twice at once; the container and its anonymous volumes are gone afterwards. */
  remove(): Promise<void> {
    // one removal per container, however many callers (the chain's finally, Ctrl-C) ask
    this.removal ??= this.container
      .remove({ force: true, v: true })
      .catch((e: unknown) => {
        if ((e as { statusCode?: number }).statusCode !== 404) throw coerceError(e);
      })
      .then(() => {
        live.delete(this);
      });
    return this.removal;
  }
}

/** Runs `use` with a fresh sandbox and removes it whatever happens. */
export async function withSandbox<T>(
  image: string,
  limits: SandboxLimits,
  labels: Record<string, string>,
  work: (sandbox: Sandbox) => Promise<T>,
): Promise<T> {
  const sandbox = await Sandbox.start(image, limits, labels);
  try {
    return await work(sandbox);
  } finally {
    await sandbox.remove();
  }
}

/** Removes every container this process started, including any created meanwhile. */
export async function removeLiveSandboxes(): Promise<void> {
  for (let round = 0; (live.size > 0 || beingCreated.size > 0) && round < 5; round++) {
    await Promise.allSettled([...beingCreated]);
    await Promise.allSettled([...live].map((s) => s.remove()));
  }
}

let cleanupInstalled = false;

/** Ctrl-C and SIGTERM remove every container this process started before exiting. */
export function installSignalCleanup(): void {
  if (cleanupInstalled) return;
  cleanupInstalled = true;
  const onSignal = (signal: NodeJS.Signals) => {
    markInterrupted();
    const code = signal === "SIGINT" ? 130 : 143;
    // set now, so the exit code holds however the process ends
    process.exitCode = code;
    process.stderr.write(`\n${signal}: removing ${live.size + beingCreated.size} container(s)…\n`);
    void removeLiveSandboxes().finally(() => process.exit(code));
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
}
