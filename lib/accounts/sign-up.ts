/**
 * Sign-up from the site's form, under its two limits per client address
 * (lib/auth/login-attempts.ts): a "taken" answer is a username probe (it
 * tells whether the name exists and creates nothing), and only an account
 * actually created uses one of the hour's sign-ups. A form that does not
 * parse uses neither.
 */
import { type RateStore } from "@/lib/accounts/rate-events";
import { countUsernameProbe, signUpAllowed } from "@/lib/auth/login-attempts";
import { db } from "@/db/client";
import { LimitError } from "@/core/errors";
import { createUser, signUpSchema, usernameTaken } from "./users";

export type SignUpLimits = { signUpsPerHour: number; probesPerHour: number };

export async function signUpFromSite(
  store: RateStore,
  /** the form's fields, checked here (signUpSchema) */
  input: unknown,
  who: { address: string | null },
  limits: SignUpLimits,
  now = Date.now(),
): Promise<{ id: string }> {
  const data = signUpSchema.parse(input);
  const probe = await countUsernameProbe(store, who.address, limits.probesPerHour, now);
  if (await db.user.findUnique({ where: { username: data.username }, select: { id: true } })) throw usernameTaken(data.username);
  await probe.takeBack();
  const slot = await signUpAllowed(store, who.address, limits.signUpsPerHour, now);
  if (!slot.allowed) throw new LimitError(slot.message, 429);
  return createUser(data);
}
