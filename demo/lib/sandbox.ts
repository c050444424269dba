/**
 * A scratch clone of a built demo repository where the build replays states the way the
 * evaluator does (SPEC §3), on the host: apply a patch with the evaluator's fallbacks,
 * restore hidden test files, apply the test patch, commit the state, run pytest.
 * Scratch commits never leave the clone.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { isRunnerConfigFile, touchedFiles } from "@/core/diff";
import { getLogParser, type ParsedLog } from "@/core/parsers";
import type { ApplyMethod } from "@/core/schemas/results";
import { DIFF_FLAGS, git, run } from "./proc";

const parsePytest = getLogParser("pytest");

export type TestRun = { log: string; exitCode: number; parsed: ParsedLog };

/** pytest runs keyed by tree hash + command: identical states are run once. */
const runCache = new Map<string, Promise<TestRun>>();

export class Sandbox {
  private constructor(
    readonly dir: string,
    private readonly tmp: string,
  ) {}

  static async clone(repoDir: string): Promise<Sandbox> {
    const tmp = await mkdtemp(path.join(os.tmpdir(), "chainswe-demo-"));
    const dir = path.join(tmp, "repo");
    // a self-contained clone (hard-linked objects, no alternates): the source may be
    // rebuilt by someone else's buildDemoRepos() while the replay runs
    await git(tmp, ["clone", "-q", "--no-checkout", repoDir, dir]);
    return new Sandbox(dir, tmp);
  }

  async dispose(): Promise<void> {
    await rm(this.tmp, { recursive: true, force: true });
  }

  git(args: string[], allowFail = false) {
    return git(this.dir, args, { allowFail });
  }

  /** Work tree and index exactly at commit, nothing untracked. */
  async reset(commit: string): Promise<void> {
    await this.git(["checkout", "-q", "-f", "--detach", commit]);
    await this.git(["clean", "-fdxq"]);
  }

  /** Commits the work tree as it is; returns the commit. */
  async commitAll(message: string): Promise<string> {
    await this.git(["add", "-A"]);
    await this.git(["commit", "-q", "--allow-empty", "--no-verify", "-m", message]);
    return (await this.git(["rev-parse", "HEAD"])).stdout.trim();
  }

  /** `git diff` from commit to the work tree, new files included. */
  async diffFrom(commit: string): Promise<string> {
    await this.git(["add", "-A"]);
    return (await this.git([...DIFF_FLAGS, "--cached", commit])).stdout;
  }

  private async patchFile(patch: string): Promise<string> {
    const file = path.join(this.tmp, "patch.diff");
    await writeFile(file, patch);
    return file;
  }

  /** git apply (falling back to a 3-way merge); throws when the edit cannot be made. */
  async applyForEdit(patch: string, exclude: string[] = []): Promise<void> {
    const file = await this.patchFile(patch);
    const excl = exclude.map((f) => `--exclude=${f}`);
    if ((await this.git(["apply", ...excl, file], true)).code === 0) return;
    const merged = await this.git(["apply", "--3way", ...excl, file], true);
    if (merged.code !== 0) throw new Error(`edit does not apply in ${this.dir}:\n${merged.stderr}`);
  }

  /**
   * SPEC §3 step 1 from the committed start state: git apply, git apply --reject,
   * patch --fuzz=5, resetting in between. Returns the method that applied, or null.
   */
  async applyModelPatch(start: string, patch: string): Promise<ApplyMethod | null> {
    if (patch.trim() === "") return null;
    const file = await this.patchFile(patch);
    const attempts: [ApplyMethod, string, string[]][] = [
      ["git_apply", "git", ["apply", "--verbose", file]],
      ["git_apply_reject", "git", ["apply", "--verbose", "--reject", file]],
      ["patch", "patch", ["--batch", "--fuzz=5", "-p1", "-i", file]],
    ];
    for (const [method, cmd, args] of attempts) {
      const result = cmd === "git" ? await this.git(args, true) : await run(cmd, args, { cwd: this.dir, allowFail: true });
      if (result.code === 0) return method;
      await this.reset(start);
    }
    return null;
  }

  /**
   * SPEC §3 step 2: drop model edits to runner config, restore the files test patch k
   * touches to their content at goldPrev, apply test patch k. Returns the discarded files.
   */
  async applyTestPatch(start: string, goldPrev: string, testPatch: string): Promise<string[]> {
    await this.git(["add", "-A"]);
    const changed = (await this.git(["diff", "--cached", "--name-only", start])).stdout.split("\n").filter(Boolean);
    const discarded = changed.filter(isRunnerConfigFile);
    await this.restore(start, discarded);
    await this.restore(goldPrev, touchedFiles(testPatch));
    const result = await this.git(["apply", await this.patchFile(testPatch)], true);
    if (result.code !== 0) throw new Error(`dataset error: test patch does not apply in ${this.dir}\n${result.stderr}`);
    return discarded;
  }

  /** Files back to their content at commit; files the commit lacks are removed. */
  private async restore(commit: string, files: string[]): Promise<void> {
    if (files.length === 0) return;
    const listed = (await this.git(["ls-tree", "-r", "--name-only", commit, "--", ...files])).stdout;
    const present = new Set(listed.split("\n").filter(Boolean));
    const existing = files.filter((f) => present.has(f));
    if (existing.length > 0) await this.git(["checkout", "-q", commit, "--", ...existing]);
    for (const file of files.filter((f) => !present.has(f))) await rm(path.join(this.dir, file), { recursive: true, force: true });
  }

  /** Runs the test command on a committed state; cached by tree hash. */
  async runTests(commit: string, testFiles: string[]): Promise<TestRun> {
    const tree = (await this.git(["rev-parse", `${commit}^{tree}`])).stdout.trim();
    const key = `${tree} ${testFiles.join(" ")}`;
    let cached = runCache.get(key);
    if (!cached) {
      cached = (async () => {
        await this.reset(commit);
        const result = await run("python3", ["-m", "pytest", ...PYTEST_ARGS, ...testFiles], { cwd: this.dir, allowFail: true });
        const log = result.stdout + result.stderr;
        return { log, exitCode: result.code, parsed: parsePytest(log) };
      })();
      runCache.set(key, cached);
    }
    return cached;
  }
}

export const PYTEST_ARGS = ["-rA", "-p", "no:cacheprovider"];

export function testCommand(testFiles: string[]): string {
  return ["python3 -m pytest", ...PYTEST_ARGS, ...testFiles].join(" ");
}
