"use client";
import { signIn } from "next-auth/react";
import { useActionState } from "react";
import { IDLE, type ActionResult, type FormAction } from "@/lib/forms/result";
import { FormMessage, TextField } from "@/components/ui/form";

/** Sign-up, then sign-in with the same credentials, then the teams page: one step for the user. */
export function AccountSignUpForm({ signUp }: { signUp: FormAction }) {
  const [result, action, pending] = useActionState(async (prev: ActionResult, form: FormData): Promise<ActionResult> => {
    const created = await signUp(prev, form);
    if (created.status !== "ok") return created;
    const signedIn = await signIn("credentials", { username: form.get("username"), password: form.get("password"), redirect: false });
    // a full load, so the header shows the signed-in user
    window.location.assign(signedIn?.ok ? "/teams" : "/signin?created=1&callbackUrl=/teams");
    return created;
  }, IDLE);
  return (
    <form className="stack" action={action}>
      <FormMessage result={result} fields={["username", "password", "name"]} />
      <TextField id="signup-username" label="Username" name="username" result={result} required autoComplete="username" hint="3 to 32 letters, digits, - or _" />
      <TextField id="signup-password" label="Password" name="password" type="password" result={result} required autoComplete="new-password" hint="at least 10 characters" />
      <TextField id="signup-name" label="Display name (optional)" name="name" result={result} autoComplete="name" />
      <div>
        <button type="submit" disabled={pending || result.status === "ok"}>
          {pending ? "Creating account…" : "Create account"}
        </button>
      </div>
    </form>
  );
}
