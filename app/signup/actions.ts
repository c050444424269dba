"use server";
import { failure, formValues, ok, type ActionResult } from "@/components/AccountForm";
import { createUser, signUpSchema } from "@/lib/data/users";

/** Creates the account; the form then signs in with the same credentials (next-auth signs in from the browser). */
export async function signUpAction(_prev: ActionResult, form: FormData): Promise<ActionResult> {
  const values = formValues(form, ["username", "name", "email"]);
  const optional = (v: string | undefined) => (v?.trim() ? v : undefined);
  try {
    const input = signUpSchema.parse({
      username: values.username,
      password: form.get("password") ?? "",
      name: optional(values.name),
      email: optional(values.email),
    });
    await createUser(input);
    return ok(null);
  } catch (e) {
    return failure(e, values);
  }
}
