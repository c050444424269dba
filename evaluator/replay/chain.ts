/**
 * Replays one chain in one container (SPEC §3): builds the gold states, then
 * grades every bug in order from G(k-1) (Oracle) or A(k-1) (Seq). A Seq chain is
 * never aborted. Dataset and environment failures throw; they are not grades.
 *
 * Code under test runs as root and can change anything in the container — a
 * `.pth` file in site-packages, a `python3` earlier on PATH, ignored files,
 * objects and config in /testbed/.git — so after a run that may have executed
 * submitted code, the container is brought back to its image
 * (Sandbox.revertToImage) and bug k's exec rebuilds its start from the patches
 * alone: G(0..k-1), and for Seq A(1..k-1) by replaying the earlier model
 * patches. Commits are reproducible, so the rebuilt states must have the ids
 * first recorded; if not, that is an environment error. After a run of the
 * dataset's own code only (see datasetCodeOnly) the revert is skipped: that run
 * is the one `validate` makes, and a revert costs about a second.
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
import { MODEL_DIFF, TEST_DIFF, bugScript, goldDiffPath, goldFixPath, goldStatesScript, replayModelPath, taggedLines, testScript } from "./scripts";

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

/** The gold patches of bugs 1..upTo, as files for the gold-states script. */
function goldFiles(chain: Chain, upTo: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (const bug of chain.bug_fixes.slice(0, upTo)) {
    files[goldDiffPath(bug.order)] = bug.test_patch;
    files[goldFixPath(bug.order)] = bug.patch;
  }
  return files;
}

/** A model patch the replay tries to apply: not empty, and no path outside the repository or into .git. */
function usablePatch(patch: string): boolean {
  return patch.trim() !== "" && unsafePaths(patch).length === 0;
}

/** G(0..upTo) commit ids from the gold-states script's output; dataset errors name the bug. */
function parseGoldStates(output: string, token: string, chain: Chain, upTo: number): string[] {
  const tags = taggedLines(output, token);
  if (tags.some((t) => t.key === "NOBASE")) {
    throw new DatasetError(`base commit ${chain.base_commit} is not in ${chain.docker_image}'s /testbed repository`, chain.continuous_id);
  }
  const broken = tags.find((t) => t.key === "BROKEN");
  if (broken) {
    const [order, which] = broken.rest.split(" ");
    throw new DatasetError(`${which} patch does not apply on the gold state before it:\n${output.slice(-4000)}`, chain.continuous_id, Number(order));
  }
  const states = Array.from({ length: upTo + 1 }, (_, k) => tags.find((t) => t.key === `G${k}`)?.rest);
  if (states.some((s) => !s)) throw new EnvironmentError(`building gold states failed:\n${output.slice(-4000)}`);
  return states as string[];
}

/** Work a bug's exec does first (rebuilding its start state), checked before the bug's own lines. */
export type Prelude = { script: string; files: Record<string, string>; check: (setupOutput: string) => void };

/** What replay has recorded so far: G(0..n) once bug 1 ran, A(0..k-1) for Seq. */
export type ChainStates = { gold: string[]; agent: string[] };

const sameIds = (built: string[], recorded: string[]) => built.length === recorded.length && built.every((id, i) => id === recorded[i]);

/**
 * Bug 1's exec builds every gold state G(1..n) (G(0) is the base commit). Bug
 * k ≥ 2 starts from a container reverted to its image, so its exec rebuilds
 * G(0..k-1) and, for Seq, A(1..k-1) by replaying model patch j on A(j-1) with
 * the same steps that graded bug j. Agent states not yet recorded (the rollout
 * meets A(k-1) first here) are recorded; the others must come out the same.
 */
