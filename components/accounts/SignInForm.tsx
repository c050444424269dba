"use client";
import { signIn } from "next-auth/react";
import { useState, type FormEvent } from "react";
import { LOCKED_PREFIX } from "@/lib/auth/login-limit";
import { Field, describedBy } from "@/components/ui/form";

/** Username + password through next-auth's credentials provider; GitHub when the site has it configured. */
export function SignInForm({ callbackUrl, github }: { callbackUrl: string; github: boolean }) {
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending(true);
    setError(null);
    try {
      const res = await signIn("credentials", { username: form.get("username"), password: form.get("password"), redirect: false });
      if (res?.ok && !res.error) {
        // a full load, so the header and every server component see the new session
        window.location.assign(callbackUrl);
        return;
      }
      // a lockout (too many failures) is shown as the server words it: it says for how long
      if (res?.error?.startsWith(LOCKED_PREFIX)) setError(res.error);
      else setError(res?.error === "CredentialsSignin" || res?.status === 401 ? "wrong username or password" : "sign-in failed; try again");
    } catch {
      setError("sign-in failed; try again");
    }
    setPending(false);
  }

  return (
    <>
      <form className="stack" onSubmit={submit}>
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        <Field id="signin-username" label="Username">
          <input id="signin-username" name="username" required autoComplete="username" aria-describedby={describedBy("signin-username")} />
        </Field>
        <Field id="signin-password" label="Password">
          <input id="signin-password" name="password" type="password" required autoComplete="current-password" aria-describedby={describedBy("signin-password")} />
        </Field>
        <div>
          <button type="submit" disabled={pending}>
            {pending ? "Signing in…" : "Sign in"}
          </button>
        </div>
      </form>
      {github && (
        <p>
          <button type="button" className="secondary" onClick={() => void signIn("github", { callbackUrl })}>
            Sign in with GitHub
          </button>
        </p>
      )}
    </>
  );
}
