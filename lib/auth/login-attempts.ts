/**
 * The rate limits' state and their use: failed sign-ins around a password
 * check (rules in lib/auth/login-limit.ts) and sign-ups per client address.
 * The events live in the database (lib/accounts/rate-events.ts), so every site
 * process counts the same attempts and a restart forgets nothing.
 *
 * Every sign-in attempt is recorded before its password is checked, so
 * attempts sent in parallel count against each other; a successful one is
 * taken back (and clears its pair's failures), a refused one is not recorded
 * at all, so hammering a locked key does not extend its lock.
 */
import { type RateStore } from "@/lib/accounts/rate-events";
import { LOGIN_LIMITS, lockedMessage, loginVerdict, type LoginLimits } from "./login-limit";

/**
 * The client's address for the per-address limits: the last X-Forwarded-For
 * entry, the one the nearest proxy saw. Only behind a configured proxy
 * (CHAINSWE_TRUST_PROXY): a client can send the header itself. Null when
 * absent or untrusted.
 */
export function clientAddress(headers: Record<string, string | string[] | undefined> | Headers | undefined, trustProxy: boolean): string | null {
  if (!trustProxy) return null;
  const raw = headers instanceof Headers ? headers.get("x-forwarded-for") : headers?.["x-forwarded-for"];
  const value = Array.isArray(raw) ? raw.join(",") : raw;
  const last = value?.split(",").pop()?.trim().toLowerCase();
  if (!last) return null;
  return last.startsWith("::ffff:") ? last.slice(7) : last;
}

export type LimitedSignIn = { outcome: "signed-in"; userId: string } | { outcome: "wrong" } | { outcome: "locked"; message: string };

/**
 * Runs `check` (the password check: a user id or null) unless the pair, the
 * username or the address must wait, and records the outcome.
 */
export async function limitedSignIn(
  store: RateStore,
  who: { username: string; address: string | null },
  check: () => Promise<string | null>,
  opts: { now?: number; limits?: LoginLimits } = {},
): Promise<LimitedSignIn> {
  const limits = opts.limits ?? LOGIN_LIMITS;
  const now = opts.now ?? Date.now();
  const since = now - limits.windowMs;
  const username = who.username.trim().toLowerCase();
  const keys = {
    pair: `signin:pair:${username}|${who.address ?? "-"}`,
    username: `signin:user:${username}`,
    address: who.address ? `signin:addr:${who.address}` : null,
  };
  // recorded first (attempts in flight count), judged on the ones before this
  const history = {
    pair: (await store.add(keys.pair, now, since)).slice(0, -1),
    username: (await store.add(keys.username, now, since)).slice(0, -1),
    address: keys.address ? (await store.add(keys.address, now, since)).slice(0, -1) : [],
  };
  const takeBack = async () => {
    for (const key of Object.values(keys)) if (key) await store.remove(key, now);
  };
  const verdict = loginVerdict(history, now, limits);
  if (!verdict.allowed) {
    await takeBack();
    return { outcome: "locked", message: lockedMessage(verdict, now) };
  }
  let userId: string | null;
  try {
    userId = await check();
  } catch (e) {
    await takeBack(); // the check broke: not a wrong password
    throw e;
  }
  if (!userId) return { outcome: "wrong" };
  await takeBack();
  // the owner's own failures from here are forgiven; the username's from everywhere are not
  await store.clear(keys.pair);
  return { outcome: "signed-in", userId };
}

const SIGNUP_WINDOW_MS = 3600_000;

/**
 * Whether one more account may be created from `address` (null: unknown, one
 * key for every client) within the hour; records it when so. A refused
 * attempt is not recorded.
 */
export async function signUpAllowed(store: RateStore, address: string | null, perHour: number, now = Date.now()): Promise<{ allowed: true } | { allowed: false; message: string }> {
  const key = `signup:${address ?? "-"}`;
  const since = now - SIGNUP_WINDOW_MS;
  const events = await store.add(key, now, since);
  if (events.length <= perHour) return { allowed: true };
  await store.remove(key, now);
  const retryAt = events[events.length - 1 - perHour]! + SIGNUP_WINDOW_MS;
  return { allowed: false, message: `Too many accounts created from your network address: try again in ${Math.max(1, Math.ceil((retryAt - now) / 60_000))} min.` };
}
