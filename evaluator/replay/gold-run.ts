/**
 * Gold replay as a whole: every chain replayed in Oracle mode with its gold patches,
 * then each chain's verdict. `chainswe validate` and the mining re-execution filter
 * both run exactly this.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Dataset } from "@/evaluator/dataset";
import { defaultLimits } from "@/evaluator/sandbox";
import { runErrorSchema, type RunError } from "@/core/schemas/results";
import { GOLD_SYSTEM, goldPredictions, validationVerdicts, type ChainValidation } from "./gold";
import { ERRORS_FILE, readResults } from "./output";
import { evaluate, type EvaluateEvent } from "./run";

async function readErrors(dir: string): Promise<RunError[]> {
  const text = await readFile(join(dir, ERRORS_FILE), "utf8").catch(() => "");
  return text.split("\n").filter((l) => l.trim()).map((l) => runErrorSchema.parse(JSON.parse(l)));
}

export type GoldReplayOptions = {
  dataset: Dataset;
  outDir: string;
  concurrency: number;
  /** only these chains (all when null) */
  chainIds: string[] | null;
  onEvent?: (e: EvaluateEvent) => void;
};

/** One verdict per chain asked for: ok, or the problems (unresolved bugs, dataset and environment errors). */
export async function goldReplay(o: GoldReplayOptions): Promise<ChainValidation[]> {
  await evaluate({
    dataset: o.dataset,
    predictions: goldPredictions(o.dataset),
    mode: "oracle",
    outDir: o.outDir,
    system: GOLD_SYSTEM,
    concurrency: o.concurrency,
    chainIds: o.chainIds,
    limits: defaultLimits(),
    onEvent: o.onEvent,
  });
  const ids = o.chainIds ?? o.dataset.chains.map((c) => c.continuous_id);
  return validationVerdicts(ids, await readResults(o.outDir), await readErrors(o.outDir));
}
