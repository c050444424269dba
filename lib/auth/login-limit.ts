/**
 * Failed sign-in limits (issue 5, item 4): a sliding window of failures per
 * username and per client address. Pure: the verdict is a function of the
 * failure history and the time, so it is tested without a clock or a store
 * (lib/auth/login-attempts.ts keeps the history and applies the verdict).
 *
 * Invariants: a locked key refuses every attempt, a correct password too,
 * until enough of its failures have left the window; an unknown username
 * locks exactly like a known one (no hint which usernames exist). No
 * server-only imports: the sign-in form reads LOCKED_PREFIX to show the
 * refusal as it is.
 */

export type LoginLimits = {
  /** how far back failures count */
  windowMs: number;
  /** failures within the window after which a username is locked */
  maxPerUsername: number;
  /** failures within the window after which a client address is locked (any usernames) */
  maxPerAddress: number;
};

export const LOGIN_LIMITS: LoginLimits = { windowMs: 15 * 60_000, maxPerUsername: 5, maxPerAddress: 30 };

/** Earlier failures (epoch ms) within the window, oldest first, for the username and for the client address. */
export type FailureHistory = { username: readonly number[]; address: readonly number[] };

export type LoginVerdict = { allowed: true } | { allowed: false; scope: "username" | "address"; retryAt: number };

/** Every refusal's message starts with this (the sign-in form shows such an answer as it is). */
export const LOCKED_PREFIX = "Too many failed sign-ins";

/**
 * Whether one more attempt may be checked now. A key is locked while it has
 * `max` or more failures in the window; it unlocks when the oldest failures
 * that keep it over the limit leave the window (a sliding window, so a
 * steady trickle of failures stays locked out).
 */
export function loginVerdict(history: FailureHistory, now: number, limits: LoginLimits = LOGIN_LIMITS): LoginVerdict {
  const since = now - limits.windowMs;
  let verdict: LoginVerdict = { allowed: true };
  for (const [scope, max] of [
    ["username", limits.maxPerUsername],
    ["address", limits.maxPerAddress],
  ] as const) {
    const recent = history[scope].filter((t) => t > since && t <= now).sort((a, b) => a - b);
    if (recent.length < max) continue;
    // unlocked when the failure that keeps the count at `max` leaves the window
    const retryAt = recent[recent.length - max]! + limits.windowMs;
    // both locked: the later unlock is the one that counts
    if (verdict.allowed || retryAt > verdict.retryAt) verdict = { allowed: false, scope, retryAt };
  }
  return verdict;
}

/** The refusal as the person signing in reads it. */
export function lockedMessage(verdict: Extract<LoginVerdict, { allowed: false }>, now: number): string {
  const minutes = Math.max(1, Math.ceil((verdict.retryAt - now) / 60_000));
  const who = verdict.scope === "username" ? "for this username" : "from your network address";
  return `${LOCKED_PREFIX} ${who}: try again in ${minutes} min.`;
}
