/**
 * CSRF for server actions and anything else posted to a page: a request that
 * may change something (any method but GET, HEAD, OPTIONS) must come from
 * this site (lib/http.ts crossSiteProblem) or is answered 403 before Next.js
 * runs it. Next.js's own server-action check lets a request without an Origin
 * through and answers a foreign one with a 500; this makes both a 403.
 *
 * Not for /api/: route handlers check the origin themselves (assertSameOrigin,
 * getActingViewer), and a proxy on them would make Next.js buffer each request
 * body (up to 10 MB) before the handler runs, defeating the upload's streamed
 * size limit.
 */
import { NextResponse, type NextRequest } from "next/server";
import { crossSiteProblem, siteOriginFromEnv } from "@/lib/http";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export function proxy(req: NextRequest): NextResponse {
  if (SAFE_METHODS.has(req.method)) return NextResponse.next();
  const problem = crossSiteProblem(req.headers, siteOriginFromEnv());
  if (problem) return NextResponse.json({ error: problem }, { status: 403, headers: { "cache-control": "no-store" } });
  return NextResponse.next();
}

export const config = {
  // every path but the API and Next.js's static files
  matcher: ["/((?!api/|_next/static/|_next/image|favicon.ico).*)"],
};
