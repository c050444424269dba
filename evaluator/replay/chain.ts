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
import { isRunnerConfigFile, parseUnifiedDiff, touchedFiles, unsafePaths } from "@/evaluator/diff";
import { gradeBug, graderProvenance } from "@/evaluator/grading";
import { getLogParser } from "@/evaluator/parsers";
import type { LogParser } from "@/evaluator/parsers";
import { filesOfTar, type ChainContainers, type ExecResult, type Sandbox } from "@/evaluator/sandbox";
import { DatasetError, EnvironmentError, coerceError } from "@/lib/errors";
import type { Bug, Chain } from "@/lib/schemas/dataset";
import { META_FIELDS, type Mode, type PredictionLine } from "@/lib/schemas/prediction";
import type { ApplyMethod, GradedBug } from "@/lib/schemas/results";
import { bugLogText } from "./log";
import { STATES_DIR, STATE_DIFF, STATE_PATHS, chainStatesScript, goldDiffPath, goldFixPath, gradedStateScript, replayModelPath, taggedLines, testScript } from "./scripts";

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

/**
 * Builds graded states S(k) for `bugs` (a run of the chain's bugs, in order) in
 * one exec, in a container where no code of the repository or the submission
 * ever runs, and takes each out as a diff from the base commit. It builds the
 * gold states G(0..build) first, or takes them from an earlier run in the same
 * container. Dataset errors name the bug.
 */
export async function buildStates(
  sandbox: Sandbox,
  input: ChainReplayInput,
  bugs: Bug[],
  opts: { gold: { build: number } | { known: string[] }; startState?: string; goldDiffs?: boolean },
): Promise<StatesRun> {
  const { chain } = input;
  const token = newToken();
  const files = "build" in opts.gold ? goldFiles(chain, opts.gold.build) : {};
  const planned = bugs.map((bug) => {
    // each bug's own test patch, whether or not its gold state is built in this run
    files[goldDiffPath(bug.order)] = bug.test_patch;
    const patch = input.predictions.get(bug.order)?.model_patch ?? "";
    const usable = usablePatch(patch);
    if (usable) files[replayModelPath(bug.order)] = patch;
    const patchPaths = [...new Set([...(usable ? touchedFiles(patch) : []), ...touchedFiles(bug.test_patch)])];
    return { order: bug.order, hasModelPatch: usable, testFiles: parseUnifiedDiff(bug.test_patch) ?? [], patchPaths };
  });
  const mode = input.mode === "oracle" ? "oracle" : "seq";
  const script = chainStatesScript({ token, baseCommit: chain.base_commit, mode, bugs: planned, length: chain.bug_fixes.length, gold: opts.gold, startState: opts.startState, goldDiffs: opts.goldDiffs });
  const result = await sandbox.exec(script, { files, timeoutMs: STATES_TIMEOUT_MS });
  const { output } = result;
  const gold = "build" in opts.gold ? parseGoldStates(output, `${token}-gold`, chain, opts.gold.build) : opts.gold.known;
  const lines = output.split("\n");
  const partial = (bug: Bug) => {
    const detail = result.timedOut ? `timed out after ${STATES_TIMEOUT_MS / 1000} s` : `exit ${result.exitCode}`;
    return new EnvironmentError(`building the state of bug ${bug.order} failed (${detail}):\n${output.slice(-4000)}`);
  };
  const built: Omit<BuiltState, "diff" | "paths">[] = [];
  for (const bug of bugs) {
    const own = `${token}-${bug.order}`;
    const tags = taggedLines(output, own);
    if (tags.some((t) => t.key === "TESTPATCH_FAILED")) {
      throw new DatasetError(`test patch does not apply:\n${output.slice(-4000)}`, chain.continuous_id, bug.order);
    }
    const method = tags.find((t) => t.key === "METHOD")?.rest;
    const commit = tags.find((t) => t.key === "STATE")?.rest;
    const tree = tags.find((t) => t.key === "TREE")?.rest;
    if (!method || !commit || !tree) throw partial(bug);
    const begin = lines.indexOf(`${own} BEGIN`);
    const end = lines.indexOf(`${own} TREE ${tree}`);
    built.push({
      method: method === "none" ? null : (method as ApplyMethod),
      discarded: tags.filter((t) => t.key === "DISCARDED").map((t) => t.rest),
      commit,
      tree,
      setupLog: lines.slice(begin + 1, end).join("\n"),
    });
  }
  let archive: Map<string, Buffer>;
  try {
    archive = await filesOfTar(await sandbox.container.getArchive({ path: STATES_DIR }));
  } catch (e) {
    throw new EnvironmentError(`cannot copy the built states out of the container: ${coerceError(e).message}`);
  }
  const take = (name: string, what: string) => {
    const diff = archive.get(`states/${name}.diff`);
    const paths = archive.get(`states/${name}.paths`);
    if (!diff || !paths) throw new EnvironmentError(`the states script left no diff for ${what}`);
    return { diff, paths };
  };
  const states = built.map((b, i) => ({ ...b, ...take(String(bugs[i]!.order), `bug ${bugs[i]!.order}`) }));
  const goldTags = taggedLines(output, `${token}-gold`);
  const goldStarts = opts.goldDiffs
    ? gold.slice(0, -1).map((_, k) => {
        const tree = goldTags.find((t) => t.key === `TREE${k}`)?.rest;
        if (!tree) throw new EnvironmentError(`the states script left no tree for G(${k})`);
        return { tree, ...take(`g${k}`, `G(${k})`) };
      })
    : [];
  return { atBase: taggedLines(output, token).some((t) => t.key === "AT_BASE"), gold, goldStarts, states };
}

