/**
 * One chain replayed in a fresh sandbox that is removed whatever happens: the
 * part of a queue job that needs Docker and nothing else, shared by the
 * database-backed worker (jobs/queue/run-job.ts) and the distributed one
 * (jobs/distributed/worker/). `onSandbox` hands the chain's containers
 * to the caller so it can stop the chain early (removing them makes the
 * replay's next exec fail).
 */
import { ChainContainers, type SandboxLimits } from "@/evaluator/sandbox";
import { coerceError } from "@/core/errors";
import { replayChain, type BugArtifacts, type ChainReplayInput } from "./chain";

export type SandboxedReplay = {
  input: Omit<ChainReplayInput, "testTimeoutS">;
  limits: SandboxLimits;
  labels: Record<string, string>;
  onBug: (a: BugArtifacts) => Promise<void>;
  onSandbox: (containers: ChainContainers | undefined) => void;
  /** called between steps: throw to stop before the next one */
  checkStopped: () => void;
  log: (line: string) => void;
};

export async function replayInSandbox(o: SandboxedReplay): Promise<BugArtifacts[]> {
  o.checkStopped();
  const containers = new ChainContainers(o.input.chain.docker_image, o.limits, o.labels);
  o.onSandbox(containers);
  try {
    o.checkStopped();
    return await replayChain(containers, { ...o.input, testTimeoutS: o.limits.testTimeoutS }, o.onBug);
  } finally {
    o.onSandbox(undefined);
    await containers.remove().catch((e: unknown) => o.log(`${o.input.chain.continuous_id}: removing the sandbox failed: ${coerceError(e).message}`));
  }
}
