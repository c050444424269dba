/**
 * `evaluate`: replays a submission's predictions over a dataset, chain by
 * chain (in parallel up to a concurrency), writing the evaluation directory.
 * Re-running the same command resumes: finished chains are not run again.
 */
import { mkdir } from "node:fs/promises";
import pLimit from "p-limit";
import type { Dataset, Predictions } from "@/evaluator/dataset";
import { ChainContainers, type SandboxLimits } from "@/evaluator/sandbox";
import { DatasetError, EnvironmentError, coerceError } from "@/core/errors";
import type { Chain } from "@/core/schemas/dataset";
import type { Mode } from "@/core/schemas/prediction";
import type { TestEditPolicy } from "@/core/schemas/manifest";
import type { GradedBug, RunSummary } from "@/core/schemas/results";
import { replayChain, type BugArtifacts } from "./chain";
import { appendChainResults, appendError, finishedChains, readResults, readSummary, writeBugArtifacts, writeSummary } from "./output";

export type EvaluateOptions = {
  dataset: Dataset;
  predictions: Predictions;
  mode: Mode;
  outDir: string;
  /** name of the system; defaults to the predictions' model_name_or_path */
  system: string;
  concurrency: number;
  /** only these chains (all when null) */
  chainIds: string[] | null;
  limits: SandboxLimits;
  /** SPEC §7: `strip` drops each model patch's test edits before it is applied (default keep) */
  testEdits?: TestEditPolicy;
  onEvent?: (e: EvaluateEvent) => void;
};

export type EvaluateEvent =
  | { kind: "start"; total: number; skipped: number }
  | { kind: "bug"; bug: GradedBug }
  | { kind: "chain_done"; continuousId: string; bugs: GradedBug[] }
  | { kind: "chain_error"; continuousId: string; error: Error; errorKind: "environment" | "dataset" };

function selectChains(dataset: Dataset, ids: string[] | null): Chain[] {
  if (!ids) return dataset.chains;
  const known = new Map(dataset.chains.map((c) => [c.continuous_id, c]));
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length) throw new Error(`unknown chain id(s): ${unknown.join(", ")}`);
  return ids.map((id) => known.get(id)!);
}

/** Refuses to mix two different runs in one directory. */
function assertSameRun(prior: RunSummary, o: EvaluateOptions): void {
  const mismatch: string[] = [];
  if (prior.system !== o.system) mismatch.push(`system ${prior.system} ≠ ${o.system}`);
  if (prior.mode !== o.mode) mismatch.push(`mode ${prior.mode} ≠ ${o.mode}`);
  if (prior.dataset.sha256 !== o.dataset.sha256) mismatch.push("dataset changed");
  if (prior.predictions.sha256 !== o.predictions.sha256) mismatch.push("predictions changed");
  if (mismatch.length) {
    throw new Error(`${o.outDir} holds a different run (${mismatch.join("; ")}); use another --out`);
  }
}

/**
 * The chain's containers (ChainContainers). Their removal is not awaited here
 * (it costs a few hundred ms); `evaluate` awaits every removal before it returns.
 */
async function runChain(o: EvaluateOptions, chain: Chain, removals: Promise<void>[]): Promise<GradedBug[]> {
  const labels = { "chainswe.chain": chain.continuous_id, "chainswe.mode": o.mode };
  const containers = new ChainContainers(chain.docker_image, o.limits, labels);
  try {
    const graded: BugArtifacts[] = await replayChain(
      containers,
      {
        chain,
        mode: o.mode,
        system: o.system,
        predictions: o.predictions.byChain.get(chain.continuous_id) ?? new Map(),
        testTimeoutS: o.limits.testTimeoutS,
        testEdits: o.testEdits,
      },
      async (a) => {
        await writeBugArtifacts(o.outDir, a);
        o.onEvent?.({ kind: "bug", bug: a.bug });
      },
    );
    return graded.map((a) => a.bug);
  } finally {
    // awaited (and any failure surfaced) by gradeChains once every chain is done
    const removal = containers.remove();
    removal.catch(() => {});
    removals.push(removal);
  }
}

