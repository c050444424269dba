/**
 * A generated Python repository of real-repository size (default 5,000 tracked
 * files: a package of many small modules, test files and data fixtures) with
 * real git history and a 3-bug chain in `pkg/core.py`, each gold patch changing
 * that one file. Built by the tests and benchmarks themselves; its commits are
 * reproducible (fixed dates), so its image is built once per size.
 *
 * `overshoot` predictions are what a non-gold agent submits: the gold fix plus
 * a stray comment line in the same file, per mode (in Seq each diff is against
 * the agent's own previous state, strays included).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { ensureRepoImage } from "@/evaluator/sandbox";
import type { Chain } from "@/core/schemas/dataset";
import type { Mode, PredictionLine } from "@/core/schemas/prediction";
import { BASE_IMAGE } from "./tiny-repo";

const ENV = {
  ...process.env,
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_CONFIG_SYSTEM: "/dev/null",
  GIT_AUTHOR_NAME: "Gen",
  GIT_AUTHOR_EMAIL: "gen@example.org",
  GIT_COMMITTER_NAME: "Gen",
  GIT_COMMITTER_EMAIL: "gen@example.org",
  GIT_AUTHOR_DATE: "2024-02-01T00:00:00Z",
  GIT_COMMITTER_DATE: "2024-02-01T00:00:00Z",
};

const git = (dir: string, ...args: string[]) => execFileSync("git", args, { cwd: dir, env: ENV, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 }).trim();

function write(dir: string, files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
}

/** core.py after `fixed` of its three bugs are fixed (each fix builds on the one before). */
function core(fixed: number, strays: number[] = []): string {
  const fns = [
    fixed >= 1 ? "def double(x):\n    return x * 2\n" : "def double(x):\n    return x + 2  # bug 1\n",
    fixed >= 2 ? "def quad(x):\n    return double(double(x))\n" : "def quad(x):\n    return double(x) + 2  # bug 2\n",
    fixed >= 3 ? "def octo(x):\n    return double(quad(x))\n" : "def octo(x):\n    return quad(x) + 4  # bug 3\n",
  ];
  return `"""Core arithmetic of the generated package."""\n\n\n${fns.join("\n\n")}${strays.map((k) => `\n# stray edit ${k}\n`).join("")}`;
}

const TEST_HEAD = "from pkg.core import double, quad, octo\n\n\ndef test_import():\n    assert callable(double)\n";
const TESTS = [
  "\n\ndef test_double():\n    assert double(3) == 6\n",
  "\n\ndef test_quad():\n    assert quad(3) == 12\n",
  "\n\ndef test_octo():\n    assert octo(3) == 24\n",
];
const tests = (upTo: number) => TEST_HEAD + TESTS.slice(0, upTo).join("");

/** The filler: small modules, test files and fixtures, `count` files in all. */
function filler(count: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < count; i++) {
    const n = String(i).padStart(5, "0");
    const group = String(Math.floor(i / 250)).padStart(2, "0");
    if (i % 10 === 0) files[`tests/data/g${group}/fixture_${n}.txt`] = `fixture ${n}\n${"x".repeat(200 + (i % 300))}\n`;
    else if (i % 10 === 1) files[`tests/unit/g${group}/test_mod_${n}.py`] = `def test_mod_${n}():\n    assert ${i} + 1 == ${i + 1}\n`;
    else files[`pkg/m${group}/mod_${n}.py`] = `"""Module ${n}."""\n\nVALUE = ${i}\n\n\ndef value():\n    return VALUE\n`;
  }
  for (const group of new Set(Object.keys(files).filter((p) => p.startsWith("pkg/m")).map((p) => p.split("/")[1]))) files[`pkg/${group}/__init__.py`] = "";
  return files;
}

export type GeneratedRepo = {
  chain: Chain;
  image: string;
  trackedFiles: number;
  /** gold fix plus a stray line in the same file, per mode */
  overshoot: Record<Mode, PredictionLine[]>;
};

