/**
 * A tiny real Python repository with real git history, built by the tests
 * themselves: `calc/ops.py` with two dependent bugs. Used by the sandbox and
 * hostile-patch tests, which write their own patches against it.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { env } from "@/env";
import { ensureRepoImage } from "@/evaluator/sandbox";
import type { Chain } from "@/core/schemas/dataset";

export const BASE_IMAGE = env().CHAINSWE_BASE_IMAGE;

const ENV = {
  ...process.env,
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_CONFIG_SYSTEM: "/dev/null",
  GIT_AUTHOR_NAME: "Tiny",
  GIT_AUTHOR_EMAIL: "tiny@example.org",
  GIT_COMMITTER_NAME: "Tiny",
  GIT_COMMITTER_EMAIL: "tiny@example.org",
  GIT_AUTHOR_DATE: "2024-01-01T00:00:00Z",
  GIT_COMMITTER_DATE: "2024-01-01T00:00:00Z",
};

function git(dir: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd: dir, env: ENV, encoding: "utf8" }).trim();
}

function write(dir: string, files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
}

export const OPS_V0 = `def add(a, b):
    return a + b


def mul(a, b):
    return a + b  # bug 1: should multiply


def square(a):
    return mul(a, a)
`;

export const OPS_V1 = OPS_V0.replace("return a + b  # bug 1: should multiply", "return a * b");
export const OPS_V2 = `${OPS_V1}

def cube(a):
    return mul(square(a), a)
`;

export const TESTS_V0 = `from calc.ops import add


def test_add():
    assert add(2, 3) == 5
`;
export const TESTS_V1 = `${TESTS_V0}

def test_mul():
    from calc.ops import mul
    assert mul(3, 4) == 12
`;
export const TESTS_V2 = `${TESTS_V1}

def test_cube():
    from calc.ops import cube
    assert cube(3) == 27
`;

function diff(dir: string, from: string, to: string, paths: string[]): string {
  return `${git(dir, "diff", from, to, "--", ...paths)}\n`;
}

export type TinyRepo = { dir: string; chain: Chain; image: string };

/** Builds the repository and its image (cached by base commit); returns a 2-bug chain. */
export async function buildTinyRepo(): Promise<TinyRepo> {
  const dir = mkdtempSync(join(tmpdir(), "chainswe-tiny-"));
  git(dir, "init", "-q", "-b", "main");
  write(dir, { "calc/__init__.py": "", "calc/ops.py": OPS_V0, "tests/test_ops.py": TESTS_V0, ".gitignore": "__pycache__/\n" });
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "initial");
  const base = git(dir, "rev-parse", "HEAD");
  write(dir, { "calc/ops.py": OPS_V1, "tests/test_ops.py": TESTS_V1 });
  git(dir, "commit", "-qam", "fix mul");
  const fix1 = git(dir, "rev-parse", "HEAD");
  write(dir, { "calc/ops.py": OPS_V2, "tests/test_ops.py": TESTS_V2 });
  git(dir, "commit", "-qam", "add cube");
  const fix2 = git(dir, "rev-parse", "HEAD");
  const image = `chainswe-test/tiny:${base.slice(0, 12)}`;
  await ensureRepoImage({ base: BASE_IMAGE, repoDir: dir, commit: base, tag: image });
  const bug = (order: number, from: string, to: string, f2p: string[], p2p: string[]) => ({
    order,
    swebench_instance_id: `tiny-${order}`,
    commit_hash: to,
    problem_statement: `bug ${order}`,
    date: "2024-01-01",
    source: "test",
    patch: diff(dir, from, to, ["calc"]),
    test_patch: diff(dir, from, to, ["tests"]),
    FAIL_TO_PASS: f2p,
    PASS_TO_PASS: p2p,
    test_cmds: ["python3 -m pytest -rA -p no:cacheprovider tests/test_ops.py"],
  });
  const chain: Chain = {
    continuous_id: "tiny-chain",
    repo: "test/tiny",
    base_commit: base,
    source: "test",
    date_range: "2024-01-01..2024-01-01",
    docker_image: image,
    swebench_instance_ids: ["tiny-1", "tiny-2"],
    log_parser: "pytest",
    bug_fixes: [
      bug(1, base, fix1, ["tests/test_ops.py::test_mul"], ["tests/test_ops.py::test_add"]),
      bug(2, fix1, fix2, ["tests/test_ops.py::test_cube"], ["tests/test_ops.py::test_add", "tests/test_ops.py::test_mul"]),
    ],
  };
  return { dir, chain, image };
}
