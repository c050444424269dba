/** `chainswe`: one file per command; this one wires them and exits non-zero on failure. */
import { Command, CommanderError, Help, type ErrorOptions, type ParseOptionsResult } from "commander";
// not the sandbox's index: that loads Docker's client, which only commands that start containers need
import { wasInterrupted } from "@/evaluator/sandbox/interrupt";

type Register = (program: Command) => void;

/** A command as the top-level help lists it: its usage term and its description, as its module registers them. */
type Listed = [term: string, description: string];

/**
 * Every command, as the top-level help lists it, and the module that registers
 * it, loaded only when that command runs: `chainswe evaluate` loads the engine and
 * nothing of the portal (no Prisma client, no Next.js), a command's start costs
 * only its own modules, and `chainswe --help` loads none (the listing is kept
 * here; cli/main.test.ts checks it against what the modules register). An
 * unknown word loads them all, for commander's suggestion. In the order the help lists them.
 */
const COMMANDS: [Listed[], () => Promise<Register>][] = [
  [
    [
      ["validate [options] <dataset>", "gold replay: every bug of a valid chain must resolve with its gold patch"],
    ],
    async () => (await import("./validate")).registerValidate,
  ],
  [
    [
      ["evaluate [options]", "replay a submission's predictions chain by chain and grade every bug"],
    ],
    async () => (await import("./evaluate")).registerEvaluate,
  ],
  [
    [
      ["report [options] <dirs...>", "scores, per-position tables and chain-error analysis for evaluation directories"],
    ],
    async () => (await import("./report")).registerReport,
  ],
  [
    [
      ["regrade [options] <dirs...>", "re-grade evaluation directories from their stored test logs with the current grader (no Docker); prints every verdict that changed"],
    ],
    async () => (await import("./regrade")).registerRegrade,
  ],
  [
    [
      ["bundle [options] <dir>", "pack an evaluation directory as a reproducibility bundle (.tar.gz) that `chainswe verify` checks"],
      ["verify [options] <bundle>", "check a reproducibility bundle offline: every file against its manifest, every log re-graded against results.jsonl, the scores against report.json"],
    ],
    async () => (await import("./bundle")).registerBundle,
  ],
  [
    [
      ["demo", "the shipped demo benchmark"],
    ],
    async () => (await import("./demo")).registerDemo,
  ],
  [
    [
      ["dataset", "dataset versions in the portal's database"],
      ["db", "the portal's database (DATABASE_URL)"],
    ],
    async () => (await import("./dataset")).registerDataset,
  ],
  [
    [
      ["submit [options] <predictions>", "upload a predictions file to a ChainSWE portal (POST /api/v1/submissions); --wait follows the evaluation"],
    ],
    async () => (await import("./submit")).registerSubmit,
  ],
  [
    [
      ["propose [options] <chains>", "propose chains (dataset records, e.g. from chainswe select) to a ChainSWE portal (POST /api/v1/proposals); --wait follows their validation"],
    ],
    async () => (await import("./propose")).registerPropose,
  ],
  [
    [
      ["admin", "site administrators and reviewers (the portal's database)"],
    ],
    async () => (await import("./admin")).registerAdmin,
  ],
  [
    [
      ["aggregates", "the scores and analyses stored when evaluations complete (the portal's database)"],
    ],
    async () => (await import("./aggregates")).registerAggregates,
  ],
  [
    [
      ["cleanup [options]", "delete the stored data of submissions cancelled long enough ago (the portal's database); their audit rows stay"],
    ],
    async () => (await import("./cleanup")).registerCleanup,
  ],
  [
    [
      ["mine [options]", "candidate chains from instance files: join by git history, filter by code overlap, optionally re-execute (paper \u00a73.2)"],
      ["select [options] <candidates>", "a dataset version from verified candidates: drop length-2 chains, optional Oracle difficulty filter, no shared instances (paper \u00a73.3)"],
    ],
    async () => (await import("./mining")).registerMining,
  ],
  [
    [
      ["rollout [options]", "run an agent through every chain as the evaluator grades it (Oracle from G(k-1), Seq from A(k-1)); write predictions"],
    ],
    async () => (await import("./rollout")).registerRollout,
  ],
  [
    [
      ["worker [options]", "evaluate queued submissions until SIGINT/SIGTERM: from the database (DATABASE_URL), or with --redis from a distributed deployment's Redis"],
      ["dispatcher [options]", "distributed mode: put queued chains on Redis for `chainswe worker --redis` and store their reports (the site does this itself when CHAINSWE_QUEUE=bullmq)"],
      ["submit-local [options] <predictions>", "store a predictions file as a submission in the local database and queue it; prints its id"],
    ],
    async () => (await import("./worker")).registerWorker,
  ],
];

const firstWord = (term: string) => term.split(" ")[0]!;

/** The word `argv` names as its command (its first that is not an option), if any. */
const commandWord = (argv: string[]) => argv.slice(2).find((a) => !a.startsWith("-"));

/** The modules that register the command `argv` names; all of them when it names none or an unknown one. */
export function commandModules(argv: string[]): (() => Promise<Register>)[] {
  const word = commandWord(argv);
  const named = COMMANDS.find(([listed]) => word !== undefined && listed.some(([term]) => firstWord(term) === word));
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

function newProgram(): Command {
  return (
    new ChainsweCommand("chainswe")
      .description("ChainSWE benchmark: replay chains of dependent bug fixes in Docker and grade them")
      .option("--debug", "print the stack trace of any failure")
      // commander's own usage errors (unknown or missing option) are thrown here, for exit 2
      .exitOverride()
  );
}

/** The program with the commands `argv` needs registered (every command when it names none). */
export async function chainsweProgram(argv: string[]): Promise<Command> {
  const program = newProgram();
  for (const register of await Promise.all(commandModules(argv).map((load) => load()))) register(program);
  return program;
}

/**
 * The program as `chainswe` and `chainswe --help` need it, naming no command: every
 * command listed by its term and description, none of their modules loaded.
 */
export function listingProgram(): Command {
  const program = newProgram();
  const terms = new Map<Command, string>();
  for (const [listed] of COMMANDS) {
    for (const [term, description] of listed) terms.set(program.command(firstWord(term)).description(description), term);
  }
  const help = new Help();
  return program.configureHelp({ subcommandTerm: (c) => terms.get(c) ?? help.subcommandTerm(c) });
}

export async function main(argv: string[]): Promise<void> {
  const program = commandWord(argv) === undefined ? listingProgram() : await chainsweProgram(argv);
  try {
    await program.parseAsync(argv);
  } catch (e) {
    if (e instanceof CommanderError) {
      // commander has printed its message (or the help, exit code 0)
      process.exitCode = e.exitCode === 0 ? 0 : 2;
      return;
    }
    if (wasInterrupted()) return; // the signal handler owns the exit code
    // loaded on failure only: how failures are told takes zod (the options' schemas), which the help does without
    const { describeFailure } = await import("./failure");
    const { text, exitCode } = describeFailure(e, program.opts<{ debug?: boolean }>().debug === true);
    process.stderr.write(`${text}\n`);
    process.exitCode = exitCode;
  }
}
