/** `chainswe`: one file per command; this one wires them and exits non-zero on failure. */
import { Command, CommanderError } from "commander";
import { wasInterrupted } from "@/evaluator/sandbox";
import { EnvironmentError, InputError, coerceError } from "@/core/errors";
import { UsageError } from "./options";

type Register = (program: Command) => void;

/**
 * Every command, by its first word, and the module that registers it, loaded
 * only when that command runs: `chainswe evaluate` loads the engine and
 * nothing of the portal (no Prisma client, no Next.js), and a command's
 * start costs only its own modules. The help and an unknown word load them all.
 * In the order the help lists them.
 */
const COMMANDS: [string[], () => Promise<Register>][] = [
  [["validate"], async () => (await import("./validate")).registerValidate],
  [["evaluate"], async () => (await import("./evaluate")).registerEvaluate],
  [["report"], async () => (await import("./report")).registerReport],
  [["regrade"], async () => (await import("./regrade")).registerRegrade],
  [["bundle", "verify"], async () => (await import("./bundle")).registerBundle],
  [["demo"], async () => (await import("./demo")).registerDemo],
  [["dataset", "db"], async () => (await import("./dataset")).registerDataset],
  [["submit"], async () => (await import("./submit")).registerSubmit],
  [["propose"], async () => (await import("./propose")).registerPropose],
  [["admin"], async () => (await import("./admin")).registerAdmin],
  [["aggregates"], async () => (await import("./aggregates")).registerAggregates],
  [["cleanup"], async () => (await import("./cleanup")).registerCleanup],
  [["mine", "select"], async () => (await import("./mining")).registerMining],
  [["rollout"], async () => (await import("./rollout")).registerRollout],
  [["worker", "dispatcher", "submit-local"], async () => (await import("./worker")).registerWorker],
];

/** The modules that register the command `argv` names (its first word that is not an option); all of them when it names none. */
export function commandModules(argv: string[]): (() => Promise<Register>)[] {
  const word = argv.slice(2).find((a) => !a.startsWith("-"));
  const named = COMMANDS.find(([words]) => word !== undefined && words.includes(word));
  return named ? [named[1]] : COMMANDS.map(([, load]) => load);
}

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
  for (const register of await Promise.all(commandModules(argv).map((load) => load()))) register(program);
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
