/**
 * What the account, team and admin forms share: one ActionResult union that
 * every server action returns (STYLE §2 "validated actions"), the mapping from
 * the data layer's errors to it, and the field markup that shows an error
 * beside its field. No hooks here, so server and client components both use it.
 */
import type { ReactNode } from "react";
import { ZodError } from "zod";
import { FieldError, ForbiddenError, LimitError, NotFoundError, UnauthorizedError } from "@/lib/errors";

export type ActionResult<T = null> =
  | { status: "idle" }
  | { status: "ok"; data: T; message?: string }
  /** `fields`: message per form field; `values`: what was typed (never a password), to show again */
  | { status: "error"; message: string | null; fields: Record<string, string>; values: Record<string, string> };

export const IDLE = { status: "idle" } as const satisfies ActionResult<never>;

export const ok = <T,>(data: T, message?: string): ActionResult<T> => ({ status: "ok", data, message });

/**
 * The result for an error the user can act on: a bad field, or a thing they may
 * not do. Anything else (a bug, the database down, Next's redirect) is rethrown.
 */
export function failure(e: unknown, values: Record<string, string> = {}): ActionResult<never> {
  if (e instanceof FieldError) return { status: "error", message: null, fields: { [e.field]: e.message.slice(e.field.length + 2) }, values };
  if (e instanceof ZodError) {
    const fields: Record<string, string> = {};
    for (const issue of e.issues) {
      const [field, index, ...rest] = issue.path.map(String);
      const key = field ?? "form";
      // "links" item 2's url → "line 3, url: Invalid URL" (array fields are one item per line)
      const where = index !== undefined && /^\d+$/.test(index) ? `line ${Number(index) + 1}${rest.length ? `, ${rest.join(".")}` : ""}: ` : "";
      fields[key] ??= where + issue.message;
    }
    return { status: "error", message: null, fields, values };
  }
  if (e instanceof ForbiddenError || e instanceof NotFoundError || e instanceof UnauthorizedError || e instanceof LimitError) {
    return { status: "error", message: e.message, fields: {}, values };
  }
  throw e;
}

/** The text fields of a submitted form, to refill it after an error (passwords excluded by the caller). */
export function formValues(form: FormData, names: string[]): Record<string, string> {
  return Object.fromEntries(names.map((n) => [n, typeof form.get(n) === "string" ? (form.get(n) as string) : ""]));
}

export const fieldError = (r: ActionResult<unknown>, name: string): string | undefined => (r.status === "error" ? r.fields[name] : undefined);
export const typed = (r: ActionResult<unknown>, name: string): string | undefined => (r.status === "error" ? r.values[name] : undefined);

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
  type?: "text" | "password" | "email" | "url";
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