/** Builds the repository and its image (cached by base commit). */
export async function buildGeneratedRepo(opts: { files?: number } = {}): Promise<GeneratedRepo> {
  const dir = mkdtempSync(join(tmpdir(), "chainswe-gen-"));
  try {
    git(dir, "init", "-q", "-b", "main");
    // no automatic gc: it would run detached and still be writing when the directory is removed
    git(dir, "config", "gc.auto", "0");
    write(dir, { ...filler((opts.files ?? 5000) - 5), "pkg/__init__.py": "", "pkg/core.py": core(0), "tests/test_core.py": tests(0), ".gitignore": "__pycache__/\n.pytest_cache/\n" });
    git(dir, "add", "-A");
    git(dir, "commit", "-q", "-m", "generated repository");
    const commits = [git(dir, "rev-parse", "HEAD")];
    for (let k = 1; k <= 3; k++) {
      write(dir, { "pkg/core.py": core(k), "tests/test_core.py": tests(k) });
      git(dir, "commit", "-qam", `fix bug ${k}`);
      commits.push(git(dir, "rev-parse", "HEAD"));
    }
    const trackedFiles = git(dir, "ls-files").split("\n").length;
    const base = commits[0]!;
    const diff = (from: string, to: string, path: string) => `${git(dir, "diff", from, to, "--", path)}\n`;
    const image = `chainswe-test/generated-${trackedFiles}:${base.slice(0, 12)}`;
    await ensureRepoImage({ base: BASE_IMAGE, repoDir: dir, commit: base, tag: image });
    const ids = [1, 2, 3].map((k) => `gen-${k}`);
    const p2p = (k: number) => ["tests/test_core.py::test_import", ...["test_double", "test_quad"].slice(0, k - 1).map((t) => `tests/test_core.py::${t}`)];
    const chain: Chain = {
      continuous_id: `generated-${trackedFiles}`,
      repo: "test/generated",
      base_commit: base,
      source: "test",
      date_range: "2024-02-01..2024-02-01",
      docker_image: image,
      swebench_instance_ids: ids,
      log_parser: "pytest",
      bug_fixes: [1, 2, 3].map((k) => ({
        order: k,
        swebench_instance_id: ids[k - 1]!,
        commit_hash: commits[k]!,
        problem_statement: `bug ${k} in pkg/core.py`,
        date: "2024-02-01",
        source: "test",
        patch: diff(commits[k - 1]!, commits[k]!, "pkg/core.py"),
        test_patch: diff(commits[k - 1]!, commits[k]!, "tests/test_core.py"),
        FAIL_TO_PASS: [`tests/test_core.py::${["test_double", "test_quad", "test_octo"][k - 1]}`],
        PASS_TO_PASS: p2p(k),
        test_cmds: ["python3 -m pytest -rA -p no:cacheprovider tests/test_core.py"],
      })),
    };
    // non-gold patches, made as text diffs of core.py between the states an agent would see
    const unified = (before: string, after: string) => {
      write(dir, { "a.py": before, "b.py": after });
      try {
        execFileSync("git", ["diff", "--no-index", "a.py", "b.py"], { cwd: dir, env: ENV, encoding: "utf8" });
        return "";
      } catch (e) {
        return String((e as { stdout: string }).stdout).replace(/a\/a\.py/g, "a/pkg/core.py").replace(/b\/b\.py/g, "b/pkg/core.py");
      }
    };
    const line = (k: number, model_patch: string): PredictionLine => ({ continuous_id: chain.continuous_id, swebench_instance_id: ids[k - 1]!, model_patch });
    const seq = [1, 2, 3].map((k) => line(k, unified(core(k - 1, [1, 2, 3].slice(0, k - 1)), core(k, [1, 2, 3].slice(0, k)))));
    const oracle = [1, 2, 3].map((k) => line(k, unified(core(k - 1), core(k, [k]))));
    return { chain, image, trackedFiles, overshoot: { oracle, seq, seq_mem: seq } };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
