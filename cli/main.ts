/** `chainswe`: one file per command; this one wires them and exits non-zero on failure. */
import { Command, CommanderError } from "commander";
import { wasInterrupted } from "@/evaluator/sandbox";
import { EnvironmentError, InputError, coerceError } from "@/core/errors";
import { registerEvaluate } from "./evaluate";
import { UsageError } from "./options";
import { registerReport } from "./report";
import { registerRegrade } from "./regrade";
import { registerBundle } from "./bundle";
import { registerValidate } from "./validate";
import { registerDemo } from "./demo";
import { registerDataset } from "./dataset";
import { registerSubmit } from "./submit";
import { registerAdmin } from "./admin";
import { registerAggregates } from "./aggregates";
import { registerCleanup } from "./cleanup";
import { registerMining } from "./mining";
import { registerRollout } from "./rollout";

/** File-system errors a user causes (a path that is missing, unreadable or of the wrong kind). */
const PATH_ERRORS = new Set(["ENOENT", "EACCES", "EISDIR", "ENOTDIR", "EPERM"]);

/**
 * How a failure is told: expected ones (bad options, bad input, a path that cannot be
 * read: exit 2; no Docker engine and other environment failures: exit 1) in one line,
 * without a stack; anything else is an internal error and keeps its stack. `--debug`
 * prints the stack of every failure.
 */
export function describeFailure(e: unknown, debug: boolean): { text: string; exitCode: number } {
  const err = coerceError(e);
  const path = (err as NodeJS.ErrnoException).path;
  const code = (err as NodeJS.ErrnoException).code;
  const exitCode = err instanceof InputError || (path !== undefined && code !== undefined && PATH_ERRORS.has(code)) ? 2 : 1;
  if (debug) return { text: `chainswe: ${err.stack ?? err.message}`, exitCode };
  if (err instanceof UsageError) return { text: err.message, exitCode };
  if (err instanceof InputError || err instanceof EnvironmentError) return { text: `chainswe: ${err.message}`, exitCode };
  if (exitCode === 2) return { text: `chainswe: cannot read ${path}: ${code === "ENOENT" ? "no such file or directory" : code}`, exitCode };
  return { text: `chainswe: ${err.stack ?? err.message}`, exitCode };
}

export async function main(argv: string[]): Promise<void> {
  const program = new Command("chainswe")
    .description("ChainSWE benchmark: replay chains of dependent bug fixes in Docker and grade them")
    .option("--debug", "print the stack trace of any failure")
    .showHelpAfterError()
    // commander's own usage errors (unknown or missing option) are thrown here, for exit 2
    .exitOverride();
  registerValidate(program);
  registerEvaluate(program);
  registerReport(program);
  registerRegrade(program);
  registerBundle(program);
  registerDemo(program);
  registerDataset(program);
  registerSubmit(program);
  registerAdmin(program);
  registerAggregates(program);
  registerCleanup(program);
  registerMining(program);
  registerRollout(program);
  (await import("./worker")).registerWorker(program);
  try {
    await program.parseAsync(argv);
  } catch (e) {
    if (e instanceof CommanderError) {
      // commander has printed its message (or the help, exit code 0)
      process.exitCode = e.exitCode === 0 ? 0 : 2;
      return;
    }
    if (wasInterrupted()) return; // the signal handler owns the exit code
    const { text, exitCode } = describeFailure(e, program.opts<{ debug?: boolean }>().debug === true);
    process.stderr.write(`${text}\n`);
    process.exitCode = exitCode;
  }
}
