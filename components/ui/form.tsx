/**
 * The form kit: the field markup that shows an error beside its field, and
 * the message not tied to a field, for an ActionResult (lib/forms/result.ts).
 * No hooks here, so server and client components both use it.
 */
import type { ReactNode } from "react";
import { fieldError, typed, type ActionResult } from "@/lib/forms/result";

/** The message not tied to a field (and any field error the form has no control for). */
export function FormMessage({ result, fields = [] }: { result: ActionResult<unknown>; fields?: string[] }) {
  if (result.status === "ok" && result.message) return <p role="status">{result.message}</p>;
  if (result.status !== "error") return null;
  const orphans = Object.entries(result.fields).filter(([f]) => !fields.includes(f));
  if (!result.message && orphans.length === 0) return null;
  return (
    <div className="errors" role="alert">
      {result.message && <p className="error">{result.message}</p>}
      {orphans.map(([f, m]) => (
        <p key={f} className="error">
          {f}: {m}
        </p>
      ))}
    </div>
  );
}

/**
 * A labelled control with its hint and error beside it. The control (children)
 * must carry `id` and `aria-describedby={describedBy(id, !!hint)}`; the label text stays
 * the accessible name, the error is its description.
 */
export function Field({ id, label, error, hint, children }: { id: string; label: string; error?: string; hint?: ReactNode; children: ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children}
      {hint && (
        <small className="muted" id={`${id}-hint`}>
          {hint}
        </small>
      )}
      <span className="error" id={`${id}-error`} aria-live="polite">
        {error}
      </span>
    </div>
  );
}

export const describedBy = (id: string, hint = false) => (hint ? `${id}-hint ${id}-error` : `${id}-error`);

type TextFieldProps = {
  id: string;
  label: string;
  name: string;
  result: ActionResult<unknown>;
  type?: "text" | "password" | "email" | "url" | "date";
  required?: boolean;
  autoComplete?: string;
  defaultValue?: string;
  hint?: ReactNode;
  list?: string;
  maxLength?: number;
};

/** An <input> in a Field, refilled with what was typed when the form came back with errors. */
export function TextField({ id, label, name, result, type = "text", hint, defaultValue, ...rest }: TextFieldProps) {
  const error = fieldError(result, name);
  return (
    <Field id={id} label={label} error={error} hint={hint}>
      <input
        id={id}
        name={name}
        type={type}
        defaultValue={type === "password" ? undefined : (typed(result, name) ?? defaultValue)}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, !!hint)}
        {...rest}
      />
    </Field>
  );
}

/** A one-line form's error (a button in a table row), shown after its buttons: the message, or the first field's. */
export function InlineError({ result }: { result: ActionResult<unknown> }) {
  const error = result.status === "error" ? (result.message ?? Object.values(result.fields)[0]) : undefined;
  if (!error) return null;
  return (
    <span className="error" role="alert">
      {" "}
      {error}
    </span>
  );
}
