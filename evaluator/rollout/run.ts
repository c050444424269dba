/**
 * `rollout`: runs an agent through a dataset's chains under one mode's
 * protocol and writes the predictions JSONL (ready for `chainswe submit` and
 * `chainswe evaluate`) plus one trajectory per bug: `<chain>/<order>.log`
 * (the agent's output) and `<chain>/<order>.json` (how the turn ended,
 * core/schemas/trajectory.ts).
 * Each chain's lines are appended once its last bug is done, in dataset order
 * within the chain.
 */
import { appendFile, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pLimit from "p-limit";
import type { Dataset } from "@/evaluator/dataset";
import { ChainContainers, type SandboxLimits } from "@/evaluator/sandbox";
import { DatasetError, EnvironmentError, coerceError } from "@/core/errors";
import type { Chain } from "@/core/schemas/dataset";
import type { Mode } from "@/core/schemas/prediction";
import type { TrajectoryOutcome } from "@/core/schemas/trajectory";
import { rolloutChain, type RolledBug } from "./chain";
import { pathSegment } from "@/core/trajectory/layout";
import { predictionLine, recordedPatch } from "./contract";

export type RolloutOptions = {
  dataset: Dataset;
  mode: Mode;
  agentCommand: string;
  system: string;
  /** predictions JSONL to write */
  out: string;
  trajectoriesDir: string;
  timeLimitS: number;
  chains: Chain[];
  concurrency: number;
  limits: SandboxLimits;
  /** largest patch an agent may submit in its patch file (UTF-8 bytes); absent: no limit */
  maxPatchBytes?: number;
  onEvent?: (e: RolloutEvent) => void;
};

export type RolloutEvent =
  | { kind: "bug"; chain: Chain; rolled: RolledBug }
  | { kind: "chain_done"; chain: Chain }
  | { kind: "chain_error"; chain: Chain; error: Error };

export type RolloutSummary = { chains: number; chainsFailed: number; bugs: number; emptyPatches: number; timedOut: number };

function trajectory(chain: Chain, mode: Mode, r: RolledBug): TrajectoryOutcome {
  const o = r.outcome;
  return {
    continuous_id: chain.continuous_id,
    swebench_instance_id: r.bug.swebench_instance_id,
    order: r.bug.order,
    mode,
    timed_out: o.timedOut,
    exit_code: o.exitCode,
    wall_seconds: o.wallSeconds,
    patch_empty: recordedPatch(o).trim() === "",
    patch_source: o.patchSource,
    metrics: o.metrics,
    warnings: r.warnings,
  };
}

async function rollOne(o: RolloutOptions, chain: Chain): Promise<RolledBug[]> {
  const chainDir = join(o.trajectoriesDir, pathSegment(chain.continuous_id));
  await mkdir(chainDir, { recursive: true });
  const scratchDir = await mkdtemp(join(tmpdir(), "chainswe-rollout-"));
  const labels = { "chainswe.chain": chain.continuous_id, "chainswe.mode": o.mode, "chainswe.rollout": "1" };
  const containers = new ChainContainers(chain.docker_image, o.limits, labels);
  try {
    return await rolloutChain(containers, { chain, mode: o.mode, agentCommand: o.agentCommand, timeLimitS: o.timeLimitS, chainDir, scratchDir, maxPatchBytes: o.maxPatchBytes }, async (r) => {
      await writeFile(join(chainDir, `${r.bug.order}.json`), JSON.stringify(trajectory(chain, o.mode, r), null, 2) + "\n");
      o.onEvent?.({ kind: "bug", chain, rolled: r });
    });
  } finally {
    await containers.remove();
    await rm(scratchDir, { recursive: true, force: true });
  }
}

/**
 * Rolls out every chain, up to a concurrency. A dataset or environment error
 * is reported for its chain (its lines are not written) and the others go on;
 * any other error stops the run.
 */
export async function rollout(o: RolloutOptions): Promise<RolloutSummary> {
  await mkdir(o.trajectoriesDir, { recursive: true });
  await writeFile(o.out, "", { flag: "wx" });
  const summary: RolloutSummary = { chains: 0, chainsFailed: 0, bugs: 0, emptyPatches: 0, timedOut: 0 };
  const limit = pLimit(Math.max(1, o.concurrency));
  await Promise.all(
    o.chains.map((chain) =>
      limit(async () => {
        try {
          const rolled = await rollOne(o, chain);
          await appendFile(o.out, rolled.map((r) => JSON.stringify(predictionLine(o.system, chain, r.bug, r.outcome)) + "\n").join(""));
          summary.chains++;
          summary.bugs += rolled.length;
          summary.emptyPatches += rolled.filter((r) => recordedPatch(r.outcome).trim() === "").length;
          summary.timedOut += rolled.filter((r) => r.outcome.timedOut).length;
          o.onEvent?.({ kind: "chain_done", chain });
        } catch (e) {
          const error = coerceError(e);
          if (!(error instanceof DatasetError) && !(error instanceof EnvironmentError)) throw error;
          summary.chainsFailed++;
          o.onEvent?.({ kind: "chain_error", chain, error });
        }
      }),
    ),
  );
  return summary;
}
