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

/** Normalize anything thrown into an Error (after graphile-worker's coerceError). */
export function coerceError(err: unknown): Error {
  if (err instanceof Error) return err;
  return new Error(typeof err === "string" ? err : JSON.stringify(err));
}
