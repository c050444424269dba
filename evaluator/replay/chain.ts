/**
 * Replays one chain (SPEC §3): builds every state from the patches, then
 * grades every bug in order from G(k-1) (Oracle) or A(k-1) (Seq). A Seq chain
 * is never aborted. Dataset and environment failures throw; they are not grades.
 *
 * Code under test runs as root and can change anything in its container — a
 * `.pth` file in site-packages, a `python3` earlier on PATH, ignored files,
 * objects and config in /testbed/.git, PID 1 — so the trust boundary is the
 * container itself (ChainContainers): the states are built where no code but
 * git and patch ever runs, and each bug whose start could hold submitted code
 * runs in a fresh container of the image that receives its graded state as one
 * diff from the base commit. Nothing is reverted or rebuilt between bugs, so
 * the harness's cost per bug grows with what the patches change, not with the
 * repository's size or the bug's position. The diff carries content only: a
 * bug's container holds no gold state of a later bug (nor of its own).
 */
import { randomBytes } from "node:crypto";
import { StringDecoder } from "node:string_decoder";
import { isRunnerConfigFile, isTestPath, parseUnifiedDiff, touchedFiles, unsafePaths, withoutFiles } from "@/core/diff";
import { goldSimilarity } from "@/core/diff/similarity";
import type { TestEditPolicy } from "@/core/schemas/manifest";
import { gradeBug, graderProvenance } from "@/core/grading";
import { getLogParser } from "@/core/parsers";
import type { LogParser } from "@/core/parsers";
import { OutputFrames, type ChainContainers, type ExecResult, type Sandbox } from "@/evaluator/sandbox";
import { DatasetError, EnvironmentError } from "@/core/errors";
import type { Bug, Chain } from "@/core/schemas/dataset";
import { META_FIELDS, type Mode, type PredictionLine } from "@/core/schemas/prediction";
import type { ApplyMethod, GradedBug } from "@/core/schemas/results";
import { bugLogText } from "./log";
import { STATE_DIFF, STATE_PATHS, WORK_DIR, chainStatesScript, goldFrameTag, stateFrameTag, goldDiffPath, goldFixPath, gradedStateScript, replayModelPath, taggedLines, testScript, type StatesScriptBug } from "./scripts";

export type BugArtifacts = { bug: GradedBug; log: string; modelPatch: string };

export type ChainReplayInput = {
  chain: Chain;
  mode: Mode;
  system: string;
  /** order → prediction; a missing bug is an empty patch */
  predictions: Map<number, PredictionLine>;
  testTimeoutS: number;
  /** SPEC §7 test edits: `strip` drops them from each model patch before it is applied; keep and flag change nothing here (default keep) */
  testEdits?: TestEditPolicy;
};

/**
 * Bug k's model patch as the replay applies it: the submitted one, or under the
 * `strip` policy without its test edits (SPEC §7; a test path of the whole
 * chain, so a file a later test patch adds is one), with the paths it dropped.
 */
export function appliedModelPatch(input: Pick<ChainReplayInput, "chain" | "predictions" | "testEdits">, order: number): { patch: string; stripped: string[] } {
  const patch = input.predictions.get(order)?.model_patch ?? "";
  if (input.testEdits !== "strip") return { patch, stripped: [] };
  const testPaths = new Set(input.chain.bug_fixes.flatMap((b) => touchedFiles(b.test_patch)));
  const { patch: kept, dropped } = withoutFiles(patch, (p) => isTestPath(p, testPaths));
  return { patch: kept, stripped: dropped };
}

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

/** A state as it travels to a container of its own: a binary diff from the base commit, its paths (NUL-separated), its tree id. */
export type StateDiff = { tree: string; diff: Buffer; paths: Buffer };

/** A graded state S(k) as the states script built it, and how bug k's patches went into it. */
export type BuiltState = StateDiff & {
  method: ApplyMethod | null;
  discarded: string[];
  /** S(k) as a commit of the states container (the start of bug k+1 in Seq) */
  commit: string;
  /** the bug's own lines of the states script (patch application, hidden-test restore) */
  setupLog: string;
};

/** Building every state runs git only; generous, as the chain and the repository may be long. */
const STATES_TIMEOUT_MS = 600_000;

/** What one run of the states script built: the gold states (first run only), G(0..n-1) as diffs when asked, and its bugs' states. */
export type StatesRun = { atBase: boolean; gold: string[]; goldStarts: StateDiff[]; states: BuiltState[] };

