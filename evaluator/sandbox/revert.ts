/**
 * Brings a chain's container back to its image between bugs (plan: revert-plan.ts).
 * The order is what makes it safe without a second look:
 * 1. the container is stopped, so every process the tests left is dead and
 *    nothing writes while the engine lists the changes (`docker diff`);
 * 2. changed and deleted paths are copied back, by the engine, from a
 *    never-started copy of the image, into the stopped container;
 * 3. only then is it started: PID 1 and everything after it run the image's own
 *    programs and libraries (a replaced /bin/bash or libc is back before it runs;
 *    an added /etc/ld.so.preload is emptied first);
 * 4. added paths are removed by the image's rm, by absolute path, and must all go.
 * Nothing but that rm runs between the start and the next bug, so there is
 * nothing left to check again (each `docker diff` costs the engine ~0.5 s: it
 * compares the whole filesystem with the image).
 */
import type { IncomingMessage } from "node:http";
import { posix } from "node:path";
import type Docker from "dockerode";
import pLimit from "p-limit";
import { EnvironmentError, coerceError } from "@/lib/errors";
import { containerChanges } from "./disk-watch";
import { docker } from "./docker";
import { changedParents, revertPlan, type RevertPlan } from "./revert-plan";

/** A created, never started container of the image: the reference copy of its files. */
export class Pristine {
  private helper: Promise<Docker.Container> | undefined;
  private readonly dirs = new Map<string, Promise<boolean>>();
  /** set by remove(): a revert still running when its sandbox is removed must not create another copy */
  private closed = false;

  constructor(
    private readonly image: string,
    private readonly labels: Record<string, string>,
  ) {}

  private container(): Promise<Docker.Container> {
    if (this.closed) return Promise.reject(new EnvironmentError(`the sandbox of ${this.image} was removed`));
    this.helper ??= docker()
      .createContainer({
        Image: this.image,
        Cmd: ["true"],
        Labels: { ...this.labels, "chainswe.sandbox": "1", "chainswe.role": "pristine" },
        NetworkDisabled: true,
        HostConfig: { NetworkMode: "none", LogConfig: { Type: "none", Config: {} } },
      })
      .catch((e: unknown) => {
        this.helper = undefined;
        throw new EnvironmentError(`cannot create a reference container of ${this.image}: ${coerceError(e).message}`);
      });
    return this.helper;
  }

  /** Whether the image has a directory at `path` (cached: the image never changes). */
  isDir(path: string): Promise<boolean> {
    let known = this.dirs.get(path);
    if (!known) {
      known = this.container().then(async (c) => (await statIn(c, path)) === "dir");
      this.dirs.set(path, known);
    }
    return known;
  }

  /** A tar of `path` as the image has it (its entries named from the path's last component). */
  async archive(path: string): Promise<NodeJS.ReadableStream> {
    return (await this.container()).getArchive({ path });
  }

  async remove(): Promise<void> {
    this.closed = true;
    const helper = this.helper;
    if (!helper) return;
    const c = await helper.catch(() => undefined);
    await c?.remove({ force: true }).catch((e: unknown) => {
      if ((e as { statusCode?: number }).statusCode !== 404) throw coerceError(e);
    });
  }
}

/** "dir", "other" or null (no such path), from the engine's stat of a container path (no symlink followed). */
export async function statIn(container: Docker.Container, path: string): Promise<"dir" | "other" | null> {
  let res: IncomingMessage;
  try {
    res = (await container.infoArchive({ path })) as IncomingMessage;
  } catch (e) {
    if ((e as { statusCode?: number }).statusCode === 404) return null;
    throw e;
  }
  res.resume();
  const header = res.headers["x-docker-container-path-stat"];
  const stat = JSON.parse(Buffer.from(String(header), "base64").toString("utf8")) as { mode: number };
  // Go's os.ModeDir is bit 31 of the mode
  return Math.floor(stat.mode / 2 ** 31) % 2 === 1 ? "dir" : "other";
}

/** What a revert needs of the sandbox. */
export type RevertTarget = {
  container: Docker.Container;
  image: string;
  pristine: Pristine;
  /** kills every process (PID 1 too) and returns once the container is stopped */
  stop: () => Promise<void>;
  start: () => Promise<void>;
  putFiles: (files: Record<string, string>) => Promise<void>;
  /** runs a script with /bin/sh, a fixed PATH and no locale; resolves to its exit code */
  shell: (script: string) => Promise<number | null>;
};

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Removal commands of at most ~64 KB each. */
function removeScripts(paths: string[]): string[] {
  const scripts: string[] = [];
  let batch: string[] = [];
  let size = 0;
  for (const p of paths) {
    const arg = quote(p);
    if (batch.length && size + arg.length > 64_000) {
      scripts.push(`/bin/rm -rf -- ${batch.join(" ")}`);
      batch = [];
      size = 0;
    }
    batch.push(arg);
    size += arg.length + 1;
  }
  if (batch.length) scripts.push(`/bin/rm -rf -- ${batch.join(" ")}`);
  return scripts;
}

async function planFor(t: RevertTarget): Promise<RevertPlan> {
  const changes = await containerChanges(t.container);
  const parents = changedParents(changes);
  const limit = pLimit(8);
  const dirsInBoth = new Set<string>();
  await Promise.all(
    changes
      .filter((c) => c.Kind === 0)
      .map((c) =>
        limit(async () => {
          if (!(await t.pristine.isDir(c.Path))) return;
          // a path with changes below it is a directory now; otherwise ask the engine
          if (parents.has(c.Path) || (await statIn(t.container, c.Path)) === "dir") dirsInBoth.add(c.Path);
        }),
      ),
  );
  return revertPlan(changes, dirsInBoth);
}

export type RevertReport = { restored: number; removed: number };

export async function revertToImage(t: RevertTarget): Promise<RevertReport> {
  try {
    await t.stop();
    const plan = await planFor(t);
    const limit = pLimit(4);
    await Promise.all(
      plan.restore.map((path) =>
        limit(async () => {
          const tar = await t.pristine.archive(path);
          await t.container.putArchive(tar, { path: posix.dirname(path) });
        }),
      ),
    );
    // the one added file that would run its code inside every program, PID 1 and rm included
    if (plan.remove.includes("/etc/ld.so.preload")) await t.putFiles({ "/etc/ld.so.preload": "" });
    await t.start();
    for (const script of removeScripts(plan.remove)) {
      const code = await t.shell(script);
      if (code !== 0) throw new Error(`removing added files failed (exit ${code})`);
    }
    return { restored: plan.restore.length, removed: plan.remove.length };
  } catch (e) {
    if (e instanceof EnvironmentError) throw e;
    throw new EnvironmentError(`cannot bring the container of ${t.image} back to its image: ${coerceError(e).message}`);
  }
}
