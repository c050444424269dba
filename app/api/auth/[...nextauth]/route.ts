/**
 * next-auth's endpoints. Its POSTs (sign in, sign out, the credentials
 * callback) change who is signed in, so besides next-auth's own CSRF token
 * they must come from this site (403 otherwise, as every state-changing route
 * here), and their small form bodies are read with a cap (413) and, when sent
 * as JSON, must parse (400) — next-auth would read any size and answer a
 * malformed one with a 500. On every method, a callbackUrl (query or cookie)
 * next-auth cannot read is refused with 400 (it would answer 500).
 */
import { NextRequest } from "next/server";
import NextAuth from "next-auth";
import { authOptions } from "@/lib/auth/options";
import { FieldError } from "@/core/errors";
import { assertSameOrigin, errorResponse, readBodyCapped } from "@/lib/http/requests";
import { callbackUrlProblem } from "@/lib/http/safe-redirect";

type Context = { params: Promise<{ nextauth: string[] }> };

const handler = NextAuth(authOptions());

const MAX_BODY_BYTES = 16 * 1024;

/** next-auth's callback-url cookie, under either of its names (__Secure- over https). */
const CALLBACK_COOKIE = /^(__Secure-)?next-auth\.callback-url$/;

function assertCallbackUrls(req: NextRequest): void {
  const sent: [string, string[]][] = [
    ["callbackUrl", req.nextUrl.searchParams.getAll("callbackUrl")],
    ...req.cookies
      .getAll()
      .filter((c) => CALLBACK_COOKIE.test(c.name))
      .map((c): [string, string[]] => [`cookie ${c.name}`, [c.value]]),
  ];
  for (const [field, values] of sent) {
    const problem = callbackUrlProblem(values);
    if (problem) throw new FieldError(field, problem);
  }
}

async function GET(req: NextRequest, ctx: Context): Promise<Response> {
  try {
    assertCallbackUrls(req);
  } catch (e) {
    return errorResponse(e);
  }
  return handler(req, ctx) as Promise<Response>;
}

async function POST(req: NextRequest, ctx: Context): Promise<Response> {
  let body: Uint8Array;
  try {
    assertSameOrigin(req);
    assertCallbackUrls(req);
    body = await readBodyCapped(req, MAX_BODY_BYTES);
    if (/application\/json/i.test(req.headers.get("content-type") ?? "")) {
      try {
        JSON.parse(new TextDecoder().decode(body));
      } catch (e) {
        throw new FieldError("body", `malformed JSON (${(e as Error).message})`);
      }
    }
  } catch (e) {
    return errorResponse(e);
  }
  // the body was read here: next-auth gets the same request with it in memory
  const again = new NextRequest(req.url, { method: "POST", headers: req.headers, body: body as BodyInit });
  return handler(again, ctx) as Promise<Response>;
}

export { GET, POST };
