/**
 * Rolls an agent through one chain in one container (SPEC §2–3). Before each
 * bug the container is brought back to its image and the start state is built
 * by the replay's own prelude — G(k-1) for Oracle; for Seq A(k-1), from the
 * patches this rollout recorded — so its commits are the evaluator's commits.
 * The agent then sees only that state, as a repository with one commit; its
 * diff against that commit is the bug's model patch.
 */
import { randomBytes } from "node:crypto";
import { mkdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { patchSizeOverLimit } from "@/evaluator/dataset";
import { checkChainForReplay } from "@/evaluator/replay";
import { rebuildPrelude, type ChainStates } from "@/evaluator/replay/chain";
import type { Sandbox } from "@/evaluator/sandbox";
import { EnvironmentError, coerceError } from "@/lib/errors";
import type { Bug, Chain } from "@/lib/schemas/dataset";
import type { Mode, PredictionLine } from "@/lib/schemas/prediction";
import { runAgent } from "./agent";
import { agentEnv, execWrapperScript, parseMetrics, parsePatchFile, recordedPatch, type PatchFileRead, type TurnOutcome } from "./contract";
import { agentDiffScript, agentViewScript, parseDiff, parseView } from "./scripts";

const newToken = () => `CHAINSWE-${randomBytes(12).toString("hex")}`;
/** Building a start state runs git only; generous, as the chain may be long. */
const PREPARE_TIMEOUT_MS = 300_000;

export type RolloutChainInput = {
  chain: Chain;
  mode: Mode;
  agentCommand: string;
  timeLimitS: number;
  /** the chain's directory for trajectories (and the Seq+Mem memory) */
  chainDir: string;
  /** host scratch directory of this chain, removed by the caller */
  scratchDir: string;
  /** largest patch file accepted (UTF-8 bytes); absent: no limit */
  maxPatchBytes?: number;
};

export type RolledBug = { bug: Bug; outcome: TurnOutcome; warnings: string[] };

/** Brings /testbed to the start state of bug k and replaces its .git by the agent's view; returns the view commit. */
async function prepareStart(sandbox: Sandbox, input: RolloutChainInput, bug: Bug, states: ChainStates, patches: Map<number, PredictionLine>): Promise<string> {
  const { chain, mode } = input;
  const prelude = rebuildPrelude({ chain, mode, system: "rollout", predictions: patches, testTimeoutS: 0 }, bug.order, states);
  const token = newToken();
  const marker = `${token} PREPARED`;
  // the start is known once the prelude's output is checked; the view script reads it from the state it left
  const result = await sandbox.exec([prelude.script, `echo "${marker}"`].join("\n"), {
    files: prelude.files,
    killFirst: true,
    timeoutMs: PREPARE_TIMEOUT_MS,
  });
  const cut = result.output.indexOf(`${marker}\n`);
  if (cut < 0) throw new EnvironmentError(`building the start state of bug ${bug.order} failed (exit ${result.exitCode}):\n${result.output.slice(-4000)}`);
  prelude.check(result.output.slice(0, cut));
  const start = mode === "oracle" ? states.gold[bug.order - 1]! : states.agent[bug.order - 1]!;
  const view = await sandbox.exec(agentViewScript(token, start), { timeoutMs: PREPARE_TIMEOUT_MS });
  const commit = parseView(view.output, token);
  if (!commit) throw new EnvironmentError(`making the agent's view of bug ${bug.order}'s start state failed:\n${view.output.slice(-4000)}`);
  return commit;
}

/** The agent's change since the view commit; null when git cannot produce it (the agent broke .git). */
async function takeDiff(sandbox: Sandbox, viewCommit: string): Promise<string | null> {
  const token = newToken();
  // killFirst: whatever the agent left running in the container stops before the diff is taken
  const result = await sandbox.exec(agentDiffScript(token, viewCommit), { killFirst: true, timeoutMs: PREPARE_TIMEOUT_MS });
  if (result.truncated) return null;
  return parseDiff(result.output, token);
}

/** The agent's patch file, read unless it is over the limit by its size alone; an unreadable file is a warning. */
async function readPatchFile(file: string, maxPatchBytes: number | undefined): Promise<PatchFileRead> {
  const size = await stat(file).then((s) => s.size, () => null);
  if (size === null) return { patch: null, warnings: [] };
  if (patchSizeOverLimit(size, maxPatchBytes)) return parsePatchFile({ size, text: null }, file, maxPatchBytes);
  try {
    return parsePatchFile({ size, text: await readFile(file, "utf8") }, file, maxPatchBytes);
  } catch (e) {
    return { patch: "", warnings: [`${file}: cannot be read (${coerceError(e).message}); empty patch recorded`] };
  }
}

async function agentTurn(sandbox: Sandbox, input: RolloutChainInput, bug: Bug, viewCommit: string, memoryDir: string): Promise<RolledBug> {
  const turnDir = join(input.scratchDir, `bug-${bug.order}`);
  await mkdir(turnDir, { recursive: true });
  const issueFile = join(turnDir, "issue.md");
  const metricsFile = join(turnDir, "metrics.json");
  // turnDir is new, so the patch file is absent when the turn starts
  const patchFile = join(turnDir, "patch.diff");
  const execPath = join(input.scratchDir, "exec");
  await writeFile(issueFile, bug.problem_statement);
  await writeFile(execPath, execWrapperScript(sandbox.id), { mode: 0o755 });
  const env = agentEnv({ chain: input.chain, bug, mode: input.mode, issueFile, execPath, containerId: sandbox.id, memoryDir, metricsFile, patchFile, timeLimitS: input.timeLimitS });
  const run = await runAgent({ command: input.agentCommand, env, logFile: join(input.chainDir, `${bug.order}.log`), timeLimitS: input.timeLimitS });
  const diff = await takeDiff(sandbox, viewCommit);
  const read = parseMetrics(await readFile(metricsFile, "utf8").catch(() => null), metricsFile);
  const submitted = await readPatchFile(patchFile, input.maxPatchBytes);
  const warnings = [...read.warnings, ...submitted.warnings];
  if (run.timedOut) warnings.push(`agent stopped at the time limit (${input.timeLimitS} s): empty patch recorded`);
  else if (submitted.patch === null && diff === null) warnings.push("no diff could be taken in the container (.git changed by the agent?): empty patch recorded");
  const outcome: TurnOutcome = {
    timedOut: run.timedOut,
    exitCode: run.exitCode,
    wallSeconds: run.wallSeconds,
    diff: submitted.patch ?? diff,
    patchSource: submitted.patch === null ? "tree" : "patch_file",
    metrics: read.metrics,
  };
  return { bug, outcome, warnings };
}

/**
 * Rolls the agent through every bug in order; `onBug` sees each turn as it
 * ends. The container is reverted before every bug after the first: the
 * agent's commands ran in it, and the next start state is rebuilt from patches.
 */
export async function rolloutChain(sandbox: Sandbox, input: RolloutChainInput, onBug: (b: RolledBug) => Promise<void> = async () => {}): Promise<RolledBug[]> {
  const { chain, mode } = input;
  checkChainForReplay(chain);
  const states: ChainStates = { gold: [chain.base_commit], agent: [chain.base_commit] };
  const patches = new Map<number, PredictionLine>();
  const chainMemory = join(input.chainDir, "memory");
  const out: RolledBug[] = [];
  for (const bug of chain.bug_fixes) {
    if (bug.order > 1) await sandbox.revertToImage();
    const viewCommit = await prepareStart(sandbox, input, bug, states, patches);
    // memory persists across bugs only in Seq+Mem; otherwise every bug gets an empty directory
    const memoryDir = mode === "seq_mem" ? chainMemory : join(input.scratchDir, `memory-${bug.order}`);
    await mkdir(memoryDir, { recursive: true });
    const rolled = await agentTurn(sandbox, input, bug, viewCommit, memoryDir);
    if (mode !== "seq_mem") await rm(memoryDir, { recursive: true, force: true });
    const patch = recordedPatch(rolled.outcome);
    patches.set(bug.order, { continuous_id: chain.continuous_id, swebench_instance_id: bug.swebench_instance_id, model_patch: patch });
    out.push(rolled);
    await onBug(rolled);
  }
  return out;
}
