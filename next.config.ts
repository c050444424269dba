import type { NextConfig } from "next";

/**
 * Sent with every response. Next.js inlines its bootstrap scripts
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

const nextConfig: NextConfig = {
  // a separate build dir per test run or checkout (tests build the site into their own)
  distDir: process.env.CHAINSWE_NEXT_DIST || ".next",
  // the evaluator talks to Docker through native modules; keep them out of the bundle
  serverExternalPackages: ["dockerode", "ssh2", "cpu-features", "pg", "bullmq", "ioredis"],
  // says nothing an attacker needs to know
  poweredByHeader: false,
  headers: async () => [{ source: "/:path*", headers: SECURITY_HEADERS }],
};

export default nextConfig;
