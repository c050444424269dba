/**
 * The HTTP edge of the API routes: one mapping from the project's errors to
 * status codes and JSON bodies, and the same-origin check that stands in for a
 * CSRF token on cookie-authenticated state-changing requests. Route handlers
 * stay thin: parse, call the data layer, answer with `json` or `errorResponse`.
 */
import { env } from "@/env";
import { DatasetError, FieldError, ForbiddenError, InputError, LimitError, NotFoundError, UnauthorizedError, formatIssue } from "@/core/errors";

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
 * Why a state-changing request is refused as cross-site (CSRF), or null: the
 * browser's Origin (or, failing that, Referer) must be this site's. No header
 * switches it off: a route that authenticates a request by its bearer token
 * alone, never reading the cookie, skips the call (lib/auth/viewer.ts
 * getActingViewer). Pure, for route handlers (assertSameOrigin) and for the
 * site's server (server.ts), which applies it to every server action and page POST.
 */
export function crossSiteProblem(headers: Headers, site: SiteOrigin = {}): string | null {
  const origin = headers.get("origin") ?? refererOrigin(headers.get("referer"));
  if (!origin) return "cross-site request refused (no Origin header)";
  const expected = expectedOrigin(headers, site);
  if (!expected) return "cross-site request refused (no Host header)";
  let sent: string;
  try {
    sent = new URL(origin).origin;
  } catch {
    return "cross-site request refused (bad Origin header)";
  }
  if (sent === "null") return "cross-site request refused (bad Origin header)";
  // the full origin: scheme, host and port (an https:// origin must not pass where the site is http://)
  return sent === expected ? null : `cross-site request refused (Origin ${origin})`;
}

/** How the site knows its own origin: the configured public URL, else the Host header (forwarded ones only behind a trusted proxy). */
export type SiteOrigin = { origin?: string; trustProxy?: boolean };

function expectedOrigin(headers: Headers, site: SiteOrigin): string | null {
  if (site.origin) return new URL(site.origin).origin;
  const forwarded = (name: string) => (site.trustProxy ? headers.get(name)?.split(",")[0]?.trim() || null : null);
  const host = forwarded("x-forwarded-host") ?? headers.get("host");
  if (!host) return null;
  const proto = forwarded("x-forwarded-proto") ?? "http";
  try {
    return new URL(`${proto}://${host}`).origin;
  } catch {
    return null;
  }
}

/** The site's own origin settings from the environment (NEXTAUTH_URL, CHAINSWE_TRUST_PROXY). */
export function siteOriginFromEnv(): SiteOrigin {
  const e = env();
  return { origin: e.NEXTAUTH_URL, trustProxy: e.CHAINSWE_TRUST_PROXY };
}

/** Throws ForbiddenError (403) for a cookie-authenticated state-changing request from another site (crossSiteProblem). */
export function assertSameOrigin(req: Request): void {
  const problem = crossSiteProblem(req.headers, siteOriginFromEnv());
  if (problem) throw new ForbiddenError(problem);
}

function refererOrigin(referer: string | null): string | null {
  if (!referer) return null;
  try {
    return new URL(referer).origin;
  } catch {
    return null;
  }
}

/**
 * A small request body read whole: over `maxBytes` (declared or as it
 * streams) it is refused with LimitError 413 naming `field`, without reading
 * the rest.
 */
export async function readBodyCapped(req: Request, maxBytes: number, field = "body"): Promise<Uint8Array> {
  const tooLarge = () => new LimitError(`${field}: larger than the ${formatLimit(maxBytes)} limit`, 413, field);
  if (Number(req.headers.get("content-length") ?? 0) > maxBytes) throw tooLarge();
  if (!req.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = req.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    body.set(c, at);
    at += c.byteLength;
  }
  return body;
}

/**
 * A JSON request body: over `maxBytes` is LimitError 413, empty or malformed
 * is FieldError("body") quoting the parser and an `example` of what to send.
 */
export async function readJsonBody(req: Request, opts: { maxBytes: number; example: string }): Promise<unknown> {
  const text = new TextDecoder().decode(await readBodyCapped(req, opts.maxBytes));
  if (!text.trim()) throw new FieldError("body", `empty; send JSON such as ${opts.example}`);
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new FieldError("body", `malformed JSON (${(e as Error).message}); send JSON such as ${opts.example}`);
  }
}

const formatLimit = (bytes: number) => (bytes >= 1024 * 1024 ? `${+(bytes / (1024 * 1024)).toFixed(1)} MB` : `${Math.round(bytes / 1024)} KB`);
