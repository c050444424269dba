/**
 * The disk bound of a test run. overlay2 on ext4 has no per-container size
 * quota, so a patch could fill the host's disk (or its inodes, with empty
 * files) within one time limit. RLIMIT_FSIZE bounds single files; this watch
 * bounds the whole writable layer: it measures it through the engine (the
 * container cannot lie about it) and reports the first bound passed. Bytes are
 * measured every `diskPollMs` (cheap: the engine sums the writable layer);
 * paths every FILES_EVERY polls, because `docker diff` costs the engine about
 * half a second per call.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type Docker from "dockerode";
import type { SandboxLimits } from "./limits";

export type DiskLimit = "disk_bytes" | "disk_files";
export type DiskExceeded = { limit: DiskLimit; used: number; max: number };

type DiskBounds = Pick<SandboxLimits, "maxDiskBytes" | "maxDiskFiles">;

/** Paths are counted on every FILES_EVERY-th poll (10 s at the default 2 s). */
export const FILES_EVERY = 5;

/** Pure: which bound a measurement passes, bytes first. */
export function diskVerdict(m: { bytes?: number; files?: number }, bounds: DiskBounds): DiskExceeded | null {
  if (m.bytes !== undefined && m.bytes > bounds.maxDiskBytes) return { limit: "disk_bytes", used: m.bytes, max: bounds.maxDiskBytes };
  if (m.files !== undefined && m.files > bounds.maxDiskFiles) return { limit: "disk_files", used: m.files, max: bounds.maxDiskFiles };
  return null;
}

/** One line for the log, written by the harness. */
export function describeDiskExceeded(e: DiskExceeded): string {
  return e.limit === "disk_bytes"
    ? `the container's writable layer reached ${(e.used / 1048576).toFixed(1)} MB (limit ${(e.max / 1048576).toFixed(0)} MB)`
    : `the test run added or changed ${e.used} paths in the container (limit ${e.max})`;
}

/** Polls the writable layer while started; `exceeded` resolves once a bound is passed. */
export class DiskWatch {
  readonly exceeded: Promise<DiskExceeded>;
  private fire: (e: DiskExceeded) => void = () => {};
  private running = false;
  private stopped = false;
  private polls = 0;

  constructor(
    private readonly container: Docker.Container,
    private readonly limits: SandboxLimits,
  ) {
    this.exceeded = new Promise((resolve) => (this.fire = resolve));
  }

  start(): void {
    if (this.running || this.stopped) return;
    this.running = true;
    void this.loop();
  }

  stop(): void {
    this.stopped = true;
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      await sleep(this.limits.diskPollMs);
      if (this.stopped) return;
      const verdict = await this.measure().catch(() => null);
      if (verdict && !this.stopped) {
        this.fire(verdict);
        return;
      }
    }
  }

  private async measure(): Promise<DiskExceeded | null> {
    // `size` is an engine query option the typings lack: SizeRw is computed only when asked
    const inspect = this.container.inspect.bind(this.container) as (o: { size: boolean }) => Promise<{ SizeRw?: number }>;
    const info = await inspect({ size: true });
    const bytes = diskVerdict({ bytes: info.SizeRw ?? 0 }, this.limits);
    if (bytes || this.stopped || this.polls++ % FILES_EVERY !== FILES_EVERY - 1) return bytes;
    return diskVerdict({ files: (await containerChanges(this.container)).length }, this.limits);
  }
}

/** One entry of `docker diff`: 0 changed, 1 added, 2 deleted. */
export type Change = { Path: string; Kind: 0 | 1 | 2 };

/** `docker diff`: paths of the writable layer that differ from the image (0 changed, 1 added, 2 deleted). */
export async function containerChanges(container: Docker.Container): Promise<Change[]> {
  const raw = (await container.changes()) as unknown;
  const parsed = Buffer.isBuffer(raw) ? (JSON.parse(raw.toString("utf8")) as unknown) : raw;
  return Array.isArray(parsed) ? (parsed as Change[]) : [];
}
