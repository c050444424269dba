/** Error classes shared by the evaluator, the CLI and (later) the portal. */

/** One problem in an input file, named by record/line and field. */
export type InputIssue = {
  /** 1-based line (JSONL) or record index (JSON array) */
  line: number;
  /** chain or bug id when known, to help find the record */
  id?: string;
  /** dotted path of the offending field, "" for the whole record */
  field: string;
  message: string;
};

export function formatIssue(issue: InputIssue): string {
  const where = `line ${issue.line}${issue.id ? ` (${issue.id})` : ""}`;
  return issue.field ? `${where}, field ${issue.field}: ${issue.message}` : `${where}: ${issue.message}`;
}

/** Bad input: nothing was imported or evaluated. Lists every issue found. */
export class InputError extends Error {
  constructor(
    readonly source: string,
    readonly issues: InputIssue[],
  ) {
    const shown = issues.slice(0, 20).map((i) => `  ${formatIssue(i)}`);
    const more = issues.length > 20 ? [`  … and ${issues.length - 20} more`] : [];
    super([`${source}: ${issues.length} problem(s)`, ...shown, ...more].join("\n"));
    this.name = "InputError";
  }
}

/** A bad form or API field (not a line of a file): shown beside the field; nothing was changed. */
export class FieldError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
    this.name = "FieldError";
  }
}

/**
 * The thing asked for does not exist, or the viewer may not read it: the two
 * are answered alike (404) so ids cannot be probed (lib/authz.ts).
 */
export class NotFoundError extends Error {
  constructor(what: string) {
    super(`${what} not found`);
    this.name = "NotFoundError";
  }
}

/** The viewer can see the thing but may not do this to it (403). */
export class ForbiddenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ForbiddenError";
  }
}

/** Not signed in, or the API token is missing, revoked or lacks the scope (401). */
export class UnauthorizedError extends Error {
  constructor(message = "sign in or send Authorization: Bearer <token> with the needed scope") {
    super(message);
    this.name = "UnauthorizedError";
  }
}

/** A limit the request went over (size, daily quota): 413 or 429, named by `status`. */
export class LimitError extends Error {
  constructor(
    message: string,
    readonly status: 413 | 429,
    readonly field?: string,
  ) {
    super(message);
    this.name = "LimitError";
  }
}

/** The dataset itself is wrong (e.g. a test patch that does not apply). Not a grade. */
export class DatasetError extends Error {
  constructor(
    message: string,
    readonly continuousId: string,
    readonly order?: number,
  ) {
    super(message);
    this.name = "DatasetError";
  }
}

/** The machine failed (engine down, image missing, exec broke). Not a grade; retried. */
export class EnvironmentError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "EnvironmentError";
  }
}

/** Error codes of a server that did not answer: refused, unknown host, unreachable, timed out, cut off. */
const NETWORK_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ENOTFOUND", "EAI_AGAIN", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "EPIPE", "UND_ERR_CONNECT_TIMEOUT", "UND_ERR_SOCKET"]);

/**
 * Why a connection failed, in one phrase: fetch's "fetch failed" hides the reason
 * in its cause, and a name that resolves to several addresses fails with an
 * AggregateError whose own message is empty.
 */
export function networkCause(e: unknown): string {
  const err = coerceError(e);
  const inner = (err as Error & { cause?: unknown }).cause;
  if (err.message === "fetch failed" && inner !== undefined) return networkCause(inner);
  if (err instanceof AggregateError && err.errors.length) return networkCause(err.errors[0]);
  const code = (err as NodeJS.ErrnoException).code;
  return err.message || code || err.name;
}

/** Whether `e` (or the error it wraps) is a connection that failed, as opposed to an answer. */
export function isNetworkError(e: unknown): boolean {
  for (let err: unknown = e, depth = 0; err instanceof Error && depth < 4; err = (err as Error & { cause?: unknown }).cause, depth++) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== undefined && NETWORK_CODES.has(code)) return true;
    if (err instanceof AggregateError && err.errors.some(isNetworkError)) return true;
  }
  return false;
}

/** A server the command talks to (a portal, Redis, the database) did not answer: named with its address and the cause. */
export class UnreachableError extends EnvironmentError {
  constructor(what: string, address: string, cause: unknown) {
    super(`cannot reach ${what} at ${address}: ${networkCause(cause)}`, { cause });
    this.name = "UnreachableError";
  }
}

/** A URL fit to print: its password (and a token in the query) replaced by `***`. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    for (const key of [...u.searchParams.keys()]) if (/pass|token|secret|key/i.test(key)) u.searchParams.set(key, "***");
    return u.toString();
  } catch {
    return url.replace(/\/\/([^:/@]+):[^@/]*@/, "//$1:***@");
  }
}

/** Normalize anything thrown into an Error (after graphile-worker's coerceError). */
export function coerceError(err: unknown): Error {
  if (err instanceof Error) return err;
  return new Error(typeof err === "string" ? err : JSON.stringify(err));
}
