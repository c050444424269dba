/**
 * Replays one chain in one container (SPEC §3): builds the gold states, then
 * grades every bug in order from G(k-1) (Oracle) or A(k-1) (Seq). A Seq chain is
 * never aborted. Dataset and environment failures throw; they are not grades.
 */
import { randomBytes } from "node:crypto";
import { isRunnerConfigFile, parseUnifiedDiff, touchedFiles, unsafePaths } from "@/evaluator/diff";
import { gradeBug } from "@/evaluator/grading";
import { getLogParser } from "@/evaluator/parsers";
import type { LogParser } from "@/evaluator/parsers";
import type { ExecResult, Sandbox } from "@/evaluator/sandbox";
import { DatasetError, EnvironmentError } from "@/lib/errors";
import type { Bug, Chain } from "@/lib/schemas/dataset";
import { META_FIELDS, type Mode, type PredictionLine } from "@/lib/schemas/prediction";
import type { ApplyMethod, GradedBug } from "@/lib/schemas/results";
import { bugLogText } from "./log";
import { MODEL_DIFF, TEST_DIFF, bugScript, goldDiffPath, goldFixPath, goldStatesScript, taggedLines, testScript } from "./scripts";

export type BugArtifacts = { bug: GradedBug; log: string; modelPatch: string };

export type ChainReplayInput = {
  chain: Chain;
  mode: Mode;
  system: string;
  /** order → prediction; a missing bug is an empty patch */
  predictions: Map<number, PredictionLine>;
  testTimeoutS: number;
};

const newToken = () => `CHAINSWE-${randomBytes(12).toString("hex")}`;

/** Host-side checks a chain must pass before any container starts. */
export function checkChainForReplay(chain: Chain): LogParser {
  for (const bug of chain.bug_fixes) {
    const config = touchedFiles(bug.patch).filter(isRunnerConfigFile);
    if (config.length) {
      throw new DatasetError(`gold patch edits test-runner configuration (${config.join(", ")})`, chain.continuous_id, bug.order);
    }
  }
  try {
    return getLogParser(chain.log_parser);
  } catch (e) {
    throw new DatasetError((e as Error).message, chain.continuous_id);
  }
}

/** The gold patches of a chain, as files for the gold-states script. */
function goldFiles(chain: Chain): Record<string, string> {
  const files: Record<string, string> = {};
  for (const bug of chain.bug_fixes) {
    files[goldDiffPath(bug.order)] = bug.test_patch;
    files[goldFixPath(bug.order)] = bug.patch;
  }
  return files;
}

/** G(0..n) commit ids from the gold-states script's output; dataset errors name the bug. */
function parseGoldStates(output: string, token: string, chain: Chain): string[] {
  const tags = taggedLines(output, token);
  if (tags.some((t) => t.key === "NOBASE")) {
    throw new DatasetError(`base commit ${chain.base_commit} is not in ${chain.docker_image}'s /testbed repository`, chain.continuous_id);
  }
  const broken = tags.find((t) => t.key === "BROKEN");
  if (broken) {
    const [order, which] = broken.rest.split(" ");
    throw new DatasetError(`${which} patch does not apply on the gold state before it:\n${output.slice(-4000)}`, chain.continuous_id, Number(order));
  }
  const states = Array.from({ length: chain.bug_fixes.length + 1 }, (_, k) => tags.find((t) => t.key === `G${k}`)?.rest);
  if (states.some((s) => !s)) throw new EnvironmentError(`building gold states failed:\n${output.slice(-4000)}`);
  return states as string[];
}

/** Work a bug's exec does first (the chain's gold states, for bug 1), checked before the bug's own lines. */
type Prelude = { script: string; files: Record<string, string>; check: (setupOutput: string) => void };

type BugRun = { method: ApplyMethod | null; discarded: string[]; state: string; setupLog: string; run: ExecResult };

/**
 * Prepares bug k and runs its tests in one exec: the trusted preparation
 * (patch application, hidden-test restore, test patch, commit) prints tagged
 * lines, then a `<token> RUN` line, then the test command runs. Everything
 * after the first RUN line is test output; the time limit counts from it.
 */
