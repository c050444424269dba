"use client";
/**
 * A reviewer's accept or reject of one proposed chain, with the reason it
 * needs (app/dataset/proposals/[id]/actions.ts, bound to the chain by the page).
 * The server checks the rules again: a plain form post without JavaScript.
 */
import { useActionState, useId } from "react";
import { IDLE, type ActionResult, type FormAction } from "@/lib/forms/result";

/** `acceptable`: the chain is valid; a refused one, or one still validating, can only be rejected (the server refuses an accept). */
export function ProposalReviewForm({ decide, chain, acceptable }: { decide: FormAction; chain: string; acceptable: boolean }) {
  const [result, submit, pending] = useActionState<ActionResult, FormData>(decide, IDLE);
  const id = useId();
  const fieldError = (f: string) => (result.status === "error" ? result.fields[f] : undefined);
  return (
    <form action={submit} className="stack" aria-label={`Review ${chain}`}>
      <div className="field">
        <label htmlFor={`${id}-reason`}>Reason for {chain}</label>
        <textarea id={`${id}-reason`} name="reason" rows={2} aria-invalid={!!fieldError("reason") || undefined} aria-describedby={`${id}-reason-error`} />
        <span id={`${id}-reason-error`} className="error">
          {fieldError("reason")}
        </span>
      </div>
      <div>
        {acceptable && (
          <>
            <button type="submit" name="decision" value="accept" disabled={pending}>
              Accept
            </button>{" "}
          </>
        )}
        <button type="submit" name="decision" value="reject" className="secondary" disabled={pending}>
          Reject
        </button>{" "}
        {!acceptable && <span className="muted">Only a valid chain can be accepted. </span>}
        {result.status === "ok" && (
          <span role="status" className="muted">
            {result.message}
          </span>
        )}
        {result.status === "error" && result.message && (
          <span role="alert" className="error">
            {result.message}
          </span>
        )}
      </div>
    </form>
  );
}
