/**
 * bench/regrade: what re-grading a whole leaderboard from stored logs costs
 * (`chainswe regrade`, SPEC §7). Generates pytest `-rA -v` logs as the replay keeps
 * them (harness markers, listed-tests section), one set of four outcome variants per
 * bug (resolved, left unfixed, broke working code, a forged PASSED line), and then
 * measures in the same run:
 *
 *   baseline   splitting every log into lines and nothing else
 *   regrade    regradeBug on every bug of --submissions × --bugs (default 1,000 × 304):
 *              markers, parse, grade, per-test changes
 *   on disk    regradeDir (reads test_output.txt files, writes results.regraded.jsonl
 *              and regrade.json) on --disk-submissions evaluation directories in a temp dir,
 *              extrapolated to --submissions
 *
 * Each log holds --tests tests (default 150, every one reported twice: its -v line and the
 * summary), a bug lists 3 FAIL_TO_PASS and --listed PASS_TO_PASS tests (default 60).
 * Pure CPU on one core; nothing is asserted.
 *
 * Usage: npm run bench:regrade [-- --submissions 1000 --bugs 304 --tests 150 --listed 60 --disk-submissions 10]
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { listsFromResult, regradeBug, regradeDir } from "@/evaluator/regrade";
import { bugLogDir, resultLine, SUMMARY_FILE } from "@/evaluator/replay/output";
import { gradedWithLog } from "@/evaluator/regrade/test-fixtures";
import { runSummary } from "@/core/scoring/test-fixtures";
import type { GradedBug } from "@/core/schemas/results";

const { values: args } = parseArgs({
  options: {
    submissions: { type: "string", default: "1000" },
    bugs: { type: "string", default: "304" },
    tests: { type: "string", default: "150" },
    listed: { type: "string", default: "60" },
    "disk-submissions": { type: "string", default: "10" },
  },
});
const SUBMISSIONS = Number(args.submissions);
const BUGS = Number(args.bugs);
const TESTS = Number(args.tests);
const LISTED = Number(args.listed);
const DISK = Number(args["disk-submissions"]);
const CHAIN_LENGTH = 3;
const VARIANTS = ["resolved", "left_unfixed", "broke_working_code", "forged"] as const;

type Stored = { bug: GradedBug; log: string };

const idOf = (b: number, i: number) => `tests/unit/test_mod_${b}.py::TestFeature${i % 7}::test_case_${i}[param-${i % 5}]`;

/** One bug's run under one outcome, as the replay would have graded and logged it. */
function storedBug(b: number, variant: (typeof VARIANTS)[number]): Stored {
  const f2p = [0, 1, 2].map((i) => idOf(b, i));
  const p2p = Array.from({ length: LISTED }, (_, i) => idOf(b, i + 3));
  const failing = new Set(variant === "left_unfixed" ? [f2p[0]] : variant === "broke_working_code" ? [p2p[5]] : variant === "forged" ? [f2p[1]] : []);
  const verbose: string[] = [];
  const summary: string[] = [];
  const failures: string[] = [];
  for (let i = 0; i < TESTS; i++) {
    const id = idOf(b, i);
    const status = failing.has(id) ? "FAILED" : "PASSED";
    verbose.push(`${id} ${status}`.padEnd(72) + ` [${String(Math.floor(((i + 1) * 100) / TESTS)).padStart(3)}%]`);
    summary.push(status === "FAILED" ? `FAILED ${id} - AssertionError: assert 3 == 4` : `PASSED ${id}`);
    if (status === "FAILED") failures.push(`${"_".repeat(20)} TestFeature.test_case_${i} ${"_".repeat(20)}`, "", "    def test_case():", ">       assert compute(1, 2) == 4", "E       assert 3 == 4", "", `tests/unit/test_mod_${b}.py:42: AssertionError`);
  }
  const forged = variant === "forged" ? [`${f2p[1]} PASSED`] : [];
  const output = [
    "============================= test session starts ==============================",
    "platform linux -- Python 3.11.7, pytest-8.3.2, pluggy-1.5.0 -- /usr/bin/python3",
    `collecting ... collected ${TESTS} items`,
    "",
    ...verbose,
    ...forged,
    "",
    "=================================== FAILURES ===================================",
    ...failures,
    "==================================== PASSES ====================================",
    "=========================== short test summary info ============================",
    ...summary,
    `======================== ${TESTS - failing.size} passed, ${failing.size} failed in 3.21s =========================`,
  ].join("\n");
  return gradedWithLog({
    output,
    parser: "pytest",
    failToPass: f2p,
    passToPass: p2p,
    exitCode: failing.size ? 1 : 0,
    durationMs: 3210,
    setupLog: ">>> git apply --verbose\nChecking patch src/mod.py...\nApplied patch src/mod.py cleanly.",
    result: { continuous_id: `bench-chain-${Math.floor(b / CHAIN_LENGTH)}`, order: (b % CHAIN_LENGTH) + 1, system: "bench" },
  });
}

