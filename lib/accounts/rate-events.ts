/**
 * Events that rate limits count (failed sign-ins, sign-ups, refused uploads),
 * in the RateEvent table: every site process sees the same ones, and a
 * restart forgets nothing.
 */
import { db } from "@/db/client";

export interface RateStore {
  /** Records an event under `key` at `at`; answers the key's events after `since`, oldest first, this one last. */
  add(key: string, at: number, since: number): Promise<number[]>;
  /** The key's events after `since`, oldest first. */
  list(key: string, since: number): Promise<number[]>;
  /** Takes back one event recorded under `key` at `at`. */
  remove(key: string, at: number): Promise<void>;
  /** Forgets every event under `key`. */
  clear(key: string): Promise<void>;
}

/** Events older than this are swept, whatever their key (no limit looks further back). */
const KEEP_MS = 24 * 3600_000;

/** The store every site process shares: the RateEvent table. */
export function rateStore(): RateStore {
  const list = async (key: string, since: number) =>
    (await db.rateEvent.findMany({ where: { key, at: { gt: new Date(since) } }, orderBy: { at: "asc" }, select: { at: true } })).map((r) => r.at.getTime());
  return {
    async add(key, at, since) {
      await db.rateEvent.create({ data: { key, at: new Date(at) } });
      // the key's old events go now; every key's, now and then
      await db.rateEvent.deleteMany({ where: Math.random() < 0.01 ? { at: { lt: new Date(at - KEEP_MS) } } : { key, at: { lte: new Date(since) } } });
      return list(key, since);
    },
    list,
    async remove(key, at) {
      const row = await db.rateEvent.findFirst({ where: { key, at: new Date(at) }, select: { id: true } });
      if (row) await db.rateEvent.deleteMany({ where: { id: row.id } });
    },
    async clear(key) {
      await db.rateEvent.deleteMany({ where: { key } });
    },
  };
}


/** One sliding-window limit: at most `limit` events under `key` within the window. */
export type RateLimit = { key: string; limit: number };

/**
 * Counts one event under every key unless that puts one of them over its
 * limit within the window; a refused event counts nowhere. Answers, when
 * refused, the key that was full and when it frees a place.
 */
export async function takeRateSlot(
  store: RateStore,
  limits: readonly RateLimit[],
  windowMs: number,
  now: number,
): Promise<{ allowed: true } | { allowed: false; key: string; retryAt: number }> {
  const since = now - windowMs;
  const counted = await Promise.all(limits.map(async (l) => ({ ...l, events: await store.add(l.key, now, since) })));
  const full = counted
    .filter((c) => c.events.length > c.limit)
    .map((c) => ({ key: c.key, retryAt: c.events[c.events.length - 1 - c.limit]! + windowMs }))
    .sort((a, b) => b.retryAt - a.retryAt);
  if (full.length === 0) return { allowed: true };
  await Promise.all(limits.map((l) => store.remove(l.key, now)));
  return { allowed: false, ...full[0]! };
}