/** The files and script input the states script needs for `bugs`; their model and test patches are added to `files`. */
function planBugs(input: ChainReplayInput, bugs: Bug[], files: Record<string, string>): StatesScriptBug[] {
  return bugs.map((bug) => {
    // each bug's own test patch, whether or not its gold state is built in this run
    files[goldDiffPath(bug.order)] = bug.test_patch;
    const { patch } = appliedModelPatch(input, bug.order);
    const usable = usablePatch(patch);
    if (usable) files[replayModelPath(bug.order)] = patch;
    const patchPaths = [...new Set([...(usable ? touchedFiles(patch) : []), ...touchedFiles(bug.test_patch)])];
    return { order: bug.order, hasModelPatch: usable, testFiles: parseUnifiedDiff(bug.test_patch) ?? [], patchPaths };
  });
}

type BuiltInPlace = Omit<BuiltState, "diff" | "paths">;

/**
 * Each bug's state as the states script reports it: how its patches went in,
 * its commit and tree, its own lines. `failed` describes the run when a bug's
 * lines are missing. Dataset errors name the bug.
 */
function parseBuilt(output: string, token: string, chain: Chain, bugs: Bug[], failed: () => string): BuiltInPlace[] {
  const lines = output.split("\n");
  return bugs.map((bug) => {
    const own = `${token}-${bug.order}`;
    const tags = taggedLines(output, own);
    if (tags.some((t) => t.key === "TESTPATCH_FAILED")) {
      throw new DatasetError(`test patch does not apply:\n${output.slice(-4000)}`, chain.continuous_id, bug.order);
    }
    const method = tags.find((t) => t.key === "METHOD")?.rest;
    const commit = tags.find((t) => t.key === "STATE")?.rest;
    const tree = tags.find((t) => t.key === "TREE")?.rest;
    if (!method || !commit || !tree) {
      throw new EnvironmentError(`building the state of bug ${bug.order} failed (${failed()}):\n${output.slice(-4000)}`);
    }
    const begin = lines.indexOf(`${own} BEGIN`);
    const end = lines.indexOf(`${own} TREE ${tree}`);
    return {
      method: method === "none" ? null : (method as ApplyMethod),
      discarded: tags.filter((t) => t.key === "DISCARDED").map((t) => t.rest),
      commit,
      tree,
      setupLog: lines.slice(begin + 1, end).join("\n"),
    };
  });
}

/** A run of the states script under way: each bug's state as soon as it is built, and the whole run once the script ends. */
export type StatesUnderWay = {
  /** aligned with the run's bugs, with whether the image's /testbed was the base commit, clean (AT_BASE); each rejects with the run's error if the script fails before that state */
  ready: Promise<BuiltState & { atBase: boolean }>[];
  done: Promise<StatesRun>;
};

/** A state the states script printed as a frame (see chainStatesScript). */
function stateOfFrame(frames: OutputFrames, tag: string, what: string): Omit<StateDiff, "tree"> {
  const [diff, paths] = frames.frames.get(tag) ?? [];
  if (!diff || !paths) throw new EnvironmentError(`the states script left no diff for ${what}`);
  return { diff, paths };
}

/**
 * Builds graded states S(k) for `bugs` (a run of the chain's bugs, in order) in
 * one exec, in a container where no code of the repository or the submission
 * ever runs, and takes each as a diff from the base commit (a frame of its output) as soon as the
 * script has left it, while the script goes on. It builds the gold states
 * G(0..build) along the way, or takes them from an earlier run in the same
 * container. Dataset errors name the bug.
 */
