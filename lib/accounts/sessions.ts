/**
 * Server-side sessions behind next-auth's JWT cookie: a sign-in opens a row,
 * sign-out deletes it, and a cookie whose row is gone or expired signs no one
 * in (lib/auth/options.ts). The row's id travels in the signed cookie only.
 */
import { randomBytes } from "node:crypto";
import { db } from "@/db/client";

/** Opens a session for `userId`; answers its id. */
export async function openSession(userId: string, maxAgeS: number): Promise<string> {
  const sessionToken = randomBytes(32).toString("base64url");
  await db.session.create({ data: { sessionToken, userId, expires: new Date(Date.now() + maxAgeS * 1000) } });
  // the user's expired sessions go as new ones open
  await db.session.deleteMany({ where: { userId, expires: { lt: new Date() } } });
  return sessionToken;
}

/** Whether the session is open, unexpired, and the user's. */
export async function sessionIsOpen(sessionToken: string, userId: string): Promise<boolean> {
  const row = await db.session.findUnique({ where: { sessionToken }, select: { userId: true, expires: true } });
  return !!row && row.userId === userId && row.expires > new Date();
}

export async function closeSession(sessionToken: string): Promise<void> {
  await db.session.deleteMany({ where: { sessionToken } });
}

/**
 * Ends every session of the user but `keep` (the one asking; null ends them
 * all): after a password change, a device that knew the old password, or a
 * copied cookie, is signed out. A query, so it can run in the caller's transaction.
 */
export function closeOtherSessions(userId: string, keep: string | null) {
  return db.session.deleteMany({ where: { userId, ...(keep ? { NOT: { sessionToken: keep } } : {}) } });
}
