/**
 * Failed sign-in limits: pure, so the verdict is a function of the failure
 * history and the time, tested without a clock or a store
 * (lib/auth/login-attempts.ts keeps the history and applies the verdict).
 *
 * No lockout switch: a username is slowed down per client address (the pair),
 * with a backoff that doubles per failure, so a guesser elsewhere does not
 * lock its owner out. Two wider limits stop the spread-out attacks the pair
 * misses: an address trying many usernames is locked for all of them, and a
 * username guessed from many addresses gets the backoff everywhere (only past
 * a count a single guesser cannot reach). A site that cannot tell clients
 * apart (no trusted proxy: every address is unknown) keeps one pair per
 * username — the backoff still caps how fast anyone may guess.
 *
 * Invariants: an attempt inside a backoff or lock is refused whatever its
 * password, without checking it; an unknown username is treated exactly like
 * a known one. No server-only imports: the sign-in form reads LOCKED_PREFIX.
 */

export type LoginLimits = {
  /** how far back failures count */
  windowMs: number;
  /** failures of one username from one address before the backoff starts */
  freePerPair: number;
  /** the first backoff; each further failure doubles it */
  backoffMs: number;
  /** the longest backoff */
  maxBackoffMs: number;
  /** failures from one address within the window (any usernames) after which it is locked */
  maxPerAddress: number;
  /** failures of one username within the window, from every address, before the backoff applies to all of them */
  freePerUsername: number;
};

export const LOGIN_LIMITS: LoginLimits = { windowMs: 15 * 60_000, freePerPair: 5, backoffMs: 30_000, maxBackoffMs: 15 * 60_000, maxPerAddress: 30, freePerUsername: 100 };

/** Earlier failures (epoch ms) within the window: of this username from this address, of this username from anywhere, from this address. */
export type FailureHistory = { pair: readonly number[]; username: readonly number[]; address: readonly number[] };

export type LoginScope = "pair" | "username" | "address";
export type LoginVerdict = { allowed: true } | { allowed: false; scope: LoginScope; retryAt: number };

/** Every refusal's message starts with this (the sign-in form shows such an answer as it is). */
export const LOCKED_PREFIX = "Too many failed sign-ins";

const recentOf = (history: readonly number[], now: number, windowMs: number) => history.filter((t) => t > now - windowMs && t <= now).sort((a, b) => a - b);

/** After `free` failures, the next attempt waits backoffMs × 2^(failures − free) from the last one, at most maxBackoffMs. */
function backoffUntil(recent: readonly number[], free: number, limits: LoginLimits): number | null {
  if (recent.length < free) return null;
  const wait = Math.min(limits.maxBackoffMs, limits.backoffMs * 2 ** (recent.length - free));
  return recent[recent.length - 1]! + wait;
}

/**
 * Whether one more attempt may be checked now. An address over its limit is
 * locked until enough of its failures leave the window (a sliding window, so
 * a steady trickle stays locked); pairs and usernames back off.
 */
export function loginVerdict(history: FailureHistory, now: number, limits: LoginLimits = LOGIN_LIMITS): LoginVerdict {
  const candidates: { scope: LoginScope; retryAt: number | null }[] = [
    { scope: "pair", retryAt: backoffUntil(recentOf(history.pair, now, limits.windowMs), limits.freePerPair, limits) },
    { scope: "username", retryAt: backoffUntil(recentOf(history.username, now, limits.windowMs), limits.freePerUsername, limits) },
  ];
  const address = recentOf(history.address, now, limits.windowMs);
  // unlocked when the failure that keeps the count at the limit leaves the window
  if (address.length >= limits.maxPerAddress) candidates.push({ scope: "address", retryAt: address[address.length - limits.maxPerAddress]! + limits.windowMs });
  let verdict: LoginVerdict = { allowed: true };
  for (const c of candidates) {
    if (c.retryAt === null || c.retryAt <= now) continue;
    // more than one: the later end is the one that counts
    if (verdict.allowed || c.retryAt > verdict.retryAt) verdict = { allowed: false, scope: c.scope, retryAt: c.retryAt };
  }
  return verdict;
}

/** The refusal as the person signing in reads it. */
export function lockedMessage(verdict: Extract<LoginVerdict, { allowed: false }>, now: number): string {
  const seconds = Math.max(1, Math.ceil((verdict.retryAt - now) / 1000));
  const wait = seconds < 60 ? `${seconds} s` : `${Math.ceil(seconds / 60)} min`;
  const who = verdict.scope === "address" ? "from your network address" : "for this username";
  return `${LOCKED_PREFIX} ${who}: try again in ${wait}.`;
}