const variantOf = (s: number, b: number) => VARIANTS[(s * 7 + b * 13) % VARIANTS.length]!;

function seconds(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e9;
}

async function onDisk(pool: Stored[][]): Promise<number> {
  const root = await mkdtemp(join(tmpdir(), "chainswe-bench-regrade-"));
  try {
    const chains: [string, number][] = Array.from({ length: Math.ceil(BUGS / CHAIN_LENGTH) }, (_, c) => [`bench-chain-${c}`, CHAIN_LENGTH]);
    const dirs: string[] = [];
    for (let s = 0; s < DISK; s++) {
      const dir = join(root, `sub-${s}`);
      const stored = Array.from({ length: BUGS }, (_, b) => pool[b]![VARIANTS.indexOf(variantOf(s, b))]!);
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, SUMMARY_FILE), JSON.stringify({ ...runSummary("bench", "seq", chains), dataset: { path: join(root, "absent.jsonl"), sha256: "0".repeat(64), chains: chains.map(([continuous_id, length]) => ({ continuous_id, length })) } }));
      await writeFile(join(dir, "results.jsonl"), stored.map((x) => resultLine(x.bug)).join(""));
      for (const x of stored) {
        const d = bugLogDir(dir, x.bug.continuous_id, x.bug.order);
        await mkdir(d, { recursive: true });
        await writeFile(join(d, "test_output.txt"), x.log);
      }
      dirs.push(dir);
    }
    const start = process.hrtime.bigint();
    for (const dir of dirs) await regradeDir(dir);
    return seconds(start);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const genStart = process.hrtime.bigint();
  const pool = Array.from({ length: BUGS }, (_, b) => VARIANTS.map((v) => storedBug(b, v)));
  const logBytes = pool.flat().reduce((n, x) => n + Buffer.byteLength(x.log), 0) / pool.flat().length;
  console.log(`generated ${BUGS} bugs × ${VARIANTS.length} variants in ${seconds(genStart).toFixed(1)} s; mean log ${(logBytes / 1024).toFixed(1)} KB, ${TESTS} tests, ${3 + LISTED} listed`);

  let lines = 0;
  const baseStart = process.hrtime.bigint();
  for (let s = 0; s < SUBMISSIONS; s++) for (let b = 0; b < BUGS; b++) lines += pool[b]![VARIANTS.indexOf(variantOf(s, b))]!.log.split("\n").length;
  const baseline = seconds(baseStart);

  let changed = 0;
  const start = process.hrtime.bigint();
  for (let s = 0; s < SUBMISSIONS; s++) {
    for (let b = 0; b < BUGS; b++) {
      const { bug, log } = pool[b]![VARIANTS.indexOf(variantOf(s, b))]!;
      const out = regradeBug({ old: bug, log, parser: "pytest", ...listsFromResult(bug) });
      if (!out.ok) throw new Error(out.reason);
      if (out.changed) changed++;
    }
  }
  const regrade = seconds(start);
  const total = SUBMISSIONS * BUGS;
  const gb = (logBytes * total) / 1024 ** 3;
  console.log(`baseline (split ${lines.toLocaleString()} lines)   ${baseline.toFixed(1)} s`);
  console.log(`regrade ${SUBMISSIONS} × ${BUGS} = ${total.toLocaleString()} bugs (${gb.toFixed(1)} GB of logs): ${regrade.toFixed(1)} s, ${((regrade / total) * 1e6).toFixed(0)} µs/bug, ${(regrade / baseline).toFixed(1)}× baseline; ${changed} verdicts changed`);
  if (DISK > 0) {
    const disk = await onDisk(pool);
    console.log(`on disk: regradeDir over ${DISK} × ${BUGS} bugs in ${disk.toFixed(1)} s (${((disk / DISK) * 1000).toFixed(0)} ms/submission) → ${((disk * SUBMISSIONS) / DISK / 60).toFixed(1)} min for ${SUBMISSIONS} (extrapolated)`);
  }
}

await main();
