"use client";
/**
 * The submission page's buttons, each a small form posting to a server action
 * (app/submissions/[id]/actions.ts). Which ones show is decided on the server
 * (lib/submissions/visibility.ts availableActions); the server checks again on submit.
 * Works without JavaScript as plain form posts; with it, refusals show beside the form.
 */
import { useActionState } from "react";
import { cancelAction, deleteAction, rerunAction, trajectoriesAction, visibilityAction } from "@/app/submissions/[id]/actions";
import { IDLE, type ActionResult } from "@/lib/forms/result";
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

function VisibilityButton({ id, action, label, secondary }: { id: string; action: string; label: string; secondary?: boolean }) {
  const [result, submit, pending] = useActionState<ActionResult, FormData>(visibilityAction.bind(null, id), IDLE);
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
export function TrajectoriesChoice({ id, shown }: { id: string; shown: boolean }) {
  const [result, submit, pending] = useActionState<ActionResult, FormData>(trajectoriesAction.bind(null, id), IDLE);
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

function RejectForm({ id }: { id: string }) {
  const [result, submit, pending] = useActionState<ActionResult, FormData>(visibilityAction.bind(null, id), IDLE);
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

function PlainButton({ label, act }: { label: string; act: (prev: ActionResult, form: FormData) => Promise<ActionResult> }) {
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

export function SubmissionActions({ id, allowed }: { id: string; allowed: Allowed }) {
  const team = allowed.cancel || allowed.request_publication || allowed.withdraw || allowed.delete;
  const review = allowed.approve || allowed.reject || allowed.rerun;
  if (!team && !review) return null;
  return (
    <section aria-labelledby="actions-heading" className="submission-actions">
      <h2 id="actions-heading">Actions</h2>
      {team && (
        <div className="action-row">
          {allowed.cancel && <PlainButton label="Cancel evaluation" act={cancelAction.bind(null, id)} />}
          {allowed.request_publication && <VisibilityButton id={id} action="request_publication" label="Request publication" />}
          {allowed.withdraw && <VisibilityButton id={id} action="withdraw" label="Withdraw" secondary />}
          {allowed.delete && <PlainButton label="Delete submission" act={deleteAction.bind(null, id)} />}
        </div>
      )}
      {review && (
        <div className="action-row">
          {allowed.approve && <VisibilityButton id={id} action="approve" label="Approve" />}
          {allowed.rerun && <PlainButton label="Re-run" act={rerunAction.bind(null, id)} />}
        </div>
      )}
      {allowed.reject && <RejectForm id={id} />}
    </section>
  );
}