export function startStates(
  sandbox: Sandbox,
  input: ChainReplayInput,
  bugs: Bug[],
  opts: { gold: { build: number } | { known: string[] }; startState?: string; goldDiffs?: boolean },
): StatesUnderWay {
  const { chain } = input;
  const token = newToken();
  const files = "build" in opts.gold ? goldFiles(chain, opts.gold.build) : {};
  const planned = planBugs(input, bugs, files);
  const mode = input.mode === "oracle" ? "oracle" : "seq";
  const script = chainStatesScript({ token, baseCommit: chain.base_commit, mode, bugs: planned, length: chain.bug_fixes.length, gold: opts.gold, startState: opts.startState, goldDiffs: opts.goldDiffs });
  const waiting = bugs.map((bug) => {
    let resolve: (s: BuiltState & { atBase: boolean }) => void = () => {};
    let reject: (e: unknown) => void = () => {};
    const promise = new Promise<BuiltState & { atBase: boolean }>((res, rej) => ((resolve = res), (reject = rej)));
    promise.catch(() => {});
    return { bug, promise, resolve, reject, taken: null as Promise<void> | null };
  });
  // each state is taken once its TREE line has arrived: its frame came before it
  const frames = new OutputFrames(token);
  const decoder = new StringDecoder("utf8");
  let soFar = "";
  let scanned = 0;
  const onOutput = (chunk: Buffer) => {
    soFar += decoder.write(chunk);
    const end = soFar.lastIndexOf("\n") + 1;
    if (end <= scanned) return;
    const fresh = soFar.slice(scanned, end);
    scanned = end;
    for (const w of waiting) {
      if (w.taken || !fresh.includes(`${token}-${w.bug.order} TREE `)) continue;
      const output = soFar.slice(0, end);
      w.taken = (async () => {
        const [built] = parseBuilt(output, token, chain, [w.bug], () => "the script is still running");
        const atBase = taggedLines(output, token).some((t) => t.key === "AT_BASE");
        w.resolve({ ...built!, atBase, ...stateOfFrame(frames, stateFrameTag(token, w.bug.order), `bug ${w.bug.order}`) });
      })().catch(w.reject);
    }
  };
  const done = (async (): Promise<StatesRun> => {
    try {
      const result = await sandbox.exec(script, { files, timeoutMs: STATES_TIMEOUT_MS, onOutput, frames });
      const { output } = result;
      const gold = "build" in opts.gold ? parseGoldStates(output, `${token}-gold`, chain, opts.gold.build) : opts.gold.known;
      parseBuilt(output, token, chain, bugs, () => (result.timedOut ? `timed out after ${STATES_TIMEOUT_MS / 1000} s` : `exit ${result.exitCode}`));
      const states = await Promise.all(waiting.map((w) => w.promise));
      const goldTags = taggedLines(output, `${token}-gold`);
      const goldStarts = opts.goldDiffs
        ? await Promise.all(
            gold.slice(0, -1).map(async (_, k) => {
              const tree = goldTags.find((t) => t.key === `TREE${k}`)?.rest;
              if (!tree) throw new EnvironmentError(`the states script left no tree for G(${k})`);
              return { tree, ...stateOfFrame(frames, goldFrameTag(token, k), `G(${k})`) };
            }),
          )
        : [];
      return { atBase: taggedLines(output, token).some((t) => t.key === "AT_BASE"), gold, goldStarts, states };
    } catch (e) {
      for (const w of waiting) w.reject(e);
      throw e;
    }
  })();
  done.catch(() => {});
  return { ready: waiting.map((w) => w.promise), done };
}

/** startStates, awaited whole. */
export function buildStates(...args: Parameters<typeof startStates>): Promise<StatesRun> {
  return startStates(...args).done;
}

/** A bug's setup as the grade reports it, and its test run. */
type BugRun = { built: Pick<BuiltState, "method" | "discarded" | "setupLog">; run: ExecResult };

/** Splits an exec's output at its `<token> RUN` line: the trusted setup before it, the test output after it (null: no such line). */
function splitAtRun(output: string, run: string): { setup: string; tests: string | null } {
  const cut = output.indexOf(`${run}\n`);
  return cut < 0 ? { setup: output, tests: null } : { setup: output.slice(0, cut), tests: output.slice(cut + run.length + 1) };
}

/**
 * Bug 1 starts from the base commit, which its fresh container already holds:
 * the states script for bug 1 alone (no gold state but G(0), so no gold fix
 * enters the container) builds S(1) in place, then its tests run — one exec,
 * and no wait for the container that builds the other states. S(1)'s tree is
 * in `built`: the states container's S(1) must match it.
 */
async function runFirstBug(sandbox: Sandbox, input: ChainReplayInput, bug: Bug, onTests: () => void): Promise<BugRun & { built: BuiltInPlace }> {
  const { chain } = input;
  const token = newToken();
  const run = `${token} RUN`;
  const files: Record<string, string> = {};
  const planned = planBugs(input, [bug], files);
  const mode = input.mode === "oracle" ? "oracle" : "seq";
  const setup = chainStatesScript({ token, baseCommit: chain.base_commit, mode, bugs: planned, length: chain.bug_fixes.length, gold: { build: 0 }, leave: false });
  const script = [setup, `rm -rf ${WORK_DIR}`, `echo "${run}"`, testScript(bug.test_cmds)].join("\n");
  const result = await sandbox.exec(script, { files, phaseMarker: run, timeoutMs: input.testTimeoutS * 1000, watchDisk: true, onPhase: onTests });
  const { setup: setupOutput, tests } = splitAtRun(result.output, run);
  parseGoldStates(setupOutput, `${token}-gold`, chain, 0);
  const [built] = parseBuilt(setupOutput, token, chain, [bug], () => `exit ${result.exitCode}`);
  if (tests === null) throw new EnvironmentError(`bug ${bug.order}'s setup did not finish (exit ${result.exitCode}):\n${setupOutput.slice(-4000)}`);
  return { built: built!, run: { ...result, output: tests } };
}

