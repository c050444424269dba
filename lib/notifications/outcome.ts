/**
 * What one delivery attempt came to, as it is stored and shown. A team sees
 * "delivered" or a short category of failure, never what the receiver said
 * (its headers, a redirect's Location) nor a raw error (which names addresses
 * and ports): with those, the test button would be a scanner of whatever the
 * site can reach. The detail goes to the operator's log only. Pure.
 */
import { z } from "zod";

export const ATTEMPT_FAILURES = [
  "HTTP 4xx",
  "HTTP 5xx",
  "unexpected HTTP status",
  "redirect refused",
  "refused address",
  "unreachable",
  "timed out",
  "mail server refused",
  "webhook removed",
  "e-mail turned off",
  "no recipient",
  "site error",
] as const;
export const attemptFailureSchema = z.enum(ATTEMPT_FAILURES);
export type AttemptFailure = z.infer<typeof attemptFailureSchema>;

/** One attempt. `detail` is for the operator's log and is never stored or shown to the team. */
export type AttemptOutcome = { ok: boolean; httpStatus: number | null; failure: AttemptFailure | null; detail: string | null; durationMs: number };

/** The failure an HTTP status means, or null for a 2xx (redirects are not followed). */
export function httpFailure(status: number): AttemptFailure | null {
  if (status >= 200 && status < 300) return null;
  if (status >= 300 && status < 400) return "redirect refused";
  if (status >= 400 && status < 500) return "HTTP 4xx";
  if (status >= 500 && status < 600) return "HTTP 5xx";
  return "unexpected HTTP status";
}

/**
 * What the team is shown of a stored attempt: "delivered" or its category.
 * A row written before categories were stored holds a raw error: it is shown
 * by its status's category, or as "failed", never as written.
 */
export function attemptAnswer(a: { httpStatus: number | null; error: string | null }): { ok: boolean; answer: string } {
  if (a.error === null) return { ok: true, answer: "delivered" };
  const known = attemptFailureSchema.safeParse(a.error);
  return { ok: false, answer: known.success ? known.data : ((a.httpStatus !== null ? httpFailure(a.httpStatus) : null) ?? "failed") };
}
