"use client";
/**
 * How every view's GET form applies a choice (the leaderboard, per position,
 * chain errors, the submissions list): a plain form that works before any
 * JavaScript ("Apply"), and with JavaScript a change navigates at once to the
 * view's URL. A date is applied once it is whole: while a year is typed digit
 * by digit the field holds 0002, 0020, 0202 on the way to 2026, and those are
 * skipped; later edits of the same field, while it keeps the focus, replace
 * the history entry instead of adding one, so Back returns to the view before.
 */
import { useRouter } from "next/navigation";
import { useRef, type FormEvent, type ReactNode } from "react";

/** A date field's value worth applying: empty (cleared) or a whole date with a four-digit year. */
export function wholeDate(value: string): boolean {
  return value === "" || /^[1-9]\d{3}-\d{2}-\d{2}$/.test(value);
}

/** The form's fields as URL parameters, empty ones left out (a form's "any"). */
export function formParams(form: HTMLFormElement): URLSearchParams {
  const out = new URLSearchParams();
  for (const [k, v] of new FormData(form).entries()) if (typeof v === "string" && v !== "") out.append(k, v);
  return out;
}

/** The form's event handlers: `hrefOf` turns the form into the view's URL. */
export function useApplyOnChange(hrefOf: (form: HTMLFormElement) => string) {
  const router = useRouter();
  // the date field being typed into since the last navigation it caused
  const typing = useRef<string | null>(null);
  const go = (form: HTMLFormElement, how: "push" | "replace") => router[how](hrefOf(form), { scroll: false });
  return {
    onChange(e: FormEvent<HTMLFormElement>) {
      const field = e.target;
      if (field instanceof HTMLInputElement && field.type === "date") {
        if (!wholeDate(field.value)) return;
        const how = typing.current === field.name ? "replace" : "push";
        typing.current = field.name;
        go(e.currentTarget, how);
        return;
      }
      typing.current = null;
      // a text field applies on Enter or when it is left, not on every key
      if (field instanceof HTMLInputElement && (field.type === "text" || field.type === "search")) return;
      go(e.currentTarget, "push");
    },
    onBlur(e: FormEvent<HTMLFormElement>) {
      if (e.target instanceof HTMLInputElement && e.target.name === typing.current) typing.current = null;
    },
    onSubmit(e: FormEvent<HTMLFormElement>) {
      e.preventDefault();
      typing.current = null;
      go(e.currentTarget, "push");
    },
  };
}

/** A view's GET form whose URL is its non-empty fields. */
export function ViewForm({ action, label, className, children }: { action: string; label: string; className?: string; children: ReactNode }) {
  const handlers = useApplyOnChange((form) => {
    const q = formParams(form).toString();
    return q ? `${action}?${q}` : action;
  });
  return (
    <form method="get" action={action} className={className} aria-label={label} {...handlers}>
      {children}
    </form>
  );
}
