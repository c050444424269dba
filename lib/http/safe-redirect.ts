/**
 * Where a request may send the browser next: a path on this site
 * only. Decided by URL parsing, not by prefix checks, because browsers drop
 * tabs and newlines from URLs ("/\t/evil.example" becomes "//evil.example")
 * and read "\" as "/". Every redirect target taken from a request goes through here.
 */

/** A base no real site has: a relative target that keeps this origin after parsing stayed on the site. */
const PROBE_ORIGIN = "http://chainswe.invalid";

// C0 controls, DEL and the C1 range: never part of a path anyone meant to link to
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * `raw` as a path on this site ("/teams?x=1#y"), or `fallback` when it is
 * missing, absolute, protocol-relative, or carries control characters.
 */
export function sameSitePath(raw: unknown, fallback: string): string {
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (typeof value !== "string" || !value.startsWith("/") || CONTROL.test(value)) return fallback;
  let url: URL;
  try {
    url = new URL(value, PROBE_ORIGIN);
  } catch {
    return fallback;
  }
  if (url.origin !== PROBE_ORIGIN) return fallback;
  const path = `${url.pathname}${url.search}${url.hash}`;
  // "/\\evil" parses to pathname "//evil" on some parsers: never hand back a protocol-relative path
  return path.startsWith("//") ? fallback : path;
}

/**
 * next-auth's redirect callback: a same-site path or a URL on `baseUrl`'s
 * origin, else the site's root. Its default accepts any "/…" string as is.
 */
export function authRedirect(url: string, baseUrl: string): string {
  let base: URL;
  try {
    base = new URL(baseUrl);
  } catch {
    return "/";
  }
  if (url.startsWith("/")) {
    const path = sameSitePath(url, "/");
    return `${base.origin}${path}`;
  }
  if (CONTROL.test(url)) return base.origin;
  try {
    const target = new URL(url);
    return target.origin === base.origin ? target.href : base.origin;
  } catch {
    return base.origin;
  }
}

/**
 * Why next-auth could not read the callbackUrl values sent (query parameter
 * or its callback-url cookie), or null. next-auth answers 500 to anything
 * but a path or an absolute http(s) URL, and to a repeated parameter; what
 * passes here still goes through authRedirect before anyone is sent there.
 */
export function callbackUrlProblem(values: string[]): string | null {
  if (values.length > 1) return "given more than once";
  const value = values[0];
  if (value === undefined) return null;
  try {
    // next-auth's own test (core/lib/assert.js isValidHttpUrl)
    if (/^https?:$/.test(new URL(value, value.startsWith("/") ? PROBE_ORIGIN : undefined).protocol)) return null;
  } catch {
    // not a URL at all
  }
  return "not a path on this site nor an http(s) URL";
}
