/**
 * Images for machines with no registry: derive a repository image from a base
 * image by copying a directory in as /testbed (put-archive + commit, no build
 * context, no mounts). Real users pull published images instead (ensureImage).
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import tarFs from "tar-fs";
import { EnvironmentError, coerceError } from "@/core/errors";
import { docker, imageExists } from "./docker";
import { inheritedEnv } from "@/env";

const run = promisify(execFile);

async function git(cwd: string, ...args: string[]): Promise<string> {
  const { stdout } = await run("git", args, {
    cwd,
    env: inheritedEnv({ GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_SYSTEM: "/dev/null" }),
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout.trim();
}

/**
 * A clone of `source` that holds only `commit` and its ancestors: no later
 * commit, branch, object or reflog entry (later fixes must not be reachable).
 */
export async function cloneAtCommit(source: string, commit: string, dest: string): Promise<void> {
  const branch = `chainswe-export-${commit.slice(0, 12)}`;
  await git(source, "branch", "-f", branch, commit);
  try {
    await git(tmpdir(), "clone", "-q", "--no-local", "--single-branch", "--branch", branch, source, dest);
  } finally {
    await git(source, "branch", "-D", branch);
  }
  await git(dest, "checkout", "-q", "-b", "main");
  await git(dest, "branch", "-D", branch);
  await git(dest, "remote", "remove", "origin");
  await git(dest, "reflog", "expire", "--expire=now", "--all");
  await git(dest, "gc", "-q", "--prune=now");
}

/**
 * Every bug runs in a fresh container of the image, so no bytecode an earlier
 * bug's tests compiled is there: each would compile the repository again (half
 * a second per bug on a mid-size project). The image therefore ships the
 * repository's bytecode, in place, with `__pycache__/` and `*.py[co]` in
 * .git/info/exclude so that git, whatever the repository ignores, sees a clean
 * work tree. Python checks each file's size and mtime against its bytecode, so
 * a file a state changes is compiled afresh. `-I`: no file of the repository runs.
 *
 * The index is refreshed a second after the files were written: an index
 * written in the same second as its files holds them as "racily clean", and
 * every container's first `git status` would then read every file of the
 * repository to compare contents (a fifth of a second on 3,000 files, on the
 * critical path of each chain's first bug).
 */
const FINISH_TESTBED = [
  "if command -v python3 >/dev/null; then python3 -I -m compileall -q -j 0 /testbed >/dev/null 2>&1; fi",
  "mkdir -p /testbed/.git/info",
  "printf '%s\\n' '__pycache__/' '*.py[co]' >> /testbed/.git/info/exclude",
  "sleep 1",
  "git -C /testbed update-index -q --refresh >/dev/null 2>&1",
  "exit 0",
].join("; ");

/** What images built here hold; an image built by another recipe is built again. */
const IMAGE_RECIPE = "4";

/** Commits `base` + `dir` copied to /testbed (and its bytecode compiled) as image `tag`. */
export async function imageFromDirectory(base: string, dir: string, tag: string, labels: Record<string, string> = {}): Promise<void> {
  if (!(await imageExists(base))) throw new EnvironmentError(`base image ${base} is missing; build it first`);
  const [repo, version] = tag.split(/:(?=[^:/]+$)/);
  const container = await docker().createContainer({ Image: base, Cmd: ["sh", "-c", FINISH_TESTBED], WorkingDir: "/", NetworkDisabled: true, HostConfig: { NetworkMode: "none" } });
  try {
    const archive = tarFs.pack(dir, { map: (h) => ({ ...h, name: `testbed/${h.name}`, uid: 0, gid: 0 }) });
    await container.putArchive(archive as unknown as NodeJS.ReadableStream, { path: "/" });
    await container.start();
    await container.wait();
    const all = { ...labels, "chainswe.image_recipe": IMAGE_RECIPE };
    const changes = ["WORKDIR /testbed", `CMD ["true"]`, ...Object.entries(all).map(([k, v]) => `LABEL ${k}=${JSON.stringify(v)}`)];
    await container.commit({ repo, tag: version ?? "latest", changes });
  } catch (e) {
    throw new EnvironmentError(`building image ${tag} failed: ${coerceError(e).message}`);
  } finally {
    await container.remove({ force: true });
  }
}

/** Whether `tag` exists and was built by this recipe. */
async function imageIsCurrent(tag: string): Promise<boolean> {
  if (!(await imageExists(tag))) return false;
  const info = await docker().getImage(tag).inspect();
  return info.Config?.Labels?.["chainswe.image_recipe"] === IMAGE_RECIPE;
}

/** Builds `tag` holding `repoDir`'s history up to `commit` at /testbed, unless it exists. */
export async function ensureRepoImage(opts: { base: string; repoDir: string; commit: string; tag: string }): Promise<"built" | "cached"> {
  if (await imageIsCurrent(opts.tag)) return "cached";
  const work = await mkdtemp(join(tmpdir(), "chainswe-image-"));
  try {
    const dest = join(work, "testbed");
    await cloneAtCommit(opts.repoDir, opts.commit, dest);
    await imageFromDirectory(opts.base, dest, opts.tag, { "chainswe.base_commit": opts.commit });
    return "built";
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
