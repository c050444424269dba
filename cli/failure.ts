/** How a failed command is told: one line for what the user can fix, the stack for the rest. */
import { EnvironmentError, InputError, coerceError } from "@/core/errors";
import { databaseUnreachable } from "./network";
import { UsageError } from "./options";

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
