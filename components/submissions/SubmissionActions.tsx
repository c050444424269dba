"use client";
/**
 * The submission page's buttons, each a small form posting to a server action
 * (app/submissions/[id]/actions.ts, bound to the submission by the page). Which ones show is decided on the server
 * (lib/submissions/visibility.ts availableActions); the server checks again on submit.
 * Works without JavaScript as plain form posts; with it, refusals show beside the form.
 */
import { useActionState, useId, useState } from "react";
import { IDLE, type ActionResult, type FormAction } from "@/lib/forms/result";
import type { SubmissionActions as Allowed } from "@/lib/submissions/visibility";

/** The action's outcome, unless it is about one field (FieldMessage shows that beside the field). */
function Outcome({ result }: { result: ActionResult }) {
  if (result.status === "ok") {
    return (
      <span role="status" className="muted">
        {result.message}
      </span>
    );
  }
  if (result.status !== "error" || !result.message) return null;
  return (
    <span role="alert" className="error">
      {result.message}
    </span>
  );
}

function FieldMessage({ result, field, id }: { result: ActionResult; field: string; id: string }) {
  const message = result.status === "error" ? result.fields[field] : null;
  return (
    <span id={id} role="alert" className="error">
      {message}
    </span>
  );
}

/** The submission's server actions, each bound to it by the page. */
export type SubmissionActionFns = { visibility: FormAction; cancel: FormAction; delete: FormAction; rerun: FormAction };

function VisibilityButton({ visibility, action, label, secondary }: { visibility: FormAction; action: string; label: string; secondary?: boolean }) {
  const [result, submit, pending] = useActionState<ActionResult, FormData>(visibility, IDLE);
  return (
    <form action={submit} className="inline-action">
      <input type="hidden" name="action" value={action} />
      <button type="submit" className={secondary ? "secondary" : undefined} disabled={pending}>
        {label}
      </button>{" "}
      <Outcome result={result} />
    </form>
  );
}

/** The team shows or hides its trajectories (SPEC §7); `shown`: the choice now. */
export function TrajectoriesChoice({ choose, shown }: { choose: FormAction; shown: boolean }) {
  const [result, submit, pending] = useActionState<ActionResult, FormData>(choose, IDLE);
  return (
    <form action={submit} className="inline-action">
      <input type="hidden" name="shown" value={String(!shown)} />
      <button type="submit" className="secondary" disabled={pending}>
        {shown ? "Keep trajectories private" : "Make trajectories public once published"}
      </button>{" "}
      <Outcome result={result} />
    </form>
  );
}

function RejectForm({ visibility }: { visibility: FormAction }) {
  const [result, submit, pending] = useActionState<ActionResult, FormData>(visibility, IDLE);
  const reasonError = result.status === "error" && "reason" in result.fields;
  return (
    <form action={submit} className="stack">
      <input type="hidden" name="action" value="reject" />
      <label>
        Reason
        <textarea name="reason" rows={3} required aria-invalid={reasonError || undefined} aria-describedby="reject-reason-error" />
        <FieldMessage result={result} field="reason" id="reject-reason-error" />
      </label>
      <div>
        <button type="submit" className="secondary" disabled={pending}>
          Reject
        </button>{" "}
        <Outcome result={result} />
      </div>
    </form>
  );
}

function PlainButton({ label, act }: { label: string; act: FormAction }) {
  const [result, submit, pending] = useActionState<ActionResult, FormData>(act, IDLE);
  return (
    <form action={submit} className="inline-action">
      <button type="submit" className="secondary" disabled={pending}>
        {label}
      </button>{" "}
      <Outcome result={result} />
    </form>
  );
}

/**
 * A button whose action cannot be taken back: the first click only shows what it
 * will do (`warning`) and asks again; the action runs from the second button.
 */
function ConfirmedButton({ label, confirmLabel, warning, act }: { label: string; confirmLabel: string; warning: string; act: FormAction }) {
  const [result, submit, pending] = useActionState<ActionResult, FormData>(act, IDLE);
  const [asking, setAsking] = useState(false);
  const id = useId();
  if (!asking || result.status === "ok") {
    return (
      <span className="inline-action">
        <button type="button" className="secondary" onClick={() => setAsking(true)} disabled={pending || result.status === "ok"}>
          {label}
        </button>{" "}
        <Outcome result={result} />
      </span>
    );
  }
  return (
    <form action={submit} className="confirm-action" role="group" aria-labelledby={`${id}-warning`}>
      <p id={`${id}-warning`}>{warning}</p>
      <button type="submit" disabled={pending}>
        {confirmLabel}
      </button>{" "}
      <button type="button" className="secondary" onClick={() => setAsking(false)} disabled={pending}>
        Cancel
      </button>{" "}
      <Outcome result={result} />
    </form>
  );
}

export function SubmissionActions({ actions, allowed, rerunWarning }: { actions: SubmissionActionFns; allowed: Allowed; rerunWarning: string }) {
  const team = allowed.cancel || allowed.request_publication || allowed.withdraw || allowed.delete;
  const review = allowed.approve || allowed.reject || allowed.rerun;
  if (!team && !review) return null;
  return (
    <section aria-labelledby="actions-heading" className="submission-actions">
      <h2 id="actions-heading">Actions</h2>
      {team && (
        <div className="action-row">
          {allowed.cancel && <PlainButton label="Cancel evaluation" act={actions.cancel} />}
          {allowed.request_publication && <VisibilityButton visibility={actions.visibility} action="request_publication" label="Request publication" />}
          {allowed.withdraw && <VisibilityButton visibility={actions.visibility} action="withdraw" label="Withdraw" secondary />}
          {allowed.delete && <PlainButton label="Delete submission" act={actions.delete} />}
        </div>
      )}
      {review && (
        <div className="action-row">
          {allowed.approve && <VisibilityButton visibility={actions.visibility} action="approve" label="Approve" />}
          {allowed.rerun && <ConfirmedButton label="Re-run…" confirmLabel="Re-run from scratch" warning={rerunWarning} act={actions.rerun} />}
        </div>
      )}
      {allowed.reject && <RejectForm visibility={actions.visibility} />}
    </section>
  );
}
