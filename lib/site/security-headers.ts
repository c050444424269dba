/**
 * Sent with every response (next.config.ts for what Next.js answers, server.ts
 * for what the site's server answers itself; HSTS by server.ts alone, as it
 * depends on a runtime setting). Next.js inlines its bootstrap scripts
 * and styles, so scripts and styles need 'unsafe-inline' without a nonce per
 * request; everything else is this site only, and no one may frame it.
 */
const CSP = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self' https://github.com",
  "frame-ancestors 'none'",
].join("; ");

export const SECURITY_HEADERS = [
  { key: "Content-Security-Policy", value: CSP },
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
  { key: "X-Frame-Options", value: "DENY" },
];

/**
 * Sent by server.ts with every answer when CHAINSWE_HSTS=1 (the site is served
 * over https): browsers then refuse plain http to this host for a year, so a
 * network attacker cannot strip TLS from a later visit. Not includeSubDomains:
 * the site may share its domain with hosts it does not control.
 */
export const HSTS_HEADER = { key: "Strict-Transport-Security", value: "max-age=31536000" };
