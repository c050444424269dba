/**
 * `chainswe worker`: the evaluation worker pool on the portal's database
 * (DATABASE_URL), until SIGINT or SIGTERM. The first signal stops claiming,
 * aborts the chains being replayed and gives their jobs back to the queue (so
 * another worker takes them at once); a second one exits without waiting.
 *
 * `chainswe submit-local`: a predictions file as a new submission in the local
 * database, queued for the workers; prints the submission's id.
 *
 * The database modules are imported inside the actions, so other commands
 * never open the database.
 */
import { hostname } from "node:os";
import type { Command } from "commander";
import { assertEngine, defaultLimits, removeLiveSandboxes } from "@/evaluator/sandbox";
import { modeSchema } from "@/lib/schemas/prediction";

const positive = (flag: string, value: string): number => {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${flag} must be a positive number, not "${value}"`);
  return n;
};

type WorkerFlags = {
  concurrency: string;
  leaseSeconds: string;
  pollSeconds: string;
  maxAttempts: string;
  timeout?: string;
  workerId?: string;
  untilIdle?: boolean;
};

async function workerCommand(flags: WorkerFlags): Promise<void> {
  const { startWorkerPool } = await import("@/evaluator/queue");
  await assertEngine();
  const pool = startWorkerPool({
    concurrency: Math.floor(positive("--concurrency", flags.concurrency)),
    leaseMs: positive("--lease-seconds", flags.leaseSeconds) * 1000,
    pollMs: positive("--poll-seconds", flags.pollSeconds) * 1000,
    maxAttempts: Math.floor(positive("--max-attempts", flags.maxAttempts)),
    workerId: flags.workerId ?? `${hostname()}:${process.pid}`,
    limits: defaultLimits(flags.timeout ? { testTimeoutS: positive("--timeout", flags.timeout) } : {}),
    untilIdle: flags.untilIdle,
  });
  await new Promise<void>((resolve) => {
    void pool.done.then(resolve);
    let signals = 0;
    const onSignal = (signal: NodeJS.Signals) => {
      if (++signals > 1) {
        process.stderr.write(`${signal} again: exiting without waiting\n`);
        void removeLiveSandboxes().finally(() => process.exit(1));
        return;
      }
      process.stderr.write(`${signal}: stopping; running chains go back to the queue\n`);
      void pool.stop({ release: true }).then(resolve);
    };
    process.on("SIGINT", onSignal);
    process.on("SIGTERM", onSignal);
  });
}

type SubmitFlags = { datasetVersion: string; mode: string; system?: string; team: string; chains?: string };

async function submitLocalCommand(file: string, flags: SubmitFlags): Promise<void> {
  const { createSubmission, SubmissionError } = await import("@/lib/data/submissions");
  const mode = modeSchema.safeParse(flags.mode);
  let created;
  try {
    if (!mode.success) throw new SubmissionError(`--mode must be one of ${modeSchema.options.join(", ")}, not "${flags.mode}"`);
    created = await createSubmission({
      systemName: flags.system,
      teamName: flags.team,
      datasetVersion: flags.datasetVersion,
      mode: mode.data,
      predictions: file,
      chainIds: flags.chains ? flags.chains.split(",").map((s) => s.trim()).filter(Boolean) : null,
    });
  } catch (e) {
    // refused as a whole, like the InputError main() reports with exit code 2
    if (!(e instanceof SubmissionError)) throw e;
    process.stderr.write(`chainswe: ${e.message}\n`);
    process.exitCode = 2;
    return;
  }
  for (const w of created.warnings) process.stderr.write(`warning: ${w}\n`);
  process.stderr.write(`queued ${created.chains} chain(s) with ${created.predictions} prediction(s); run \`chainswe worker\` to evaluate\n`);
  process.stdout.write(`${created.id}\n`);
}

export function registerWorker(program: Command): void {
  program
    .command("worker")
    .description("evaluate queued submissions from the database (DATABASE_URL) until SIGINT/SIGTERM")
    .option("--concurrency <n>", "chains replayed at once", "2")
    .option("--lease-seconds <s>", "a claimed chain's lease; a dead worker's chain is retried after it", "60")
    .option("--poll-seconds <s>", "how often an idle slot looks for work", "1")
    .option("--max-attempts <n>", "claims per chain before a retryable failure is final", "5")
    .option("--timeout <seconds>", "wall-clock limit per test command")
    .option("--worker-id <id>", "lease owner name (default host:pid)")
    .option("--until-idle", "exit once no chain is queued or running (a batch run)")
    .action(workerCommand);
  program
    .command("submit-local <predictions>")
    .description("store a predictions file as a submission in the local database and queue it; prints its id")
    .requiredOption("--dataset-version <v>", "an imported dataset version (chainswe dataset import)")
    .requiredOption("--mode <mode>", "oracle | seq | seq_mem")
    .option("--system <name>", "system name (default: model_name_or_path of the predictions, else the file name)")
    .option("--team <name>", "team the system belongs to", "local")
    .option("--chains <ids>", "comma-separated chain ids (default: all)")
    .action(submitLocalCommand);
}
