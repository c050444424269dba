/**
 * Rolls an agent through one chain (SPEC §2–3) with the replay's own states:
 * a states container, where no agent and no repository code ever runs, builds
 * the gold states and — for Seq, from the patches this rollout recorded —
 * each agent state A(k-1) as the evaluator will grade it. Each bug's agent
 * acts in a fresh container that received its start state (G(k-1) for Oracle,
 * A(k-1) for Seq) and sees it only as a repository with one commit; its diff
 * against that commit is the bug's model patch. Nothing an agent did in its
 * container reaches the next bug.
 */
import { randomBytes } from "node:crypto";
import { mkdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { patchSizeOverLimit } from "@/evaluator/dataset";
import { checkChainForReplay } from "@/evaluator/replay";
import { buildStates, enterState, type StateDiff } from "@/evaluator/replay/chain";
import type { ChainContainers, Sandbox } from "@/evaluator/sandbox";
import { EnvironmentError, coerceError } from "@/core/errors";
import type { Bug, Chain } from "@/core/schemas/dataset";
import type { Mode, PredictionLine } from "@/core/schemas/prediction";
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

/** Puts the start state of bug k into the agent's container and replaces its .git by the agent's view; returns the view commit. */
async function prepareStart(sandbox: Sandbox, chain: Chain, bug: Bug, start: StateDiff, atBase: boolean): Promise<string> {
  await enterState(sandbox, chain, start, atBase, `the start of bug ${bug.order}`);
  const token = newToken();
  const view = await sandbox.exec(agentViewScript(token, "HEAD"), { timeoutMs: PREPARE_TIMEOUT_MS });
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
  // absolute: the agent may call the wrapper from any directory
  const logFile = resolve(input.chainDir, `${bug.order}.log`);
  await writeFile(issueFile, bug.problem_statement);
  await writeFile(execPath, execWrapperScript(sandbox.id, logFile), { mode: 0o755 });
  const env = agentEnv({ chain: input.chain, bug, mode: input.mode, issueFile, execPath, containerId: sandbox.id, memoryDir, metricsFile, patchFile, timeLimitS: input.timeLimitS });
  const run = await runAgent({ command: input.agentCommand, env, logFile, timeLimitS: input.timeLimitS });
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
 * ends. The next bug's container starts while the agent works.
 */
export async function rolloutChain(containers: ChainContainers, input: RolloutChainInput, onBug: (b: RolledBug) => Promise<void> = async () => {}): Promise<RolledBug[]> {
  const { chain, mode } = input;
  checkChainForReplay(chain);
  const patches = new Map<number, PredictionLine>();
  const replayInput = { chain, mode, system: "rollout", predictions: patches, testTimeoutS: 0 };
  containers.prepare("states");
  containers.prepare();
  const builder = await containers.take("states");
  try {
    const gold = await buildStates(builder, replayInput, [], { gold: { build: chain.bug_fixes.length }, goldDiffs: true });
    const chainMemory = join(input.chainDir, "memory");
    const out: RolledBug[] = [];
    // the start of bug 1 is the base commit; in Seq each later one is the state the evaluator grades the bug before in
    let start: StateDiff & { commit?: string } = gold.goldStarts[0]!;
    for (const [i, bug] of chain.bug_fixes.entries()) {
      if (mode === "oracle") start = gold.goldStarts[i]!;
      const sandbox = await containers.take();
      if (i + 1 < chain.bug_fixes.length) containers.prepare();
      let rolled: RolledBug;
      try {
        const viewCommit = await prepareStart(sandbox, chain, bug, start, gold.atBase);
        // memory persists across bugs only in Seq+Mem; otherwise every bug gets an empty directory
        const memoryDir = mode === "seq_mem" ? chainMemory : join(input.scratchDir, `memory-${bug.order}`);
        await mkdir(memoryDir, { recursive: true });
        rolled = await agentTurn(sandbox, input, bug, viewCommit, memoryDir);
        if (mode !== "seq_mem") await rm(memoryDir, { recursive: true, force: true });
      } finally {
        containers.retire(sandbox, `bug ${bug.order}`);
      }
      patches.set(bug.order, { continuous_id: chain.continuous_id, swebench_instance_id: bug.swebench_instance_id, model_patch: recordedPatch(rolled.outcome) });
      if (mode !== "oracle" && i + 1 < chain.bug_fixes.length) {
        start = (await buildStates(builder, replayInput, [bug], { gold: { known: gold.gold }, startState: start.commit ?? gold.gold[0]! })).states[0]!;
      }
      out.push(rolled);
      await onBug(rolled);
    }
    return out;
  } finally {
    containers.retire(builder, "states");
  }
}
