/**
 * Chain records (core/schemas/dataset.ts) from the built repositories, with every bug's
 * FAIL_TO_PASS / PASS_TO_PASS lists checked by running pytest on the host:
 * base + test patch (F2P fail, P2P pass) and base + test patch + gold (all pass).
 */
import { testVerdict, verdictPasses } from "@/core/grading";
import type { BuiltRepo } from "../repos";
import { DIFF_FLAGS, git } from "./proc";
import { Sandbox, testCommand, type TestRun } from "./sandbox";
import { isTestFile, readIssue } from "./source";

export const SOURCE = "chainswe-demo";

export type DemoBug = {
  order: number;
  swebench_instance_id: string;
  commit_hash: string;
  problem_statement: string;
  date: string;
  source: string;
  patch: string;
  test_patch: string;
  FAIL_TO_PASS: string[];
  PASS_TO_PASS: string[];
  test_cmds: string;
};

export type DemoChain = {
  continuous_id: string;
  repo: string;
  base_commit: string;
  source: string;
  date_range: string;
  docker_image: string;
  swebench_instance_ids: string[];
  bug_fixes: DemoBug[];
};

/** What the simulation needs beyond the record: where G(k-1) is and what runs. */
export type BugFacts = { goldPrev: string; testFiles: string[]; goldFiles: string[]; testPatchFiles: string[] };
export type ChainFacts = { repo: BuiltRepo; chain: DemoChain; bugs: BugFacts[] };

async function diff(dir: string, from: string, to: string, files: string[]): Promise<string> {
  if (files.length === 0) throw new Error(`${dir}: ${from}..${to} changes no such files`);
  return (await git(dir, [...DIFF_FLAGS, from, to, "--", ...files])).stdout;
}

/** The test files pytest is pointed at in a state: test_*.py files under tests/. */
async function testFilesAt(dir: string, commit: string): Promise<string[]> {
  const out = (await git(dir, ["ls-tree", "-r", "--name-only", commit, "--", "tests"])).stdout;
  return out.split("\n").filter((f) => /^tests\/(.+\/)?test_[^/]*\.py$/.test(f)).sort();
}

function passingIds(run: TestRun): Set<string> {
  const ids = new Set<string>();
  for (const [id, reports] of run.parsed.observations) {
    if (id.includes("::") && verdictPasses(testVerdict(reports, "PASS_TO_PASS"), "PASS_TO_PASS")) ids.add(id);
  }
  return ids;
}

function sameSet(a: string[], b: string[]): boolean {
  return a.length === b.length && [...a].sort().join("\n") === [...b].sort().join("\n");
}

/** Runs before/after states and fails loudly when the declared lists are not what pytest says. */
async function verifyLists(sandbox: Sandbox, id: string, parent: string, fix: string, testPatchFiles: string[], declared: { f2p: string[]; p2p: string[] }, testFiles: string[]): Promise<void> {
  await sandbox.reset(parent);
  await sandbox.git(["checkout", "-q", fix, "--", ...testPatchFiles]);
  const before = await sandbox.runTests(await sandbox.commitAll("base + test patch"), testFiles);
  const after = await sandbox.runTests(fix, testFiles);
  const afterIds = [...after.parsed.observations.keys()].filter((t) => t.includes("::"));
  const passedAfter = passingIds(after);
  const failingAfter = afterIds.filter((t) => !passedAfter.has(t));
  if (failingAfter.length > 0 || after.exitCode !== 0) {
    throw new Error(`${id}: the gold state does not pass all tests: ${failingAfter.join(", ")}\n${after.log}`);
  }
  const passedBefore = passingIds(before);
  const f2p = afterIds.filter((t) => !passedBefore.has(t));
  const p2p = afterIds.filter((t) => passedBefore.has(t));
  if (!sameSet(f2p, declared.f2p) || !sameSet(p2p, declared.p2p)) {
    const computed = JSON.stringify({ FAIL_TO_PASS: f2p, PASS_TO_PASS: p2p }, null, 2);
    throw new Error(`${id}: FAIL_TO_PASS/PASS_TO_PASS in repo.json differ from what pytest reports:\n${computed}`);
  }
}

export async function buildChain(repo: BuiltRepo): Promise<ChainFacts> {
  const { source, dir, name } = repo;
  const sandbox = await Sandbox.clone(dir);
  try {
    const bugs: DemoBug[] = [];
    const facts: BugFacts[] = [];
    let parent = repo.baseCommit;
    for (const [index, bugSource] of source.bugs.entries()) {
      const order = index + 1;
      const fix = repo.fixCommits[index] as string;
      const id = `${SOURCE}__${name}-${order}`;
      const changed = (await git(dir, ["diff", "--name-only", parent, fix])).stdout.split("\n").filter(Boolean);
      const testPatchFiles = changed.filter(isTestFile);
      const goldFiles = changed.filter((f) => !isTestFile(f));
      const testFiles = await testFilesAt(dir, fix);
      await verifyLists(sandbox, id, parent, fix, testPatchFiles, { f2p: bugSource.FAIL_TO_PASS, p2p: bugSource.PASS_TO_PASS }, testFiles);
      bugs.push({
        order,
        swebench_instance_id: id,
        commit_hash: fix,
        problem_statement: await readIssue(source, bugSource),
        date: bugSource.date,
        source: SOURCE,
        patch: await diff(dir, parent, fix, goldFiles),
        test_patch: await diff(dir, parent, fix, testPatchFiles),
        FAIL_TO_PASS: bugSource.FAIL_TO_PASS,
        PASS_TO_PASS: bugSource.PASS_TO_PASS,
        test_cmds: testCommand(testFiles),
      });
      facts.push({ goldPrev: parent, testFiles, goldFiles, testPatchFiles });
      parent = fix;
    }
    const dates = bugs.map((b) => b.date.slice(0, 10));
    const chain: DemoChain = {
      continuous_id: `${name}-chain-1`,
      repo: `${SOURCE}/${name}`,
      base_commit: repo.baseCommit,
      source: SOURCE,
      date_range: `${dates[0]}..${dates[dates.length - 1]}`,
      docker_image: `${SOURCE}/${name}:${repo.baseCommit.slice(0, 12)}`,
      swebench_instance_ids: bugs.map((b) => b.swebench_instance_id),
      bug_fixes: bugs,
    };
    return { repo, chain, bugs: facts };
  } finally {
    await sandbox.dispose();
  }
}