/**
 * Puts S(k) into the bug's container and runs its tests in one exec: the
 * trusted part prints tagged lines, then a `<token> RUN` line, then the test
 * command runs. Everything after the first RUN line is test output; the time
 * limit counts from it.
 */
async function runBug(sandbox: Sandbox, chain: Chain, bug: Bug, built: BuiltState, atBase: boolean, timeoutS: number): Promise<ExecResult> {
  const token = newToken();
  const run = `${token} RUN`;
  const script = [gradedStateScript(token, chain.base_commit, atBase), `echo "${run}"`, testScript(bug.test_cmds)].join("\n");
  const result = await sandbox.exec(script, { files: stateFiles(built), phaseMarker: run, timeoutMs: timeoutS * 1000, watchDisk: true });
  const cut = result.output.indexOf(`${run}\n`);
  checkEntered(result.output.slice(0, cut < 0 ? undefined : cut), token, built, `bug ${bug.order}`, cut >= 0 ? null : result.exitCode);
  return { ...result, output: result.output.slice(cut + run.length + 1) };
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

async function gradeOne(sandbox: Sandbox, input: ChainReplayInput, parser: LogParser, bug: Bug, built: BuiltState, atBase: boolean): Promise<BugArtifacts> {
  const prediction = input.predictions.get(bug.order);
  const patch = prediction?.model_patch ?? "";
  const unsafe = unsafePaths(patch);
  const prep = {
    method: built.method,
    discarded: built.discarded,
    setupLog: (unsafe.length ? `>>> patch not applied: unsafe path(s) ${unsafe.join(", ")}\n` : "") + built.setupLog,
    run: await runBug(sandbox, input.chain, bug, built, atBase, input.testTimeoutS),
  };
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
    ...graderProvenance(input.chain, prediction),
  };
  const log = bugLogText({ bug: graded, setupLog: prep.setupLog, run, token, statuses: grade.statuses });
  return { bug: graded, log, modelPatch: patch };
}

/**
 * Grades every bug of the chain. The states are built first, in a container of
 * their own; each bug then runs in a fresh container that receives its graded
 * state, started while the work before it runs (bug 1's beside the states'
 * container). `onBug` sees each result as it lands.
 */
export async function replayChain(
  containers: ChainContainers,
  input: ChainReplayInput,
  onBug: (a: BugArtifacts) => void | Promise<void> = () => {},
): Promise<BugArtifacts[]> {
  const { chain } = input;
  const parser = checkChainForReplay(chain);
  containers.prepare();
  containers.prepare();
  const builder = await containers.take();
  // bug 1's state needs only G(0): it comes first, and its tests run while the
  // container builds the gold states (a gold or test patch that does not apply
  // is found there) and the other bugs' states
  let first: StatesRun;
  let rest: Promise<BuiltState[]>;
  try {
    first = await buildStates(builder, input, chain.bug_fixes.slice(0, 1), { gold: { build: 0 } });
    const n = chain.bug_fixes.length;
    rest = n > 1 ? buildStates(builder, input, chain.bug_fixes.slice(1), { gold: { build: n }, startState: first.states[0]!.commit }).then((r) => r.states) : Promise.resolve([]);
  } catch (e) {
    containers.retire(builder, "states");
    throw e;
  }
  // awaited by bug 2; a failure is the chain's error from there
  rest.catch(() => {});
  void rest.finally(() => containers.retire(builder, "states")).catch(() => {});
  const out: BugArtifacts[] = [];
  for (const [i, bug] of chain.bug_fixes.entries()) {
    const state = i === 0 ? first.states[0]! : (await rest)[i - 1]!;
    const sandbox = await containers.take();
    if (i + 1 < chain.bug_fixes.length) containers.prepare();
    try {
      const result = await gradeOne(sandbox, input, parser, bug, state, first.atBase);
      out.push(result);
      await onBug(result);
    } finally {
      containers.retire(sandbox, `bug ${bug.order}`);
    }
  }
  return out;
}
