/**
 * The HTTP edge of the API routes: one mapping from the project's errors to
 * status codes and JSON bodies, and the same-origin check that stands in for a
 * CSRF token on cookie-authenticated state-changing requests. Route handlers
 * stay thin: parse, call the data layer, answer with `json` or `errorResponse`.
 */
import { DatasetError, FieldError, ForbiddenError, InputError, LimitError, NotFoundError, UnauthorizedError, formatIssue } from "@/lib/errors";

export type ErrorBody = {
  error: string;
  /** InputError: every problem by line and field */
  issues?: { line: number; id?: string; field: string; message: string; text: string }[];
  /** FieldError / LimitError: the form or API field at fault */
  field?: string;
};

export function json(body: unknown, init: ResponseInit = {}): Response {
  return Response.json(body, { ...init, headers: { "cache-control": "no-store", ...init.headers } });
}

/** The response for anything a handler threw; unexpected errors are logged and answered 500 without details. */
export function errorResponse(e: unknown): Response {
  if (e instanceof InputError) {
    const body: ErrorBody = { error: e.message.split("\n")[0] ?? "invalid input", issues: e.issues.map((i) => ({ ...i, text: formatIssue(i) })) };
    return json(body, { status: 422 });
  }
  if (e instanceof FieldError) return json({ error: e.message, field: e.field } satisfies ErrorBody, { status: 400 });
  if (e instanceof LimitError) return json({ error: e.message, field: e.field } satisfies ErrorBody, { status: e.status });
  if (e instanceof UnauthorizedError) {
    return json({ error: e.message } satisfies ErrorBody, { status: 401, headers: { "www-authenticate": 'Bearer realm="chainswe"' } });
  }
  if (e instanceof ForbiddenError) return json({ error: e.message } satisfies ErrorBody, { status: 403 });
  if (e instanceof NotFoundError) return json({ error: e.message } satisfies ErrorBody, { status: 404 });
  if (e instanceof DatasetError) return json({ error: e.message } satisfies ErrorBody, { status: 409 });
  console.error(e);
  return json({ error: "internal error" } satisfies ErrorBody, { status: 500 });
}

/**
 * Refuses a cookie-authenticated state-changing request from another site
 * (CSRF): the browser's Origin (or, failing that, Referer) must be this
 * site's. Requests with a bearer token carry no ambient credentials and pass.
 */
export function assertSameOrigin(req: Request): void {
  if (req.headers.get("authorization")) return;
  const origin = req.headers.get("origin") ?? refererOrigin(req.headers.get("referer"));
  const host = req.headers.get("x-forwarded-host") ?? req.headers.get("host");
  if (!origin || !host) throw new ForbiddenError("cross-site request refused (no Origin header)");
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    throw new ForbiddenError("cross-site request refused (bad Origin header)");
  }
  if (originHost !== host) throw new ForbiddenError(`cross-site request refused (Origin ${origin})`);
}

function refererOrigin(referer: string | null): string | null {
  if (!referer) return null;
  try {
    return new URL(referer).origin;
  } catch {
    return null;
  }
}
