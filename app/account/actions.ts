"use server";
import { formAction } from "@/lib/forms/action";
import { refresh } from "next/cache";
import { redirect } from "next/navigation";
import { failure, formValues, ok, type ActionResult } from "@/lib/forms/result";
import { currentSessionToken, getViewer } from "@/lib/auth/viewer";
import { requestClientAddress } from "@/lib/auth/request-address";
import { changePassword } from "@/lib/accounts/password-change";
import { rateStore } from "@/lib/accounts/rate-events";
import { createApiToken, newApiTokenSchema, revokeApiToken } from "@/lib/accounts/api-tokens";

/** A new API token for the signed-in user; the result carries the token, shown this once. */
export const createTokenAction = formAction({}, async (_prev: ActionResult<{ name: string; token: string }>, form: FormData): Promise<ActionResult<{ name: string; token: string }>> => {
  const viewer = await getViewer();
  if (!viewer) redirect("/signin?callbackUrl=/account");
  const values = formValues(form, ["name"]);
  try {
    const input = newApiTokenSchema.parse({ name: values.name, scopes: form.getAll("scopes") });
    const { token } = await createApiToken(viewer.id, input);
    refresh();
    return ok({ name: input.name, token });
  } catch (e) {
    return failure(e, values);
  }
});

/** Revokes one of the user's own tokens (another user's id simply matches nothing). */
export const revokeTokenAction = formAction({ state: false }, async (form: FormData): Promise<void> => {
  const viewer = await getViewer();
  if (!viewer) redirect("/signin?callbackUrl=/account");
  const id = form.get("id");
  if (typeof id === "string") await revokeApiToken(viewer.id, id);
  refresh();
});

/** A new password (the current one given); the user's other sessions end, this one stays. */
export const changePasswordAction = formAction({}, async (_prev: ActionResult<{ endedSessions: number }>, form: FormData): Promise<ActionResult<{ endedSessions: number }>> => {
  const viewer = await getViewer();
  if (!viewer) redirect("/signin?callbackUrl=/account");
  try {
    const input = { current: form.get("current") ?? "", password: form.get("password") ?? "" };
    const done = await changePassword(rateStore(), viewer, input, { sessionToken: await currentSessionToken(), address: await requestClientAddress() });
    const others = done.endedSessions === 1 ? "1 other session was" : `${done.endedSessions} other sessions were`;
    return ok(done, `Password changed; ${others} signed out.`);
  } catch (e) {
    return failure(e);
  }
});
