"use client";
import { useActionState } from "react";
import { IDLE, type FormAction } from "@/lib/forms/result";
import { InlineError } from "@/components/ui/form";

const LABELS = { reviewer: "reviewer", site_admin: "site admin" } as const;

/** One grant or revoke button for one user's site role, with its error beside it. */
export function AdminRoleButton({ username, role, has, change }: { username: string; role: keyof typeof LABELS; has: boolean; change: FormAction }) {
  const [result, action, pending] = useActionState(change, IDLE);
  const verb = has ? "Revoke" : "Grant";
  return (
    <form action={action} className="inline">
      <input type="hidden" name="username" value={username} />
      <input type="hidden" name="role" value={role} />
      <input type="hidden" name="granted" value={has ? "false" : "true"} />
      <button type="submit" className={has ? "secondary" : undefined} disabled={pending} aria-label={`${verb} ${LABELS[role]} ${has ? "from" : "to"} ${username}`}>
        {verb}
      </button>
      <InlineError result={result} />
    </form>
  );
}
