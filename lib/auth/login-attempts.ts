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
import { takeRateSlot, type RateStore } from "@/lib/accounts/rate-events";
import { LimitError } from "@/core/errors";
import { LOGIN_LIMITS, lockedMessage, loginVerdict, type LoginLimits } from "./login-limit";

/**
 * The client's address for the per-address limits. Behind a configured proxy
 * (CHAINSWE_TRUST_PROXY), the last X-Forwarded-For entry, the one the nearest
 * proxy saw; otherwise the connection's peer (server.ts records it), which no
 * header can forge, so clients are told apart with or without a proxy. Null
 * only when neither is known.
 */
export function clientAddress(headers: Record<string, string | string[] | undefined> | Headers | undefined, trustProxy: boolean, peer: string | null): string | null {
  const raw = headers instanceof Headers ? headers.get("x-forwarded-for") : headers?.["x-forwarded-for"];
  const value = Array.isArray(raw) ? raw.join(",") : raw;
  const forwarded = trustProxy ? value?.split(",").pop()?.trim() : undefined;
  const address = (forwarded || peer)?.toLowerCase();
  if (!address) return null;
  return address.startsWith("::ffff:") ? address.slice(7) : address;
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

const HOUR_MS = 3600_000;

type HourlySlot = { allowed: true; takeBack: () => Promise<void> } | { allowed: false; retryInMin: number };

/**
 * Records one event under `key` unless `perHour` are already in the hour
 * before `now`; a refused attempt is not recorded. Recorded first, so
 * attempts in flight count against each other.
 */
async function hourlySlot(store: RateStore, key: string, perHour: number, now: number): Promise<HourlySlot> {
  const slot = await takeRateSlot(store, [{ key, limit: perHour }], HOUR_MS, now);
  if (slot.allowed) return { allowed: true, takeBack: () => store.remove(key, now) };
  return { allowed: false, retryInMin: Math.max(1, Math.ceil((slot.retryAt - now) / 60_000)) };
}

/**
 * Whether one more account may be created from `address` (null: unknown, one
 * key for every client) within the hour; records it when so. A refused
 * attempt is not recorded.
 */
export async function signUpAllowed(store: RateStore, address: string | null, perHour: number, now = Date.now()): Promise<{ allowed: true } | { allowed: false; message: string }> {
  const slot = await hourlySlot(store, `signup:${address ?? "-"}`, perHour, now);
  return slot.allowed ? { allowed: true } : { allowed: false, message: `Too many accounts created from your network address: try again in ${slot.retryInMin} min.` };
}

/**
 * Counts one answer that tells whether a username exists (sign-up's "taken",
 * the invite form's "no user") against `address`'s hour, before the lookup:
 * past `perHour` it is LimitError 429, whatever the name, so the refusal
 * itself tells nothing. The caller takes the count back when its answer went
 * on to cost something of its own (an account created, an invitation sent).
 * Usernames are listed to no one but teammates and site admins; this keeps
 * the two forms from listing them instead.
 */
export async function countUsernameProbe(store: RateStore, address: string | null, perHour: number, now = Date.now()): Promise<{ takeBack: () => Promise<void> }> {
  const slot = await hourlySlot(store, `username-probe:${address ?? "-"}`, perHour, now);
  if (!slot.allowed) {
    throw new LimitError(`Too many attempts naming taken or unknown usernames from your network address: try again in ${slot.retryInMin} min.`, 429, "username");
  }
  return { takeBack: slot.takeBack };
}
