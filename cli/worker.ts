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
import { env } from "@/env";
import { assertEngine, defaultLimits, removeLiveSandboxes } from "@/evaluator/sandbox";
import { z } from "zod";
import { assertDatabase, assertRedis } from "./network";
import { chainIdsOption, intOption, modeOption, parseOptions, positiveOption, readableFile, UsageError } from "./options";

const redisOption = z.string().regex(/^rediss?:\/\//, "expected a redis:// URL");

export const workerOptionsSchema = z.object({
  redis: redisOption.optional(),
  lockSeconds: positiveOption.optional(),
  concurrency: intOption(1),
  leaseSeconds: positiveOption,
  pollSeconds: positiveOption,
  maxAttempts: intOption(1),
  timeout: positiveOption.optional(),
  workerId: z.string().trim().min(1).optional(),
  untilIdle: z.boolean().optional(),
});

export const dispatcherOptionsSchema = z.object({
  redis: redisOption.optional(),
  leaseSeconds: positiveOption,
  pollSeconds: positiveOption,
  maxAttempts: intOption(1),
  maxInFlight: intOption(1).optional(),
});

export const submitLocalOptionsSchema = z.object({
  predictions: readableFile,
  datasetVersion: z.string().trim().min(1),
  mode: modeOption,
  system: z.string().trim().min(1).optional(),
  team: z.string().trim().min(1),
  chains: chainIdsOption,
});

/**
 * Runs until SIGINT/SIGTERM (or `done`): the first signal stops taking work and
 * gives running chains back; a second one exits without waiting.
 */
async function untilStopped(stop: () => Promise<void>, done?: Promise<void>): Promise<void> {
  await new Promise<void>((resolve) => {
    void done?.then(resolve);
    let signals = 0;
    const onSignal = (signal: NodeJS.Signals) => {
      if (++signals > 1) {
        process.stderr.write(`${signal} again: exiting without waiting\n`);
        void removeLiveSandboxes().finally(() => process.exit(1));
        return;
      }
      process.stderr.write(`${signal}: stopping; running chains go back to the queue\n`);
      void stop().then(resolve);
    };
    process.on("SIGINT", onSignal);
    process.on("SIGTERM", onSignal);
  });
}

const logLine = (line: string) => process.stderr.write(`${new Date().toISOString()} ${line}\n`);

async function workerCommand(raw: Record<string, unknown>): Promise<void> {
  const flags = parseOptions("worker", workerOptionsSchema, raw);
  const workerId = flags.workerId ?? `${hostname()}:${process.pid}`;
  const limits = defaultLimits(flags.timeout ? { testTimeoutS: flags.timeout } : {});
  const concurrency = flags.concurrency;
  const e = env();
  const redisUrl = flags.redis ?? (e.CHAINSWE_QUEUE === "bullmq" ? e.REDIS_URL : undefined);
  if (redisUrl) {
    // the distributed worker: Redis and a Docker engine, never the database
    await assertRedis(redisUrl);
    const { startDistributedWorker } = await import("@/jobs/distributed/worker");
    // without an engine it still runs: its chains fail as retryable environment errors, never as grades
    await assertEngine().catch((err: unknown) => logLine(`${(err as Error).message}; its chains will fail as environment errors and be retried`));
    const worker = await startDistributedWorker({
      redisUrl,
      concurrency,
      workerId,
      limits,
      lockMs: (flags.lockSeconds ?? e.CHAINSWE_BULLMQ_LOCK_S) * 1000,
      log: logLine,
    });
    await untilStopped(() => worker.stop({ release: true }));
    return;
  }
  await assertDatabase();
  const { startWorkerPool } = await import("@/jobs/queue");
  const { portalLoaders } = await import("@/lib/site/queue-loaders");
  await assertEngine();
  const pool = startWorkerPool({
    concurrency,
    leaseMs: flags.leaseSeconds * 1000,
    pollMs: flags.pollSeconds * 1000,
    maxAttempts: flags.maxAttempts,
    workerId,
    loaders: portalLoaders,
    limits,
    untilIdle: flags.untilIdle,
    flakyRuns: e.CHAINSWE_FLAKY_RUNS,
  });
  await untilStopped(() => pool.stop({ release: true }), pool.done);
}

async function dispatcherCommand(raw: Record<string, unknown>): Promise<void> {
  const flags = parseOptions("dispatcher", dispatcherOptionsSchema, raw);
  const e = env();
  const redisUrl = flags.redis ?? e.REDIS_URL;
  if (!redisUrl) throw new UsageError("dispatcher", [{ field: "--redis", message: "give --redis or set REDIS_URL" }]);
  await assertRedis(redisUrl);
  await assertDatabase();
  const { startDispatcher } = await import("@/jobs/distributed/dispatcher");
  const { DEFAULT_QUEUE_POLICY } = await import("@/jobs/queue");
  const { portalLoaders } = await import("@/lib/site/queue-loaders");
  const dispatcher = startDispatcher({
    redisUrl,
    loaders: portalLoaders,
    policy: {
      ...DEFAULT_QUEUE_POLICY,
      leaseMs: flags.leaseSeconds * 1000,
      maxAttempts: flags.maxAttempts,
    },
    maxInFlight: flags.maxInFlight ?? e.CHAINSWE_DISPATCH_MAX,
    pollMs: flags.pollSeconds * 1000,
    log: logLine,
  });
  await untilStopped(() => dispatcher.stop());
}

async function submitLocalCommand(file: string, raw: Record<string, unknown>): Promise<void> {
  const flags = parseOptions("submit-local", submitLocalOptionsSchema, { ...raw, predictions: file }, ["predictions"]);
  const { createSubmission, SubmissionError } = await import("@/lib/submissions/data");
  let created;
  try {
    created = await createSubmission({
      systemName: flags.system,
      teamName: flags.team,
      datasetVersion: flags.datasetVersion,
      mode: flags.mode,
      predictions: flags.predictions,
      chainIds: flags.chains,
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
    .description("evaluate queued submissions until SIGINT/SIGTERM: from the database (DATABASE_URL), or with --redis from a distributed deployment's Redis")
    .option("--redis <url>", "take chains from this Redis (distributed mode; default REDIS_URL when CHAINSWE_QUEUE=bullmq); no database needed")
    .option("--lock-seconds <s>", "distributed mode: a chain's lock; a dead worker's chain is taken over after it (default CHAINSWE_BULLMQ_LOCK_S)")
    .option("--concurrency <n>", "chains replayed at once", "2")
    .option("--lease-seconds <s>", "a claimed chain's lease; a dead worker's chain is retried after it", "60")
    .option("--poll-seconds <s>", "how often an idle slot looks for work", "1")
    .option("--max-attempts <n>", "claims per chain before a retryable failure is final", "5")
    .option("--timeout <seconds>", "wall-clock limit per test command")
    .option("--worker-id <id>", "lease owner name (default host:pid)")
    .option("--until-idle", "exit once no chain is queued or running (a batch run)")
    .action(workerCommand);
  program
    .command("dispatcher")
    .description("distributed mode: put queued chains on Redis for `chainswe worker --redis` and store their reports (the site does this itself when CHAINSWE_QUEUE=bullmq)")
    .option("--redis <url>", "the Redis the workers read (default REDIS_URL)")
    .option("--lease-seconds <s>", "database lease of a chain on Redis, renewed while Redis holds it", "60")
    .option("--poll-seconds <s>", "how often to renew leases and look for queued chains", "1")
    .option("--max-attempts <n>", "claims per chain before a retryable failure is final", "5")
    .option("--max-in-flight <n>", "chains on Redis at once (default CHAINSWE_DISPATCH_MAX)")
    .action(dispatcherCommand);
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