function initialSummary(o: EvaluateOptions, startedAt: string): RunSummary {
  return {
    system: o.system,
    mode: o.mode,
    dataset: {
      path: o.dataset.path,
      sha256: o.dataset.sha256,
      chains: o.dataset.chains.map((c) => ({ continuous_id: c.continuous_id, length: c.bug_fixes.length })),
    },
    predictions: { path: o.predictions.path, sha256: o.predictions.sha256 },
    chains_selected: o.chainIds,
    started_at: startedAt,
    finished_at: null,
    chains_graded: 0,
    chains_failed: 0,
    bugs_graded: 0,
    bugs_resolved: 0,
    wall_seconds: 0,
    test_seconds: 0,
    limits: { memory_bytes: o.limits.memoryBytes, nano_cpus: o.limits.nanoCpus, pids: o.limits.pids, test_timeout_s: o.limits.testTimeoutS },
  };
}

/**
 * Replays chains up to the concurrency. A dataset or environment error is
 * recorded for its chain (retried next run) and the others go on; any other
 * error is a bug in this program and stops the run. Returns the failed count.
 */
async function gradeChains(o: EvaluateOptions, chains: Chain[]): Promise<number> {
  let failed = 0;
  const limit = pLimit(Math.max(1, o.concurrency));
  const removals: Promise<void>[] = [];
  const gradeOne = async (chain: Chain) => {
    try {
      const bugs = await runChain(o, chain, removals);
      await appendChainResults(o.outDir, bugs);
      o.onEvent?.({ kind: "chain_done", continuousId: chain.continuous_id, bugs });
    } catch (e) {
      const error = coerceError(e);
      if (!(error instanceof DatasetError) && !(error instanceof EnvironmentError)) throw error;
      failed++;
      const kind = error instanceof DatasetError ? "dataset" : "environment";
      const order = error instanceof DatasetError ? error.order : undefined;
      await appendError(o.outDir, { kind, continuous_id: chain.continuous_id, order, message: error.message, at: new Date().toISOString() });
      o.onEvent?.({ kind: "chain_error", continuousId: chain.continuous_id, error, errorKind: kind });
    }
  };
  await Promise.all(chains.map((chain) => limit(() => gradeOne(chain)))).finally(() => Promise.all(removals));
  return failed;
}

export async function evaluate(o: EvaluateOptions): Promise<RunSummary> {
  const started = Date.now();
  await mkdir(o.outDir, { recursive: true });
  const prior = await readSummary(o.outDir);
  if (prior) assertSameRun(prior, o);
  const chains = selectChains(o.dataset, o.chainIds);
  const lengths = new Map(o.dataset.chains.map((c) => [c.continuous_id, c.bug_fixes.length]));
  const done = await finishedChains(o.outDir, lengths);
  const todo = chains.filter((c) => !done.has(c.continuous_id));
  const summary = initialSummary(o, prior?.started_at ?? new Date(started).toISOString());
  await writeSummary(o.outDir, summary);
  o.onEvent?.({ kind: "start", total: chains.length, skipped: chains.length - todo.length });
  const failed = await gradeChains(o, todo);
  const all = await readResults(o.outDir);
  const final: RunSummary = {
    ...summary,
    finished_at: new Date().toISOString(),
    chains_graded: new Set(all.map((b) => b.continuous_id)).size,
    chains_failed: failed,
    bugs_graded: all.length,
    bugs_resolved: all.filter((b) => b.resolved).length,
    wall_seconds: (Date.now() - started) / 1000,
    test_seconds: all.reduce((s, b) => s + b.duration_s, 0),
  };
  await writeSummary(o.outDir, final);
  return final;
}
