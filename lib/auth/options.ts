/**
 * next-auth (v4, App Router): username + password for self-hosted sites, and
 * GitHub OAuth when GITHUB_ID and GITHUB_SECRET are set. Sessions are JWTs in
 * an http-only cookie (the credentials provider requires it) carrying the user
 * id and the id of a Session row, which sign-out deletes (lib/accounts/sessions.ts);
 * roles and teams are read from the database per request
 * (lib/accounts/users.ts viewerById). The Prisma adapter stores GitHub users and
 * their linked accounts. Failed password sign-ins are rate-limited per
 * username and client address, in the database (lib/auth/login-attempts.ts).
 */
import { authRedirect } from "@/lib/http/safe-redirect";
import { PrismaAdapter } from "@next-auth/prisma-adapter";
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import GitHubProvider from "next-auth/providers/github";
import { env } from "@/env";
import { closeSession, openSession, sessionIsOpen } from "@/lib/accounts/sessions";
import { authenticate } from "@/lib/accounts/users";
import { db } from "@/db/client";
import { requestPeer } from "@/lib/forms/action";
import { rateStore } from "@/lib/accounts/rate-events";
import { clientAddress, limitedSignIn } from "./login-attempts";

const SESSION_MAX_AGE_S = 30 * 24 * 3600;

export const githubEnabled = (): boolean => !!(env().GITHUB_ID && env().GITHUB_SECRET);

export function authOptions(): NextAuthOptions {
  const { GITHUB_ID, GITHUB_SECRET, NEXTAUTH_SECRET } = env();
  return {
    // the adapter is typed against @prisma/client; ours is generated into db/generated with the same models
    adapter: PrismaAdapter(db as unknown as Parameters<typeof PrismaAdapter>[0]),
    secret: NEXTAUTH_SECRET,
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_S },
    pages: { signIn: "/signin" },
    providers: [
      CredentialsProvider({
        id: "credentials",
        name: "Username and password",
        credentials: { username: { label: "Username", type: "text" }, password: { label: "Password", type: "password" } },
        async authorize(credentials, req) {
          if (!credentials?.username || !credentials.password) return null;
          const { username, password } = credentials;
          // failed attempts back off per username and address (lib/auth/login-limit.ts); a refused
          // attempt is refused whatever its password, and its message reaches the form as next-auth's `error`
          const signIn = await limitedSignIn(rateStore(), { username, address: clientAddress(req?.headers, env().CHAINSWE_TRUST_PROXY, requestPeer()) }, () => authenticate(username, password));
          if (signIn.outcome === "locked") throw new Error(signIn.message);
          return signIn.outcome === "signed-in" ? { id: signIn.userId } : null;
        },
      }),
      ...(GITHUB_ID && GITHUB_SECRET ? [GitHubProvider({ clientId: GITHUB_ID, clientSecret: GITHUB_SECRET })] : []),
    ],
    callbacks: {
      redirect({ url, baseUrl }) {
        return authRedirect(url, baseUrl);
      },
      // a sign-in opens a Session row; the cookie holds its id, and is worth nothing once the row is gone
      async jwt({ token, user }) {
        if (user) {
          token.sub = user.id;
          token.sid = await openSession(user.id, SESSION_MAX_AGE_S);
        }
        return token;
      },
      async session({ session, token }) {
        const live = typeof token.sid === "string" && token.sub ? await sessionIsOpen(token.sid, token.sub) : false;
        return live ? { ...session, userId: token.sub } : { expires: session.expires };
      },
    },
    events: {
      // sign-out ends the session on the server: the old cookie no longer signs anyone in
      async signOut({ token }) {
        if (typeof token?.sid === "string") await closeSession(token.sid);
      },
    },
  };
}
