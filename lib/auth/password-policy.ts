/**
 * What a new password may not be, beyond its length (lib/accounts/users.ts
 * passwordSchema): the username, or one of the common passwords every
 * guessing attack tries first. Pure; the list is shipped with the code.
 */
import { COMMON_PASSWORDS } from "./common-passwords";

let common: Set<string> | undefined;

/** Why `password` may not be used by `username`, or null. */
export function passwordProblem(password: string, username: string): string | null {
  const p = password.trim().toLowerCase();
  const u = username.trim().toLowerCase();
  if (u && p.includes(u)) return "must not contain the username";
  common ??= new Set(COMMON_PASSWORDS.split("\n"));
  if (common.has(p)) return "is one of the most common passwords; choose another";
  return null;
}
