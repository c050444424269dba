/**
 * The viewer of the current request, for pages, server actions and route
 * handlers: the signed-in user (session cookie) or, for the HTTP API, the user
 * an `Authorization: Bearer` token stands for.
 */
import "server-only";
import { getServerSession } from "next-auth";
import { getToken } from "next-auth/jwt";
import { headers } from "next/headers";
import { NextRequest } from "next/server";
import { env } from "@/env";
import { viewerForToken } from "@/lib/accounts/api-tokens";
import { viewerById, type Viewer } from "@/lib/accounts/users";
import { UnauthorizedError } from "@/core/errors";
import { assertSameOrigin } from "@/lib/http/requests";
import type { ApiTokenScopes } from "@/core/schemas/columns";
import { authOptions } from "./options";

/** The signed-in viewer, or null for a visitor. */
export async function getViewer(): Promise<Viewer | null> {
  const session = (await getServerSession(authOptions())) as { userId?: string } | null;
  return session?.userId ? viewerById(session.userId) : null;
}

/** The id of the Session row the signed-in request rides on (in next-auth's signed cookie), or null. */
export async function currentSessionToken(): Promise<string | null> {
  const token = await getToken({ req: new NextRequest("http://site/", { headers: await headers() }), secret: env().NEXTAUTH_SECRET });
  return typeof token?.sid === "string" ? token.sid : null;
}

/**
 * For API routes: a bearer token when the request carries one (and then only
 * the token counts: one that is malformed, revoked or lacks the scope is
 * UnauthorizedError, never a quiet fall back to visitor), else the session
 * cookie, else null (a visitor).
 */
export async function getRequestViewer(req: Request, scope: ApiTokenScopes[number]): Promise<Viewer | null> {
  const header = req.headers.get("authorization");
  return header === null ? getViewer() : tokenViewer(header, scope);
}

async function tokenViewer(header: string, scope: ApiTokenScopes[number]): Promise<Viewer> {
  const m = /^Bearer\s+(\S+)$/i.exec(header);
  const viewer = m?.[1] ? await viewerForToken(m[1], scope) : null;
  if (!viewer) throw new UnauthorizedError();
  return viewer;
}

/**
 * For state-changing API routes: someone must be acting, by a token with the
 * scope or by the session cookie; and a request the cookie authenticates must
 * come from this site (CSRF). A token request is judged by its token alone,
 * its cookie never read, so a forged cross-site request gains nothing by it.
 */
export async function getActingViewer(req: Request, scope: ApiTokenScopes[number]): Promise<Viewer> {
  const header = req.headers.get("authorization");
  if (header !== null) return tokenViewer(header, scope);
  // no cookie, no session to forge: such a request is simply not signed in (401, as before any origin is judged)
  if (!req.headers.get("cookie")) throw new UnauthorizedError();
  assertSameOrigin(req);
  const viewer = await getViewer();
  if (!viewer) throw new UnauthorizedError();
  return viewer;
}
