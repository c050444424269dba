"use client";
import { useActionState } from "react";
import { IDLE, type ActionResult, type FormAction } from "@/lib/forms/result";
import { FormMessage, TextField } from "@/components/ui/form";

/** Current password and a new one; on success, says how many other sessions were signed out. */
export function PasswordChangeForm({ change }: { change: FormAction<{ endedSessions: number }> }) {
  const [result, action, pending] = useActionState<ActionResult<{ endedSessions: number }>, FormData>(change, IDLE);
  return (
    <form className="stack" action={action}>
      <FormMessage result={result} fields={["current", "password"]} />
      <TextField id="password-current" label="Current password" name="current" type="password" result={result} required autoComplete="current-password" />
      <TextField
        id="password-new"
        label="New password"
        name="password"
        type="password"
        result={result}
        required
        autoComplete="new-password"
        hint="at least 10 characters, hard to guess; your other sessions will be signed out"
      />
      <div>
        <button type="submit" disabled={pending}>
          {pending ? "Changing…" : "Change password"}
        </button>
      </div>
    </form>
  );
}
