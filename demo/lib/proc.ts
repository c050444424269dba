/**
 * Child processes for the demo build, with an environment that does not depend on the
 * host: git reads no user or system config and every commit gets fixed names and dates,
 * so commit hashes are identical on every machine.
 */
import { spawn } from "node:child_process";
import { inheritedEnv } from "@/env";

export type RunResult = { code: number; stdout: string; stderr: string };

export type RunOptions = {
  cwd: string;
  env?: Record<string, string>;
  input?: string;
  /** return a non-zero exit instead of throwing */
  allowFail?: boolean;
};

/** Only PATH is inherited: GIT_DIR, GIT_INDEX_FILE, locale etc. of the caller must not leak in. */
const BASE_ENV: Record<string, string> = {
  PATH: inheritedEnv().PATH ?? "/usr/local/bin:/usr/bin:/bin",
  HOME: "/nonexistent",
  LC_ALL: "C.UTF-8",
  TZ: "UTC",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_CONFIG_SYSTEM: "/dev/null",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_TERMINAL_PROMPT: "0",
  PYTHONDONTWRITEBYTECODE: "1",
  // host plugins (pytest-benchmark, …) only slow runs down; the demo image has none
  PYTEST_DISABLE_PLUGIN_AUTOLOAD: "1",
  PYTHONIOENCODING: "utf-8",
  PYTHONHASHSEED: "0",
};

export function run(cmd: string, args: string[], opts: RunOptions): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    // ProcessEnv is augmented to require NODE_ENV; the children here need only BASE_ENV
    const env = { ...BASE_ENV, ...opts.env } as unknown as NodeJS.ProcessEnv;
    const child = spawn(cmd, args, { cwd: opts.cwd, env });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (b: Buffer) => out.push(b));
    child.stderr.on("data", (b: Buffer) => err.push(b));
    child.on("error", reject);
    child.on("close", (code: number | null) => {
      const result = { code: code ?? -1, stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8") };
      if (result.code !== 0 && !opts.allowFail) {
        reject(new Error(`${cmd} ${args.join(" ")} (in ${opts.cwd}) exited ${result.code}\n${result.stderr}${result.stdout}`));
      } else resolve(result);
    });
    child.stdin.on("error", () => undefined); // a child may exit before reading its input
    child.stdin.end(opts.input ?? "");
  });
}

/** `-c` settings that pin every git behaviour the build's output depends on. */
const GIT_CONFIG = [
  "core.autocrlf=false",
  "core.filemode=true",
  "core.abbrev=12",
  "core.hooksPath=/dev/null",
  "core.quotePath=false",
  "commit.gpgsign=false",
  "diff.noprefix=false",
  "diff.mnemonicPrefix=false",
  "diff.renames=false",
  "diff.external=",
  "init.defaultBranch=main",
  "advice.detachedHead=false",
  "gc.auto=0",
].flatMap((c) => ["-c", c]);

export type Signature = { name: string; email: string; date: string };

export function git(cwd: string, args: string[], opts: Omit<RunOptions, "cwd"> & { sign?: Signature } = {}): Promise<RunResult> {
  const sign = opts.sign ?? SIM_SIGNATURE;
  const env = {
    GIT_AUTHOR_NAME: sign.name,
    GIT_AUTHOR_EMAIL: sign.email,
    GIT_AUTHOR_DATE: sign.date,
    GIT_COMMITTER_NAME: sign.name,
    GIT_COMMITTER_EMAIL: sign.email,
    GIT_COMMITTER_DATE: sign.date,
    ...opts.env,
  };
  return run("git", [...GIT_CONFIG, ...args], { ...opts, cwd, env });
}

/** Commits made while simulating agent states; they never leave the scratch clones. */
export const SIM_SIGNATURE: Signature = { name: "ChainSWE demo", email: "demo@chainswe.invalid", date: "2024-01-01T00:00:00Z" };

/** `git diff` in the form patches are shipped in: a/ b/ prefixes, no colour, 12-char blob ids. */
export const DIFF_FLAGS = ["diff", "--no-color", "--no-ext-diff", "--src-prefix=a/", "--dst-prefix=b/"];
