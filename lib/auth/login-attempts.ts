/**
 * The sign-in limiter's state and its use around a password check.
 *
 * PER PROCESS: the failure history lives in this process's memory
 * (memoryLoginAttemptStore), so it is lost on restart and each site process
 * counts on its own (with N processes an attacker gets up to N times the
 * limit). A store kept in the database would lift both; it plugs in behind
 * LoginAttemptStore without changing the rules (lib/auth/login-limit.ts).
 *
 * Every attempt is recorded before its password is checked, so attempts sent
 * in parallel count against each other; a successful one is taken back (and
 * clears its username's failures), a refused one is not recorded at all, so
 * hammering a locked key does not extend its lock.
 */
import { LOGIN_LIMITS, lockedMessage, loginVerdict, type LoginLimits } from "./login-limit";

export interface LoginAttemptStore {
  /** Records an attempt under `key` at `at`; answers the key's attempts after `since`, oldest first, this one last. */
  add(key: string, at: number, since: number): Promise<number[]>;
  /** Takes back one attempt recorded under `key` at `at`. */
  remove(key: string, at: number): Promise<void>;
  /** Forgets every attempt under `key`. */
  clear(key: string): Promise<void>;
}

/**
 * In memory, bounded: at most `maxKeys` keys (the stalest dropped first) and
 * `maxPerKey` attempts per key (the newest kept; a verdict needs only the
 * newest `max` of them).
 */
export function memoryLoginAttemptStore(opts: { maxKeys?: number; maxPerKey?: number } = {}): LoginAttemptStore {
  const maxKeys = opts.maxKeys ?? 50_000;
  const maxPerKey = opts.maxPerKey ?? 200;
  const byKey = new Map<string, number[]>();
  return {
    async add(key, at, since) {
      const kept = (byKey.get(key) ?? []).filter((t) => t > since);
      kept.push(at);
      if (kept.length > maxPerKey) kept.splice(0, kept.length - maxPerKey);
      byKey.delete(key); // re-inserted last: Map order is then least recently used first
      byKey.set(key, kept);
      if (byKey.size > maxKeys) {
        for (const k of byKey.keys()) {
          if (byKey.size <= maxKeys) break;
          if (k !== key) byKey.delete(k);
        }
      }
      return [...kept];
    },
    async remove(key, at) {
      const ts = byKey.get(key);
      const i = ts?.lastIndexOf(at) ?? -1;
      if (ts && i >= 0) ts.splice(i, 1);
    },
    async clear(key) {
      byKey.delete(key);
    },
  };
}

/** This process's store (kept on globalThis so every bundle of the site shares one). */
export function loginAttempts(): LoginAttemptStore {
  const g = globalThis as { chainsweLoginAttempts?: LoginAttemptStore };
  return (g.chainsweLoginAttempts ??= memoryLoginAttemptStore());
}

/**
 * The client's address for the per-address limit: the last X-Forwarded-For
 * entry, the one the nearest proxy saw (Next.js sets it from the socket when a
 * request arrives without one). Behind a reverse proxy it must overwrite or
 * append that header; a site served directly trusts what the client sends, so
 * there the per-username limit is the one that holds. Null when absent.
 */
export function clientAddress(headers: Record<string, string | string[] | undefined> | Headers | undefined, trustProxy: boolean): string | null {
  // a client can send X-Forwarded-For itself: only a configured proxy's counts (issue 15)
  if (!trustProxy) return null;
  const raw = headers instanceof Headers ? headers.get("x-forwarded-for") : headers?.["x-forwarded-for"];
  const value = Array.isArray(raw) ? raw.join(",") : raw;
  const last = value?.split(",").pop()?.trim().toLowerCase();
  if (!last) return null;
  return last.startsWith("::ffff:") ? last.slice(7) : last;
}

export type LimitedSignIn = { outcome: "signed-in"; userId: string } | { outcome: "wrong" } | { outcome: "locked"; message: string };

/**
 * Runs `check` (the password check: a user id or null) unless the username or
 * the address is locked, and records the outcome.
 */
export async function limitedSignIn(
  store: LoginAttemptStore,
  who: { username: string; address: string | null },
  check: () => Promise<string | null>,
  opts: { now?: number; limits?: LoginLimits } = {},
): Promise<LimitedSignIn> {
  const limits = opts.limits ?? LOGIN_LIMITS;
  const now = opts.now ?? Date.now();
  const since = now - limits.windowMs;
  const userKey = `user:${who.username.trim().toLowerCase()}`;
  const addressKey = who.address ? `addr:${who.address}` : null;
  // recorded first (attempts in flight count), judged on the ones before this
  const username = (await store.add(userKey, now, since)).slice(0, -1);
  const address = addressKey ? (await store.add(addressKey, now, since)).slice(0, -1) : [];
  const takeBack = async () => {
    await store.remove(userKey, now);
    if (addressKey) await store.remove(addressKey, now);
  };
  const verdict = loginVerdict({ username, address }, now, limits);
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
  await store.clear(userKey);
  return { outcome: "signed-in", userId };
}
