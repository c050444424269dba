/**
 * What the site's HTTP server (server.ts) refuses before Next.js sees a
 * request, because Next.js would answer it with a 500: an address whose
 * %-escapes are not UTF-8, and a body posted to a page (a server action or a
 * form) that is too large, not a form, or not the shape this site's actions
 * take. Pure: plain request facts in, a refusal or null out.
 *
 * Every server action of this site is called from a form, so React sends its
 * arguments as multipart form data whose root field ("0") is a JSON array:
 * the bound arguments (strings), the previous state (an object or null, for
 * actions used with useActionState) and last the form itself (a "$K<n>" reference).
 * lib/forms/action.ts checks the count and types once decoded.
 */

/** Next.js's own limit for a server action's body (serverActions.bodySizeLimit). */
export const PAGE_BODY_LIMIT = 1024 * 1024;

export type Refusal = { status: 400 | 413; error: string };

/**
 * An address Next.js cannot decode: a %-escape that is not UTF-8 (or not hex)
 * in its path; or raw bytes outside printable ASCII, which browsers always
 * %-escape and which normalAddress could not resolve as Next.js does.
 */
export function addressProblem(url: string): Refusal | null {
  if (/[^\x21-\x7e]/.test(url)) return { status: 400, error: "the address has characters that must be %-escaped" };
  const path = url.split("?")[0]!.split("#")[0]!;
  try {
    decodeURIComponent(path);
    return null;
  } catch {
    return { status: 400, error: "the address has a %-escape that is not UTF-8" };
  }
}

/**
 * The address with its path as Next.js routes it: "." and ".." segments
 * (%-escaped too) resolved and "\\" read as "/", by the WHATWG URL parser. The
 * gate judges this address and hands Next.js the same one, so "/api/../teams"
 * is a post to the page /teams, not an API request that skips the page checks.
 * The query is kept as sent. Call after addressProblem.
 */
export function normalAddress(url: string): string {
  if (!url.startsWith("/")) return url;
  const cut = url.search(/[?#]/);
  const [path, rest] = cut < 0 ? [url, ""] : [url.slice(0, cut), url.slice(cut)];
  // a fixed origin in front: "//host/x" stays a path, never a host
  const normal = new URL(`http://site${path}`).pathname;
  return normal === path ? url : normal + rest;
}

/**
 * Posts to pages (server actions, forms) have bodies this server checks; the API's route handlers check their own.
 * A request that names a server action (a Next-Action header) is judged as a page post whatever its address or
 * method: Next.js looks for the action by that header, so an address under /api/ or /_next/ must not carry it
 * past the origin and body checks.
 */
export function isPagePost(req: { method: string | undefined; url: string; serverAction: boolean }): boolean {
  if (req.serverAction) return true;
  if (req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS") return false;
  return !/^\/(api|_next)\//.test(req.url);
}

/** A declared length over the limit, refused before the body is read. */
export function declaredLengthProblem(contentLength: string | undefined): Refusal | null {
  if (contentLength !== undefined && Number(contentLength) > PAGE_BODY_LIMIT) return tooLarge();
  return null;
}

export const tooLarge = (): Refusal => ({ status: 413, error: `the form is larger than the ${PAGE_BODY_LIMIT / 1024 / 1024} MB limit` });

const malformed = (why: string): Refusal => ({ status: 400, error: `malformed form submission: ${why}` });

/** A Flight reply string that is a reference to something else in the body ("$K1", "$@2"); "$$…" is an escaped "$". */
const isReference = (s: string) => s.startsWith("$") && !s.startsWith("$$");

/**
 * A page post's body, read whole (at most PAGE_BODY_LIMIT bytes): it must
 * parse as the form it says it is, and a server action's arguments must be
 * [...strings, state object?, form reference].
 */
export async function pageBodyProblem(req: { contentType: string | undefined; serverAction: boolean }, body: Uint8Array): Promise<Refusal | null> {
  const type = (req.contentType ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== "multipart/form-data" && type !== "application/x-www-form-urlencoded") {
    return malformed(`expected a form (multipart/form-data or application/x-www-form-urlencoded), got ${type || "no content type"}`);
  }
  let form: FormData;
  try {
    form = await new Response(body as BodyInit, { headers: { "content-type": req.contentType! } }).formData();
  } catch {
    return malformed(`the body is not valid ${type}`);
  }
  if (!req.serverAction) return null;
  if (type !== "multipart/form-data") return malformed("a server action's arguments come as multipart/form-data");
  const root = form.get("0");
  if (typeof root !== "string") return malformed('no argument list (field "0")');
  let args: unknown;
  try {
    args = JSON.parse(root);
  } catch {
    return malformed("the argument list is not JSON");
  }
  if (!Array.isArray(args) || args.length === 0) return malformed("the argument list is not a list");
  const last = args.at(-1);
  if (typeof last !== "string" || !/^\$K[0-9a-f]+$/.test(last)) return malformed("the last argument is not the form");
  const before = args.slice(0, -1);
  const state = before.length > 0 && isState(before.at(-1)) ? 1 : 0;
  const bound = before.slice(0, before.length - state);
  if (!bound.every((a) => typeof a === "string" && !isReference(a))) return malformed("a bound argument is not a string");
  return null;
}

/** An action's previous state: an object, or null before the first answer. */
const isState = (v: unknown): boolean => v === null || (typeof v === "object" && !Array.isArray(v));
