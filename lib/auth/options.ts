/**
 * next-auth (v4, App Router): username + password for self-hosted sites, and
 * GitHub OAuth when GITHUB_ID and GITHUB_SECRET are set. Sessions are JWTs in
 * an http-only cookie (the credentials provider requires it) carrying only the
 * user id; roles and teams are read from the database per request
 * (lib/data/users.ts viewerById). The Prisma adapter stores GitHub users and
 * their linked accounts. Failed password sign-ins are rate-limited per
 * username and per client address (lib/auth/login-attempts.ts, per process).
 */
import { authRedirect } from "@/lib/safe-redirect";
import { PrismaAdapter } from "@next-auth/prisma-adapter";
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import GitHubProvider from "next-auth/providers/github";
import { env } from "@/env";
import { authenticate } from "@/lib/data/users";
import { db } from "@/lib/db";
import { clientAddress, limitedSignIn, loginAttempts } from "./login-attempts";

export const githubEnabled = (): boolean => !!(env().GITHUB_ID && env().GITHUB_SECRET);

export function authOptions(): NextAuthOptions {
  const { GITHUB_ID, GITHUB_SECRET, NEXTAUTH_SECRET } = env();
  return {
    // the adapter is typed against @prisma/client; ours is generated into lib/generated with the same models
    adapter: PrismaAdapter(db as unknown as Parameters<typeof PrismaAdapter>[0]),
    secret: NEXTAUTH_SECRET,
    session: { strategy: "jwt", maxAge: 30 * 24 * 3600 },
    pages: { signIn: "/signin" },
    providers: [
      CredentialsProvider({
        id: "credentials",
        name: "Username and password",
        credentials: { username: { label: "Username", type: "text" }, password: { label: "Password", type: "password" } },
        async authorize(credentials, req) {
          if (!credentials?.username || !credentials.password) return null;
          const { username, password } = credentials;
          // failed attempts are limited per username and per address (lib/auth/login-limit.ts); a locked
          // attempt is refused whatever its password, and its message reaches the form as next-auth's `error`
          const signIn = await limitedSignIn(loginAttempts(), { username, address: clientAddress(req?.headers, env().CHAINSWE_TRUST_PROXY) }, () => authenticate(username, password));
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
      jwt({ token, user }) {
        if (user) token.sub = user.id;
        return token;
      },
      session({ session, token }) {
        return { ...session, userId: token.sub };
      },
    },
  };
}
