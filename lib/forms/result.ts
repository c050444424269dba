/**
 * What every server action returns: one ActionResult union, the mapping from
 * the data layer's errors to it, and the helpers forms use to show it (which
 * field is wrong, what was typed). Plain data, no React: actions, pages and
 * client forms (components/ui/form.tsx) share it.
 */
import { ZodError } from "zod";
import { FieldError, ForbiddenError, LimitError, NotFoundError, UnauthorizedError } from "@/core/errors";

export type ActionResult<T = null> =
  | { status: "idle" }
  | { status: "ok"; data: T; message?: string }
  /** `fields`: message per form field; `values`: what was typed (never a password), to show again */
  | { status: "error"; message: string | null; fields: Record<string, string>; values: Record<string, string> };

/**
 * A server action as a form takes it (useActionState): the page imports the
 * action from app/ and hands it to its form in components/, which never imports app/.
 */
export type FormAction<T = null> = (prev: ActionResult<T>, form: FormData) => Promise<ActionResult<T>>;

export const IDLE = { status: "idle" } as const satisfies ActionResult<never>;

export const ok = <T>(data: T, message?: string): ActionResult<T> => ({ status: "ok", data, message });

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
