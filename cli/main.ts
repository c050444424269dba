/** `chainswe`: one file per command; this one wires them and exits non-zero on failure. */
import { Command, CommanderError, type ErrorOptions, type ParseOptionsResult } from "commander";
import { wasInterrupted } from "@/evaluator/sandbox";
import { EnvironmentError, InputError, coerceError } from "@/core/errors";
import { databaseUnreachable } from "./network";
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

/**
 * commander's Command, telling its own usage errors (unknown option or command, missing
 * option or argument, bad choice) in one line that names the command and the thing,
 * with where to read the usage instead of the whole help. An unknown option is told
 * before a missing required one: `--frobnicate` is the mistake, not the `--system`
 * the user never got to.
 */
class ChainsweCommand extends Command {
  private firstUnknownOption: string | undefined;

  override createCommand(name?: string): Command {
    return new ChainsweCommand(name);
  }

  override parseOptions(argv: string[]): ParseOptionsResult {
    const parsed = super.parseOptions(argv);
    // commander puts the first unknown option first in `unknown`, then everything after it
    this.firstUnknownOption = parsed.unknown[0]?.startsWith("-") ? parsed.unknown[0] : undefined;
    return parsed;
  }

  override error(message: string, errorOptions?: ErrorOptions): never {
    const unknownFirst = errorOptions?.code === "commander.missingMandatoryOptionValue" && this.firstUnknownOption !== undefined;
    const text = unknownFirst ? `unknown option '${this.firstUnknownOption}'` : message.replace(/^error: /, "");
    const path = commandPath(this);
    const help = this.parent ? ` (see ${path} --help)` : " (see chainswe --help)";
    return super.error(`${path}: ${text}${help}`, unknownFirst ? { ...errorOptions, code: "commander.unknownOption" } : errorOptions);
  }
}

/** `chainswe demo run` for the command `run` under `demo`. */
function commandPath(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c; c = c.parent) names.unshift(c.name());
  return names.join(" ");
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
  // typed as Error: the union of two structurally equal classes would narrow to never below
  const err: Error = databaseUnreachable(e) ?? coerceError(e);
  const path = (err as NodeJS.ErrnoException).path;
  const code = (err as NodeJS.ErrnoException).code;
  const exitCode = err instanceof InputError || (path !== undefined && code !== undefined && PATH_ERRORS.has(code)) ? 2 : 1;
  if (debug) return { text: `chainswe: ${err.stack ?? err.message}`, exitCode };
  if (err instanceof UsageError) return { text: err.message, exitCode };
  if (err instanceof InputError || err instanceof EnvironmentError) return { text: `chainswe: ${err.message}`, exitCode };
  if (exitCode === 2) return { text: `chainswe: cannot read ${path}: ${code === "ENOENT" ? "no such file or directory" : code}`, exitCode };
  return { text: `chainswe: ${err.stack ?? err.message}`, exitCode };
}

/** The program with the commands `argv` needs registered (every command when it names none). */
export async function chainsweProgram(argv: string[]): Promise<Command> {
  const program = new ChainsweCommand("chainswe")
    .description("ChainSWE benchmark: replay chains of dependent bug fixes in Docker and grade them")
    .option("--debug", "print the stack trace of any failure")
    // commander's own usage errors (unknown or missing option) are thrown here, for exit 2
    .exitOverride();
  for (const register of await Promise.all(commandModules(argv).map((load) => load()))) register(program);
  return program;
}

export async function main(argv: string[]): Promise<void> {
  const program = await chainsweProgram(argv);
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