async function runBug(sandbox: Sandbox, chain: Chain, bug: Bug, at: { start: string; goldPrev: string }, patch: string, timeoutS: number, prelude?: Prelude): Promise<BugRun> {
  const { start, goldPrev } = at;
  const unsafe = unsafePaths(patch);
  const usable = patch.trim() !== "" && unsafe.length === 0;
  const token = newToken();
  const run = `${token} RUN`;
  const script = [
    ...(prelude ? [prelude.script] : []),
    bugScript({ token, start, goldPrev, hasModelPatch: usable, testFiles: parseUnifiedDiff(bug.test_patch) ?? [] }),
    `echo "${run}"`,
    testScript(bug.test_cmds),
  ].join("\n");
  // killFirst: whatever the previous test run left behind dies before the next bug's files go in
  const files = { ...prelude?.files, [MODEL_DIFF]: usable ? patch : "", [TEST_DIFF]: bug.test_patch };
  const result = await sandbox.exec(script, { files, killFirst: true, phaseMarker: run, timeoutMs: timeoutS * 1000, watchDisk: true });
  const cut = result.output.indexOf(`${run}\n`);
  const setup = cut < 0 ? result.output : result.output.slice(0, cut);
  prelude?.check(setup);
  const tags = taggedLines(setup, token);
  if (tags.some((t) => t.key === "TESTPATCH_FAILED")) {
    throw new DatasetError(`test patch does not apply:\n${setup.slice(-4000)}`, chain.continuous_id, bug.order);
  }
  const state = tags.find((t) => t.key === "STATE")?.rest;
  const method = tags.find((t) => t.key === "METHOD")?.rest;
  if (cut < 0 || !state || !method) {
    throw new EnvironmentError(`preparing bug ${bug.order} failed (exit ${result.exitCode}):\n${setup.slice(-4000)}`);
  }
  const note = unsafe.length ? `>>> patch not applied: unsafe path(s) ${unsafe.join(", ")}\n` : "";
  return {
    method: method === "none" ? null : (method as ApplyMethod),
    discarded: tags.filter((t) => t.key === "DISCARDED").map((t) => t.rest),
    state,
    setupLog: note + setup,
    run: { ...result, output: result.output.slice(cut + run.length + 1) },
  };
}

function metaOf(p: PredictionLine | undefined): Partial<GradedBug> {
  const meta: Partial<GradedBug> = {};
  if (!p) return meta;
  for (const f of META_FIELDS) if (p[f] !== undefined) meta[f] = p[f];
  return meta;
}

async function gradeOne(
  sandbox: Sandbox,
  input: ChainReplayInput,
  parser: LogParser,
  bug: Bug,
  at: { start: string; goldPrev: string },
  prelude?: Prelude,
): Promise<BugArtifacts & { state: string }> {
  const prediction = input.predictions.get(bug.order);
  const patch = prediction?.model_patch ?? "";
  const prep = await runBug(sandbox, input.chain, bug, at, patch, input.testTimeoutS, prelude);
  const { run } = prep;
  const token = newToken();
  // The output of an overflowing run is not trusted: the real summary may be out of view.
  const parsed = run.truncated ? { observations: new Map() } : parser(run.output);
  const grade = gradeBug({
    parsed,
    failToPass: bug.FAIL_TO_PASS,
    passToPass: bug.PASS_TO_PASS,
    patchApplied: prep.method !== null,
    patchEmpty: patch.trim() === "",
    timedOut: run.timedOut,
    limitExceeded: run.diskExceeded !== null,
    exitCode: run.exitCode,
  });
  const modelFiles = prep.method ? touchedFiles(patch) : [];
  const testFiles = touchedFiles(bug.test_patch);
  const graded: GradedBug = {
    continuous_id: input.chain.continuous_id,
    swebench_instance_id: bug.swebench_instance_id,
    order: bug.order,
    mode: input.mode,
    system: input.system,
    resolved: grade.resolved,
    patch_applied: prep.method !== null,
    apply_method: prep.method,
    fingerprint: grade.fingerprint,
    tampered: grade.tampered || run.truncated,
    fail_to_pass: grade.fail_to_pass,
    pass_to_pass: grade.pass_to_pass,
    exit_code: run.exitCode,
    timed_out: run.timedOut,
    ...(run.diskExceeded ? { limit_exceeded: run.diskExceeded.limit } : {}),
    duration_s: Math.round(run.durationMs) / 1000,
    model_files: modelFiles,
    gold_files: touchedFiles(bug.patch),
    test_files: testFiles,
    discarded_files: [...new Set([...prep.discarded, ...modelFiles.filter((f) => testFiles.includes(f))])].sort(),
    ...metaOf(prediction),
  };
  const log = bugLogText({ bug: graded, setupLog: prep.setupLog, run, token, statuses: grade.statuses });
  return { bug: graded, log, modelPatch: patch, state: prep.state };
}

/**
 * Grades every bug of the chain. `onBug` sees each result as it lands.
 */
export async function replayChain(
  sandbox: Sandbox,
  input: ChainReplayInput,
  onBug: (a: BugArtifacts) => void | Promise<void> = () => {},
): Promise<BugArtifacts[]> {
  const { chain } = input;
  const parser = checkChainForReplay(chain);
  // Bug 1's exec first builds every gold state G(1..n): one exec fewer per chain.
  // G(0) is the base commit itself, so bug 1 needs none of them.
  let gold: string[] = [chain.base_commit];
  const goldToken = newToken();
  const prelude: Prelude = {
    script: goldStatesScript(goldToken, chain.base_commit, chain.bug_fixes.length),
    files: goldFiles(chain),
    check: (setupOutput) => {
      gold = parseGoldStates(setupOutput, goldToken, chain);
    },
  };
  const out: BugArtifacts[] = [];
  let agentState = chain.base_commit;
  for (const bug of chain.bug_fixes) {
    const goldPrev = gold[bug.order - 1]!;
    const start = input.mode === "oracle" ? goldPrev : agentState;
    const result = await gradeOne(sandbox, input, parser, bug, { start, goldPrev }, bug.order === 1 ? prelude : undefined);
    agentState = result.state;
    out.push(result);
    await onBug(result);
  }
  return out;
}
