"use server";
import { formAction } from "@/lib/forms/action";
import { failure, formValues, ok, type ActionResult } from "@/lib/forms/result";
import { env } from "@/env";
import { requestClientAddress } from "@/lib/auth/request-address";
import { rateStore } from "@/lib/accounts/rate-events";
import { signUpFromSite } from "@/lib/accounts/sign-up";

/**
 * Creates the account; the form then signs in with the same credentials
 * (next-auth signs in from the browser). No email is taken here: an address
 * nobody verified would tell a visitor whether it is registered, and would
 * squat the address of a GitHub user who has not signed in yet (next-auth
 * refuses to link an OAuth sign-in to another account with the same email).
 * "Taken" must be said, so it is counted per address (lib/accounts/sign-up.ts).
 */
export const signUpAction = formAction({}, async (_prev: ActionResult, form: FormData): Promise<ActionResult> => {
  const values = formValues(form, ["username", "name"]);
  const optional = (v: string | undefined) => (v?.trim() ? v : undefined);
  try {
    const e = env();
    await signUpFromSite(
      rateStore(),
      { username: values.username, password: form.get("password") ?? "", name: optional(values.name) },
      { address: await requestClientAddress() },
      { signUpsPerHour: e.CHAINSWE_SIGNUPS_PER_HOUR, probesPerHour: e.CHAINSWE_USERNAME_PROBES_PER_HOUR },
    );
    return ok(null);
  } catch (e) {
    return failure(e, values);
  }
});
