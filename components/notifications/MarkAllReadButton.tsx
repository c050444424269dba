"use client";
import { useActionState } from "react";
import { IDLE, type ActionResult } from "@/lib/forms/result";
import { InlineError } from "@/components/ui/form";

export function MarkAllReadButton({ action, unread }: { action: (prev: ActionResult, form: FormData) => Promise<ActionResult>; unread: number }) {
  const [result, formAction, pending] = useActionState(action, IDLE);
  return (
    <form action={formAction}>
      <button type="submit" className="secondary" disabled={pending}>
        Mark all read ({unread})
      </button>
      <InlineError result={result} />
    </form>
  );
}
