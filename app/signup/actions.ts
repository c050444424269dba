"use server";
import { formAction } from "@/lib/form-action";
import { headers } from "next/headers";
import { failure, formValues, ok, type ActionResult } from "@/lib/action-result";
import { env } from "@/env";
import { clientAddress, signUpAllowed } from "@/lib/auth/login-attempts";
import { rateStore } from "@/lib/accounts/rate-events";
import { createUser, signUpSchema } from "@/lib/accounts/users";
import { LimitError } from "@/lib/errors";

/**
 * Creates the account; the form then signs in with the same credentials
 * (next-auth signs in from the browser). No email is taken here: an address
 * nobody verified would tell a visitor whether it is registered, and would
 * squat the address of a GitHub user who has not signed in yet (next-auth
 * refuses to link an OAuth sign-in to another account with the same email).
 * Usernames are public (team pages), so "taken" tells nothing more.
 */
export const signUpAction = formAction({}, async (_prev: ActionResult, form: FormData): Promise<ActionResult> => {
  const values = formValues(form, ["username", "name"]);
  const optional = (v: string | undefined) => (v?.trim() ? v : undefined);
  try {
    const input = signUpSchema.parse({
      username: values.username,
      password: form.get("password") ?? "",
      name: optional(values.name),
    });
    // counted once the form is valid: a typo does not use up the hour's accounts
    const limit = await signUpAllowed(rateStore(), clientAddress(await headers(), env().CHAINSWE_TRUST_PROXY), env().CHAINSWE_SIGNUPS_PER_HOUR);
    if (!limit.allowed) throw new LimitError(limit.message, 429);
    await createUser(input);
    return ok(null);
  } catch (e) {
    return failure(e, values);
  }
});
