/**
 * bench/replay: the replay's harness overhead on what users submit — gold and
 * non-gold systems side by side, in Seq and Oracle — on three repository sizes:
 *
 *   demo        the demo dataset (10 chains, 32 bugs, tiny repositories)
 *   generated   a generated repository of 5,000 tracked files, one 3-bug chain
 *               (tests/docker/generated-repo.ts)
 *   real        a real public Python repository (pygments, 2,796 tracked files),
 *               one 3-bug chain from three consecutive commits of its own
 *               history; built from a local git mirror given with --real DIR,
 *               skipped with a message when none is given
 *
 * For each repository, system and mode it runs, in the same process and one
 * after the other:
 *
 *   replay      `evaluate` (what `chainswe evaluate` and the workers run)
 *   plain loop  one container, per bug `git apply` of the patches + the test
 *               command: no isolation between bugs at all
 *   SWE-bench   a fresh container per bug that re-applies every earlier patch,
 *               then the bug's patches and its test command
 *
 * and prints the replay's wall time, the time inside the test commands, the
 * harness overhead per bug ((wall − tests) / bugs), and the replay ÷ plain loop
 * and replay ÷ SWE-bench-style ratios. Prints figures; asserts nothing.
 *
 * Usage: npm run bench:replay [-- --real DIR --only demo,generated,real --modes seq,oracle --repeat N]
 */
import { execFileSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { DEMO_DATASET, ensureDemoImages } from "@/cli/demo";
import { loadDataset, loadPredictions, type Dataset, type Predictions } from "@/evaluator/dataset";
import { evaluate } from "@/evaluator/replay";
import { goldPredictions } from "@/evaluator/replay/gold";
import { q, testScript } from "@/evaluator/replay/scripts";
import { Sandbox, assertEngine, defaultLimits, ensureRepoImage } from "@/evaluator/sandbox";
import type { Chain } from "@/core/schemas/dataset";
import type { Mode, PredictionLine } from "@/core/schemas/prediction";
import { BASE_IMAGE } from "../tests/docker/tiny-repo";
import { buildGeneratedRepo } from "../tests/docker/generated-repo";

const { values: args } = parseArgs({
  options: {
    real: { type: "string" },
    only: { type: "string", default: "demo,generated,real" },
    modes: { type: "string", default: "seq,oracle" },
    repeat: { type: "string", default: "1" },
  },
});

type System = { name: string; predictions: (mode: Mode) => Promise<Predictions> };
type Target = { name: string; dataset: Dataset; systems: System[] };

const predictionsOf = (chains: Chain[], lines: (chain: Chain, mode: Mode) => PredictionLine[], mode: Mode): Predictions => ({
  path: "bench",
  sha256: "bench",
  system: null,
  warnings: [],
  byChain: new Map(chains.map((c) => [c.continuous_id, new Map(lines(c, mode).map((l) => [c.bug_fixes.find((b) => b.swebench_instance_id === l.swebench_instance_id)!.order, l]))])),
});

const gold = (dataset: Dataset): System => ({ name: "gold", predictions: async () => goldPredictions(dataset) });

async function demoTarget(): Promise<Target> {
  const dataset = await loadDataset(DEMO_DATASET);
  await ensureDemoImages(dataset);
  const shipped = (system: string): System => ({
    name: system,
    predictions: (mode) => loadPredictions(join("demo", "predictions", `${system}.${mode === "oracle" ? "oracle" : "seq"}.jsonl`), dataset.chains),
  });
  return { name: "demo", dataset, systems: [gold(dataset), shipped("demo-overshoot"), shipped("demo-drifter")] };
}

async function generatedTarget(): Promise<Target> {
  const repo = await buildGeneratedRepo({ files: 5000 });
  const dataset: Dataset = { path: "generated", sha256: "generated", chains: [repo.chain], warnings: [] };
  return {
    name: `generated (${repo.trackedFiles} files)`,
    dataset,
    systems: [gold(dataset), { name: "overshoot", predictions: async (mode) => predictionsOf(dataset.chains, () => repo.overshoot[mode], mode) }],
  };
}

/**
 * pygments: three consecutive first-parent commits, each a fix with its own
 * test (a Bash lexer fix with an example file, a YAML lexer fix with a
 * snippet, the command line refusing a bad -L value).
 */
const REAL = {
  repo: "pygments/pygments",
  base: "d0588828d",
  commits: ["82e3442fa", "bc57a65d6", "8549c5a79"],
  tests: ["tests/examplefiles/bash", "tests/snippets/yaml", "tests/test_cmdline.py"],
};

const isTestPath = (p: string) => p.startsWith("tests/");

async function realTarget(mirror: string): Promise<Target> {
  const git = (...a: string[]) => execFileSync("git", ["-C", mirror, ...a], { encoding: "utf8", maxBuffer: 256 * 1024 * 1024 }).trim();
  const full = [REAL.base, ...REAL.commits].map((c) => git("rev-parse", `${c}^{commit}`));
  // The image holds the base commit's tree as a one-commit repository: a mirror may lack
  // old blobs of the history (a partial copy), and the replay needs only the tree.
  const work = await mkdtemp(join(tmpdir(), "chainswe-bench-real-"));
  const local = (...a: string[]) =>
    execFileSync("git", ["-C", work, ...a], {
      encoding: "utf8",
      env: { ...process.env, GIT_AUTHOR_NAME: "bench", GIT_AUTHOR_EMAIL: "bench@localhost", GIT_COMMITTER_NAME: "bench", GIT_COMMITTER_EMAIL: "bench@localhost", GIT_AUTHOR_DATE: "2026-07-14T00:00:00Z", GIT_COMMITTER_DATE: "2026-07-14T00:00:00Z" },
    }).trim();
  execFileSync("bash", ["-c", `git -C ${q(mirror)} archive ${q(full[0]!)} | tar -x -C ${q(work)}`]);
  local("init", "-q", "-b", "main");
  local("config", "gc.auto", "0");
  local("add", "-A");
  local("commit", "-q", "-m", `${REAL.repo} at ${full[0]!.slice(0, 12)}`);
  const base = local("rev-parse", "HEAD");
  const image = `chainswe-bench/pygments:${base.slice(0, 12)}`;
  await ensureRepoImage({ base: BASE_IMAGE, repoDir: work, commit: base, tag: image });
  await rm(work, { recursive: true, force: true });
  const trackedFiles = git("ls-tree", "-r", "--name-only", full[0]!).split("\n").length;
  const diffOf = (from: string, to: string, test: boolean) => {
    const paths = git("diff", "--name-only", from, to).split("\n").filter((p) => p && isTestPath(p) === test);
    return paths.length ? `${git("diff", "--binary", "--full-index", from, to, "--", ...paths)}\n` : "";
  };
  const testCmd = `python3 -m pytest -rA -p no:cacheprovider ${REAL.tests.join(" ")}`;
  // which listed tests fail before each fix and pass after it: run once in a container per state
  const statuses = await testStatuses(image, base, full, testCmd, diffOf);
  const chain: Chain = {
    continuous_id: "pygments-bench-1",
    repo: REAL.repo,
    base_commit: base,
    source: "bench",
    date_range: "2026-07-14..2026-07-16",
    docker_image: image,
    swebench_instance_ids: REAL.commits.map((c) => `pygments-${c}`),
    log_parser: "pytest",
    bug_fixes: REAL.commits.map((c, i) => ({
      order: i + 1,
      swebench_instance_id: `pygments-${c}`,
      commit_hash: full[i + 1]!,
      problem_statement: git("log", "-1", "--format=%B", full[i + 1]!),
      date: "2026-07-15",
      source: "bench",
      patch: diffOf(full[i]!, full[i + 1]!, false),
      test_patch: diffOf(full[i]!, full[i + 1]!, true),
      FAIL_TO_PASS: statuses[i]!.failToPass,
      PASS_TO_PASS: statuses[i]!.passToPass,
      test_cmds: [testCmd],
    })),
  };
  const dataset: Dataset = { path: "real", sha256: "real", chains: [chain], warnings: [] };
  // a non-gold system: each gold fix plus a file of its own (applies in Seq and Oracle alike, and changes other lines)
  const overshoot = (c: Chain) =>
    c.bug_fixes.map((b) => ({
      continuous_id: c.continuous_id,
      swebench_instance_id: b.swebench_instance_id,
      model_patch: `${b.patch}diff --git a/pygments/_stray_${b.order}.py b/pygments/_stray_${b.order}.py\nnew file mode 100644\n--- /dev/null\n+++ b/pygments/_stray_${b.order}.py\n@@ -0,0 +1 @@\n+# a stray edit, not part of the fix\n`,
    }));
  return {
    name: `real: ${REAL.repo} (${trackedFiles} files)`,
    dataset,
    systems: [gold(dataset), { name: "overshoot", predictions: async (mode) => predictionsOf(dataset.chains, overshoot, mode) }],
  };
}

/** Listed tests of each bug: FAIL_TO_PASS (failing at G(k-1) + test patch k, passing at G(k)), PASS_TO_PASS (passing at both). */
async function testStatuses(image: string, base: string, commits: string[], testCmd: string, diffOf: (a: string, b: string, test: boolean) => string) {
  const passed = (out: string) => new Set([...out.matchAll(/^PASSED (\S+)/gm)].map((m) => m[1]!));
  const out: { failToPass: string[]; passToPass: string[] }[] = [];
  const sandbox = await Sandbox.start(image, defaultLimits(), { "chainswe.bench": "replay" });
  try {
    for (let k = 1; k < commits.length; k++) {
      // the image has the base commit only: G(k-1) is the base plus the diffs of the fixes before k
      const run = async (patches: string[]) => {
        const files = Object.fromEntries(patches.map((p, i) => [`/tmp/bench/${i}.diff`, p]));
        const apply = patches.map((p, i) => (p ? `git apply /tmp/bench/${i}.diff` : "true")).join(" && ");
        const r = await sandbox.exec(`cd /testbed && git checkout -q -f ${q(base)} && git clean -fdq && ${apply} && ${testCmd}`, { files, timeoutMs: 600_000 });
        return passed(r.output);
      };
      const before = await run([diffOf(commits[0]!, commits[k - 1]!, true), diffOf(commits[0]!, commits[k - 1]!, false), diffOf(commits[k - 1]!, commits[k]!, true)]);
      const after = await run([diffOf(commits[0]!, commits[k]!, true), diffOf(commits[0]!, commits[k]!, false)]);
      out.push({ failToPass: [...after].filter((t) => !before.has(t)).sort(), passToPass: [...after].filter((t) => before.has(t)).sort() });
    }
  } finally {
    await sandbox.remove();
  }
  return out;
}

/** The patches applied before bug k's own: the earlier gold states (Oracle) or the earlier model patches (Seq), with their test patches. */
function priorPatches(chain: Chain, mode: Mode, lines: Map<number, PredictionLine>, k: number): string[] {
  return chain.bug_fixes.slice(0, k - 1).flatMap((b) => [mode === "oracle" ? b.patch : (lines.get(b.order)?.model_patch ?? ""), b.test_patch]);
}

/** One bug's patches and tests as a script: apply each patch (a failed one is skipped), then run the tests. */
function loopScript(chain: Chain, k: number, patches: string[], reset: boolean): { script: string; files: Record<string, string> } {
  const bug = chain.bug_fixes[k - 1]!;
  const files = Object.fromEntries(patches.map((p, i) => [`/tmp/loop/${i}.diff`, p]));
  const apply = patches.map((p, i) => (p.trim() ? `git apply /tmp/loop/${i}.diff || patch -p1 --batch --fuzz=5 -i /tmp/loop/${i}.diff >/dev/null || true` : "true"));
  const toBase = reset ? [`git reset -q --hard ${q(chain.base_commit)}`, "git clean -fdq"] : [];
  return { script: ["cd /testbed", ...toBase, ...apply, testScript(bug.test_cmds)].join("\n"), files };
}

/** Plain loop: one container for the chain, no isolation; SWE-bench style: a fresh container per bug. */
async function loop(dataset: Dataset, predictions: Predictions, mode: Mode, freshPerBug: boolean): Promise<number> {
  const started = performance.now();
  for (const chain of dataset.chains) {
    const lines = predictions.byChain.get(chain.continuous_id) ?? new Map();
    let shared: Sandbox | undefined;
    try {
      for (const bug of chain.bug_fixes) {
        const sandbox = freshPerBug ? await Sandbox.start(chain.docker_image, defaultLimits(), { "chainswe.bench": "replay" }) : (shared ??= await Sandbox.start(chain.docker_image, defaultLimits(), { "chainswe.bench": "replay" }));
        const own = [lines.get(bug.order)?.model_patch ?? "", bug.test_patch];
        const patches = mode === "oracle" || freshPerBug ? [...priorPatches(chain, mode, lines, bug.order), ...own] : own;
        // in one shared container an Oracle bug starts again from the base commit; a Seq bug from where the last one left
        const { script, files } = loopScript(chain, bug.order, patches, !freshPerBug && mode === "oracle");
        await sandbox.exec(script, { files, timeoutMs: 600_000 });
        if (freshPerBug) await sandbox.remove();
      }
    } finally {
      await shared?.remove();
    }
  }
  return (performance.now() - started) / 1000;
}

async function replay(dataset: Dataset, predictions: Predictions, mode: Mode, system: string) {
  const out = await mkdtemp(join(tmpdir(), "chainswe-bench-"));
  const started = performance.now();
  const summary = await evaluate({ dataset, predictions, mode, outDir: out, system, concurrency: 1, chainIds: null, limits: defaultLimits() });
  const wall = (performance.now() - started) / 1000;
  await rm(out, { recursive: true, force: true });
  return { wall, tests: summary.test_seconds, bugs: summary.bugs_graded, resolved: summary.bugs_resolved };
}

const f = (n: number, d = 2) => n.toFixed(d);

await assertEngine();
const wanted = new Set(args.only!.split(","));
const targets: Target[] = [];
if (wanted.has("demo")) targets.push(await demoTarget());
if (wanted.has("generated")) targets.push(await generatedTarget());
if (wanted.has("real")) {
  if (args.real) targets.push(await realTarget(args.real));
  else console.log(`real repository skipped: give --real DIR, a git clone or mirror of ${REAL.repo} holding commit ${REAL.commits.at(-1)}`);
}
const modes = args.modes!.split(",") as Mode[];
console.log(`bench/replay: ${targets.map((t) => t.name).join("; ")}; modes ${modes.join(", ")}; ${args.repeat} repeat(s)`);
console.log("| repository | system | mode | bugs | resolved | replay wall s | tests s | overhead s/bug | plain loop s | replay ÷ plain | SWE-bench style s | replay ÷ SWE-bench |");
console.log("|---|---|---|---|---|---|---|---|---|---|---|---|");
for (let r = 0; r < Number(args.repeat); r++) {
  for (const t of targets) {
    for (const system of t.systems) {
      for (const mode of modes) {
        const predictions = await system.predictions(mode);
        const plain = await loop(t.dataset, predictions, mode, false);
        const rep = await replay(t.dataset, predictions, mode, system.name);
        const swe = await loop(t.dataset, predictions, mode, true);
        const overhead = (rep.wall - rep.tests) / rep.bugs;
        console.log(`| ${t.name} | ${system.name} | ${mode} | ${rep.bugs} | ${rep.resolved} | ${f(rep.wall)} | ${f(rep.tests)} | ${f(overhead, 3)} | ${f(plain)} | ${f(rep.wall / plain)} | ${f(swe)} | ${f(rep.wall / swe)} |`);
      }
    }
  }
}
