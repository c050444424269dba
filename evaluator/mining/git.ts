/**
 * The git edge of mining: the two join conditions of paper §3.2 and the pre- and
 * post-image of each gold patch, read from a clone in `--repos DIR/owner__repo`.
 * A bug's resolved state is built in a temporary detached worktree (base commit +
 * test patch + gold patch) and removed afterwards; the clone's branches and work
 * tree are never touched.
 */
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EnvironmentError } from "@/core/errors";
import { inheritedEnv } from "@/env";

type Git = { code: number; stdout: string; stderr: string };

/** Runs git with the caller's config ignored, so a user's hooks or aliases cannot change a verdict. */
function git(cwd: string, args: string[], input?: string): Promise<Git> {
  return new Promise((resolve, reject) => {
    const env = inheritedEnv({ GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1", GIT_TERMINAL_PROMPT: "0", LC_ALL: "C" });
    const child = spawn("git", args, { cwd, env, stdio: [input === undefined ? "ignore" : "pipe", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout!.on("data", (b: Buffer) => out.push(b));
    child.stderr!.on("data", (b: Buffer) => err.push(b));
    child.on("error", (e) => reject(new EnvironmentError(`git ${args[0]}: ${e.message}`, { cause: e })));
    child.on("close", (code) => resolve({ code: code ?? -1, stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8") }));
    // git exits before reading a patch it cannot use; its exit code says why, not EPIPE
    child.stdin?.on("error", () => undefined);
    child.stdin?.end(input);
  });
}

async function gitOk(cwd: string, args: string[], input?: string): Promise<string> {
  const r = await git(cwd, args, input);
  if (r.code !== 0) throw new Error(`git ${args.join(" ")} in ${cwd} exited ${r.code}: ${r.stderr.trim()}`);
  return r.stdout;
}

/** `owner/name` → DIR/owner__name, which must be a git repository. */
export async function repoClone(reposDir: string, repo: string): Promise<string> {
  const dir = join(reposDir, repo.replace("/", "__"));
  const r = await git(dir, ["rev-parse", "--git-dir"]).catch(() => null);
  if (!r || r.code !== 0) throw new EnvironmentError(`${repo}: no git clone at ${dir}`);
  return dir;
}

export async function fullHash(repoDir: string, commit: string): Promise<string | null> {
  const r = await git(repoDir, ["rev-parse", "--verify", "--quiet", `${commit}^{commit}`]);
  return r.code === 0 ? r.stdout.trim() : null;
}

/** Join condition 1: `later` has `earlier` as a parent (no commit between them). */
export async function isImmediateSuccessor(repoDir: string, earlier: string, later: string): Promise<boolean> {
  const [a, b] = await Promise.all([fullHash(repoDir, earlier), fullHash(repoDir, later)]);
  if (!a || !b) return false;
  const parents = (await gitOk(repoDir, ["rev-list", "--parents", "-n", "1", b])).trim().split(/\s+/).slice(1);
  return parents.includes(a);
}

/** A bug's resolved state in a temporary worktree. */
export type ResolvedState = {
  dir: string;
  /** a file's text at the bug's base commit, null when absent there */
  before(file: string): Promise<string | null>;
  /** a file's text in the resolved state, null when absent */
  after(file: string): Promise<string | null>;
  /** join condition 2: do a later bug's test patch and then its gold patch apply cleanly here? */
  applies(testPatch: string, patch: string): Promise<{ ok: true } | { ok: false; why: string }>;
  remove(): Promise<void>;
};

/**
 * base + test patch + gold patch, or the reason it cannot be built (unknown base
 * commit, a patch that does not apply at its own base).
 */
export async function resolvedState(repoDir: string, base: string, testPatch: string, patch: string): Promise<ResolvedState | { error: string }> {
  const commit = await fullHash(repoDir, base);
  if (!commit) return { error: `base commit ${base} is not in the clone` };
  const dir = await mkdtemp(join(tmpdir(), "chainswe-mine-"));
  const remove = async () => {
    await git(repoDir, ["worktree", "remove", "--force", dir]);
    await rm(dir, { recursive: true, force: true });
  };
  await gitOk(repoDir, ["worktree", "add", "--detach", "--force", dir, commit]);
  for (const [what, diff] of [["test patch", testPatch], ["gold patch", patch]] as const) {
    const r = await git(dir, ["apply", "--whitespace=nowarn", "-"], diff);
    if (r.code !== 0) {
      await remove();
      return { error: `its ${what} does not apply at its base commit: ${r.stderr.trim().split("\n")[0]}` };
    }
  }
  return {
    dir,
    async before(file) {
      const r = await git(repoDir, ["show", `${commit}:${file}`]);
      return r.code === 0 ? r.stdout : null;
    },
    after: (file) => readFile(join(dir, file), "utf8").catch(() => null),
    async applies(laterTest, laterPatch) {
      const t = await git(dir, ["apply", "--whitespace=nowarn", "-"], laterTest);
      if (t.code !== 0) return { ok: false, why: `test patch: ${t.stderr.trim().split("\n")[0]}` };
      try {
        const g = await git(dir, ["apply", "--check", "--whitespace=nowarn", "-"], laterPatch);
        return g.code === 0 ? { ok: true } : { ok: false, why: `gold patch: ${g.stderr.trim().split("\n")[0]}` };
      } finally {
        // back to this bug's resolved state for the next question
        await gitOk(dir, ["apply", "-R", "--whitespace=nowarn", "-"], laterTest);
      }
    },
    remove,
  };
}
