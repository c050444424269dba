"use client";
import { useActionState } from "react";
import { IDLE, type FormAction } from "@/lib/forms/result";
import { FormMessage, TextField } from "@/components/ui/form";

/** The create-team form; on success the action redirects to the new team's page. */
export function TeamCreateForm({ create }: { create: FormAction }) {
  const [result, action, pending] = useActionState(create, IDLE);
  return (
    <form className="stack" action={action}>
      <FormMessage result={result} fields={["name"]} />
      <TextField id="team-name" label="Team name" name="name" result={result} required maxLength={60} hint="shown on the leaderboard; you become the team's admin" />
      <div>
        <button type="submit" disabled={pending}>
          {pending ? "Creating…" : "Create team"}
        </button>
      </div>
    </form>
  );
}
