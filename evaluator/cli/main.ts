/** `chainswe`: one file per command; this one wires them and exits non-zero on failure. */
import { Command } from "commander";
import { wasInterrupted } from "@/evaluator/sandbox";
import { InputError, coerceError } from "@/lib/errors";
import { registerEvaluate } from "./evaluate";
import { registerReport } from "./report";
import { registerRegrade } from "./regrade";
import { registerValidate } from "./validate";
import { registerDemo } from "./demo";
import { registerDataset } from "./dataset";
import { registerSubmit } from "./submit";
import { registerAdmin } from "./admin";
import { registerAggregates } from "./aggregates";
import { registerMining } from "./mining";
import { registerRollout } from "./rollout";

export async function main(argv: string[]): Promise<void> {
  const program = new Command("chainswe")
    .description("ChainSWE benchmark: replay chains of dependent bug fixes in Docker and grade them")
    .showHelpAfterError();
  registerValidate(program);
  registerEvaluate(program);
  registerReport(program);
  registerRegrade(program);
  registerDemo(program);
  registerDataset(program);
  registerSubmit(program);
  registerAdmin(program);
  registerAggregates(program);
  registerMining(program);
  registerRollout(program);
  (await import("./worker")).registerWorker(program);
  try {
    await program.parseAsync(argv);
  } catch (e) {
    const err = coerceError(e);
    if (wasInterrupted()) return; // the signal handler owns the exit code
    process.stderr.write(`chainswe: ${err instanceof InputError ? err.message : err.stack ?? err.message}\n`);
    process.exitCode = err instanceof InputError ? 2 : 1;
  }
}