/** A state a bug's container has not entered yet: its test run enters it first (checked like enterState). */
type StateToEnter = { state: StateDiff; atBase: boolean; what: string };

/**
 * Runs a bug's tests in its container, which holds its graded state
 * (enterState) or enters it first in the same exec (`toEnter`: one exec less on
 * the critical path when the state arrived after the bug before it ended): the
 * measured phase and its time limit start at the RUN line.
 */
async function runTests(sandbox: Sandbox, input: ChainReplayInput, bug: Bug, onTests: () => void, toEnter: StateToEnter | null): Promise<ExecResult> {
  const token = newToken();
  const run = `${token} RUN`;
  const setup = toEnter ? [gradedStateScript(token, input.chain.base_commit, toEnter.atBase)] : [];
  const result = await sandbox.exec([...setup, `echo "${run}"`, testScript(bug.test_cmds)].join("\n"), {
    ...(toEnter ? { files: stateFiles(toEnter.state), setupTimeoutMs: STATES_TIMEOUT_MS } : {}),
    phaseMarker: run,
    timeoutMs: input.testTimeoutS * 1000,
    watchDisk: true,
    onPhase: onTests,
  });
  const { setup: setupOutput, tests } = splitAtRun(result.output, run);
  if (toEnter) checkEntered(setupOutput, token, toEnter.state, toEnter.what, tests === null ? result.exitCode : null);
  if (tests === null) throw new EnvironmentError(`bug ${bug.order}'s test run did not start (exit ${result.exitCode}):\n${result.output.slice(-4000)}`);
  return { ...result, output: tests };
}

const stateFiles = (state: StateDiff) => ({ [STATE_DIFF]: state.diff, [STATE_PATHS]: state.paths });

/** Throws unless gradedStateScript's output names the expected tree (`failed`: the exit code when the script did not finish). */
function checkEntered(setup: string, token: string, state: StateDiff, what: string, failed: number | null): void {
  const tree = taggedLines(setup, token).find((t) => t.key === "TREE")?.rest;
  if (failed !== null || tree !== state.tree) {
    throw new EnvironmentError(`putting the state of ${what} into its container failed (tree ${tree ?? "none"}, expected ${state.tree}; exit ${failed}):\n${setup.slice(-4000)}`);
  }
}

/** Puts a state into a fresh container of the chain (as a bug's tests would find it) and checks its tree. */
export async function enterState(sandbox: Sandbox, chain: Chain, state: StateDiff, atBase: boolean, what: string): Promise<void> {
  const token = newToken();
  const done = `${token} ENTERED`;
  const result = await sandbox.exec(`${gradedStateScript(token, chain.base_commit, atBase)}\necho "${done}"`, { files: stateFiles(state), timeoutMs: STATES_TIMEOUT_MS });
  checkEntered(result.output, token, state, what, result.output.includes(`${done}\n`) ? null : result.exitCode);
}

function metaOf(p: PredictionLine | undefined): Partial<GradedBug> {
  const meta: Partial<GradedBug> = {};
  if (!p) return meta;
  for (const f of META_FIELDS) if (p[f] !== undefined) meta[f] = p[f];
  return meta;
}

function gradeOne(input: ChainReplayInput, parser: LogParser, bug: Bug, { built, run }: BugRun): BugArtifacts {
  const prediction = input.predictions.get(bug.order);
  const { patch, stripped } = appliedModelPatch(input, bug.order);
  const unsafe = unsafePaths(patch);
  const prep = {
    method: built.method,
    // stripped test edits were discarded too, before the patch was applied
    discarded: [...new Set([...stripped, ...built.discarded])].sort(),
    setupLog:
      (stripped.length ? `>>> test edits stripped before applying (policy strip): ${stripped.join(", ")}\n` : "") +
      (unsafe.length ? `>>> patch not applied: unsafe path(s) ${unsafe.join(", ")}\n` : "") +
      built.setupLog,
  };
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
    ...graderProvenance(input.chain, prediction),
    gold_similarity: goldSimilarity(prediction?.model_patch ?? "", bug.patch),
  };
  const log = bugLogText({ bug: graded, setupLog: prep.setupLog, run, token, statuses: grade.statuses });
  // the submitted patch, as model.patch keeps it (stripped test edits are named in the log)
  return { bug: graded, log, modelPatch: prediction?.model_patch ?? "" };
}

