/**
 * The servers the commands talk to, named in their failures: the portal's HTTP API
 * (`submit`), Redis (`worker --redis`, `dispatcher`) and the database (every portal
 * command). A connection that fails is an UnreachableError: one line with the address
 * and the cause, exit 1, no stack.
 */
import { UnreachableError, redactUrl } from "@/core/errors";
import { env } from "@/env";

/** DATABASE_URL fit to print (its password hidden), or the setting's name when the environment does not parse. */
export function databaseAddress(): string {
  try {
    return redactUrl(env().DATABASE_URL);
  } catch {
    return "DATABASE_URL";
  }
}

/** `fetch`, whose failure to connect names the URL and the cause instead of "fetch failed". */
export async function fetchFrom(what: string, fetcher: typeof fetch, url: string, init?: RequestInit): Promise<Response> {
  try {
    return await fetcher(url, init);
  } catch (e) {
    throw new UnreachableError(what, redactUrl(url), e);
  }
}

/**
 * Redis answers a PING, or an UnreachableError naming it: a worker or dispatcher
 * started against a Redis that is not there says so at once, instead of retrying
 * (and logging each retry) forever. Once running, they ride out Redis going away.
 */
export async function assertRedis(url: string): Promise<void> {
  const { Redis } = await import("ioredis");
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false, retryStrategy: () => null, connectTimeout: 10_000 });
  // connect() rejects with "Connection is closed."; the socket's own error is the cause
  let cause: unknown;
  redis.on("error", (e) => (cause ??= e));
  try {
    await redis.connect();
    await redis.ping();
  } catch (e) {
    throw new UnreachableError("Redis", redactUrl(url), cause ?? e);
  } finally {
    redis.disconnect();
  }
}

/** Prisma's codes for a database server that did not answer (can't reach, timed out, closed the connection). */
const DATABASE_UNREACHABLE = new Set(["P1001", "P1002", "P1017"]);
/** The same, as the driver adapter tells it under a raw query's P2010. */
const ADAPTER_UNREACHABLE = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout"]);

type PrismaFailure = Error & { code?: unknown; meta?: { driverAdapterError?: { cause?: { kind?: string; host?: string; port?: number } } } };

/**
 * The database's connection failed (a PostgreSQL server away): said as the database at
 * DATABASE_URL (its password hidden) and the cause, in one line. Prisma's message opens
 * with where in the code it was called; its last line is the cause.
 */
export function databaseUnreachable(e: unknown): UnreachableError | null {
  if (!(e instanceof Error) || !e.name.startsWith("PrismaClient")) return null;
  const err = e as PrismaFailure;
  const adapter = err.meta?.driverAdapterError?.cause;
  if (typeof err.code === "string" && DATABASE_UNREACHABLE.has(err.code)) {
    return new UnreachableError("the database", databaseAddress(), new Error(err.message.trim().split("\n").at(-1)));
  }
  if (adapter?.kind && ADAPTER_UNREACHABLE.has(adapter.kind)) {
    const server = adapter.host ? ` ${adapter.host}${adapter.port ? `:${adapter.port}` : ""}` : "";
    return new UnreachableError("the database", databaseAddress(), new Error(`${adapter.kind}${server}`));
  }
  return null;
}

/**
 * The database answers, or an UnreachableError naming it: the worker and the dispatcher
 * check it once as they start (their loops ride out a database that goes away later).
 */
export async function assertDatabase(): Promise<void> {
  const { db } = await import("@/db/client");
  try {
    await db.$queryRaw`SELECT 1`;
  } catch (e) {
    throw databaseUnreachable(e) ?? e;
  }
}
