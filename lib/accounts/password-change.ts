/**
 * A signed-in user changes their password. The current one must be given,
 * checked under the sign-in limits (lib/auth/login-attempts.ts), so a borrowed
 * session guesses it no faster than the sign-in form; the new one passes the
 * sign-up policy (lib/auth/password-policy.ts); and every other session of
 * the user ends, so whoever knew the old password, or holds a copied cookie,
 * is signed out. API tokens are kept: each is listed on the same page and
 * revoked on its own (a CI job's token is not the password's to end).
 */
import { z } from "zod";
import { hashPassword } from "@/lib/auth/password";
import { passwordProblem } from "@/lib/auth/password-policy";
import { limitedSignIn } from "@/lib/auth/login-attempts";
import { type RateStore } from "@/lib/accounts/rate-events";
import { db } from "@/db/client";
import { closeOtherSessions } from "./sessions";
import { FieldError, LimitError } from "@/core/errors";
import { authenticate, passwordSchema, type Viewer } from "./users";

export const passwordChangeSchema = z.object({ current: z.string().min(1, "required").max(200), password: passwordSchema });

/** Sets the new password and ends the user's other sessions (all but `who.sessionToken`); answers how many ended. */
export async function changePassword(store: RateStore, viewer: Viewer, input: unknown, who: { sessionToken: string | null; address: string | null }): Promise<{ endedSessions: number }> {
  const { current, password } = passwordChangeSchema.parse(input);
  const username = viewer.username;
  if (!username) throw new FieldError("current", "this account signs in with GitHub and has no password here");
  const problem = passwordProblem(password, username);
  if (problem) throw new FieldError("password", problem);
  if (password === current) throw new FieldError("password", "is the current password; choose a new one");
  const signIn = await limitedSignIn(store, { username, address: who.address }, () => authenticate(username, current));
  if (signIn.outcome === "locked") throw new LimitError(signIn.message, 429, "current");
  if (signIn.outcome === "wrong" || signIn.userId !== viewer.id) throw new FieldError("current", "is not your current password");
  const passwordHash = await hashPassword(password);
  const [, ended] = await db.$transaction([
    db.user.update({ where: { id: viewer.id }, data: { passwordHash } }),
    closeOtherSessions(viewer.id, who.sessionToken),
  ]);
  return { endedSessions: ended.count };
}