/**
 * Grades every bug of the chain. Bug 1 builds its own state in its container
 * (runFirstBug) while another container builds every state (no code but git
 * and patch ever runs there); each later bug runs in a fresh container that
 * receives its graded state. Each next container starts once the tests before
 * it run, not beside the setup that precedes them. `onBug` sees each result as
 * it lands.
 */
export async function replayChain(
  containers: ChainContainers,
  input: ChainReplayInput,
  onBug: (a: BugArtifacts) => void | Promise<void> = () => {},
): Promise<BugArtifacts[]> {
  const { chain } = input;
  const parser = checkChainForReplay(chain);
  const n = chain.bug_fixes.length;
  containers.prepare();
  if (n > 1) containers.prepare("states");
  // every state, bug 1's too: Seq starts bug 2 from it, and bug 1's container must have built the same tree;
  // each is taken as soon as it is built
  const states: Promise<StatesUnderWay | null> =
    n > 1
      ? containers.take("states").then((builder) => {
          const underWay = startStates(builder, input, chain.bug_fixes, { gold: { build: n } });
          void underWay.done.finally(() => containers.retire(builder, "states")).catch(() => {});
          return underWay;
        })
      : Promise.resolve(null);
  states.catch(() => {});
  // bug i+1's container is started and given its state while bug i's tests run: no code has run in it yet;
  // a state that arrives once bug i has ended is entered by bug i+1's test run instead (one exec less)
  type Entered = { sandbox: Sandbox; built: BuiltState; statesFirstTree: string; toEnter: StateToEnter | null };
  const due = new Set<number>();
  const enter = (i: number): Promise<Entered> => {
    const what = `bug ${chain.bug_fixes[i]!.order}`;
    const entering = (async () => {
      const sandbox = await containers.take();
      try {
        const underWay = (await states)!;
        const [s1, built] = await Promise.all([underWay.ready[0]!, underWay.ready[i]!]);
        const toEnter = { state: built, atBase: s1.atBase, what };
        if (due.has(i)) return { sandbox, built, statesFirstTree: s1.tree, toEnter };
        await enterState(sandbox, chain, built, s1.atBase, what);
        return { sandbox, built, statesFirstTree: s1.tree, toEnter: null };
      } catch (e) {
        containers.retire(sandbox, what);
        throw e;
      }
    })();
    // awaited by the bug's turn; a failure is the chain's error from there
    entering.catch(() => {});
    return entering;
  };
  let next: Promise<Entered> | null = null;
  const enterNext = (i: number) => () => {
    if (i + 1 < n) next ??= enter(i + 1);
  };
  const out: BugArtifacts[] = [];
  let firstTree = "";
  for (const [i, bug] of chain.bug_fixes.entries()) {
    let sandbox: Sandbox;
    let bugRun: BugRun;
    if (i === 0) {
      sandbox = await containers.take();
      try {
        const first = await runFirstBug(sandbox, input, bug, enterNext(i));
        firstTree = first.built.tree;
        bugRun = first;
      } catch (e) {
        containers.retire(sandbox, `bug ${bug.order}`);
        throw e;
      }
    } else {
      due.add(i);
      const entered = await (next ?? enter(i));
      next = null;
      sandbox = entered.sandbox;
      try {
        if (entered.statesFirstTree !== firstTree) {
          throw new EnvironmentError(`bug 1's container built tree ${firstTree}, the states container ${entered.statesFirstTree}: the replay is not deterministic here`);
        }
        bugRun = { built: entered.built, run: await runTests(sandbox, input, bug, enterNext(i), entered.toEnter) };
      } catch (e) {
        containers.retire(sandbox, `bug ${bug.order}`);
        throw e;
      }
    }
    containers.retire(sandbox, `bug ${bug.order}`);
    const result = gradeOne(input, parser, bug, bugRun);
    out.push(result);
    await onBug(result);
  }
  // a gold patch after the last state may still not apply: the chain's error
  await (await states)?.done;
  return out;
}