export function rebuildPrelude(input: ChainReplayInput, k: number, states: ChainStates): Prelude {
  const { chain } = input;
  const goldToken = newToken();
  const upTo = k === 1 ? chain.bug_fixes.length : k - 1;
  const replayToken = newToken();
  const replays = input.mode === "oracle" ? [] : chain.bug_fixes.slice(0, k - 1);
  const files: Record<string, string> = goldFiles(chain, upTo);
  const scripts = [goldStatesScript(goldToken, chain.base_commit, upTo)];
  for (const bug of replays) {
    const patch = input.predictions.get(bug.order)?.model_patch ?? "";
    const usable = usablePatch(patch);
    if (usable) files[replayModelPath(bug.order)] = patch;
    scripts.push(
      bugScript({
        token: `${replayToken}-${bug.order}`,
        start: states.agent[bug.order - 1]!,
        goldPrev: states.gold[bug.order - 1]!,
        hasModelPatch: usable,
        testFiles: parseUnifiedDiff(bug.test_patch) ?? [],
        modelDiff: replayModelPath(bug.order),
        testDiff: goldDiffPath(bug.order),
      }),
    );
  }
  const check = (output: string) => {
    const gold = parseGoldStates(output, goldToken, chain, upTo);
    if (k === 1) {
      states.gold = gold;
      return;
    }
    if (!sameIds(gold, states.gold.slice(0, upTo + 1))) {
      throw new EnvironmentError(`gold states rebuilt for bug ${k} differ from those first built (${gold.join(" ")})`);
    }
    const agent = replays.map((b) => taggedLines(output, `${replayToken}-${b.order}`).find((t) => t.key === "STATE")?.rest ?? "none");
    const known = states.agent.slice(1, 1 + replays.length);
    if (!sameIds(agent.slice(0, known.length), known) || agent.includes("none")) {
      throw new EnvironmentError(`agent states A(1..${k - 1}) rebuilt for bug ${k} differ from those graded (${agent.join(" ")}):\n${output.slice(-4000)}`);
    }
    states.agent.push(...agent.slice(known.length));
  };
  return { script: scripts.join("\n"), files, check };
}

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
  const usable = usablePatch(patch);
  const token = newToken();
  const run = `${token} RUN`;
  const script = [
    ...(prelude ? [prelude.script, `echo "${token} PREPARE"`] : []),
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
  // the rebuild of the start state is the same for every submission: the log keeps this bug's own steps
  const own = setup.indexOf(`${token} PREPARE\n`);
  const rebuilt = bug.order > 1 && prelude ? `>>> container reverted to its image; start state rebuilt from the patches before bug ${bug.order}\n` : "";
  return {
    method: method === "none" ? null : (method as ApplyMethod),
    discarded: tags.filter((t) => t.key === "DISCARDED").map((t) => t.rest),
    state,
    setupLog: note + rebuilt + (own < 0 ? setup : setup.slice(own + token.length + 9)),
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
  const states: ChainStates = { gold: [chain.base_commit], agent: [chain.base_commit] };
  const out: BugArtifacts[] = [];
  // A(0) is the base commit; "clean" = only the dataset's own code has run in the container so far
  let agentStateDatasetOnly = true;
  let clean = true;
  for (const bug of chain.bug_fixes) {
    // what a run of submitted code left anywhere in the container must not reach bug k
    const reverted = !clean;
    if (reverted) await sandbox.revertToImage();
    // bug 1 builds the gold states; after a revert bug k rebuilds its start; otherwise the states are there
    const prelude = bug.order === 1 || reverted ? rebuildPrelude(input, bug.order, states) : undefined;
    const goldPrev = (): string => states.gold[bug.order - 1]!;
    // bug 1 starts from G(0) = A(0) = the base commit; later starts are known before their exec
    const start = bug.order === 1 ? chain.base_commit : input.mode === "oracle" ? goldPrev() : states.agent[bug.order - 1]!;
    const result = await gradeOne(sandbox, input, parser, bug, { start, goldPrev: bug.order === 1 ? chain.base_commit : goldPrev() }, prelude);
    const startDatasetOnly = input.mode === "oracle" || agentStateDatasetOnly;
    clean = datasetCodeOnly(startDatasetOnly, result.bug.patch_applied, result.modelPatch, bug.patch);
    agentStateDatasetOnly = clean;
    states.agent.push(result.state);
    out.push(result);
    await onBug(result);
  }
  return out;
}

/**
 * Pure: whether a bug's test run can have executed only the dataset's own code
 * — its start state held dataset content only, and the model patch put nothing
 * of its own there (not applied, or byte for byte the gold patch). Tree
 * equality would not do: a patch can also leave ignored files git never commits.
 */
export function datasetCodeOnly(startDatasetOnly: boolean, patchApplied: boolean, modelPatch: string, goldPatch: string): boolean {
  return startDatasetOnly && (!patchApplied || modelPatch === goldPatch);
}
