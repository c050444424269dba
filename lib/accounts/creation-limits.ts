/**
 * What a signed-in user may create per 24 hours besides submissions and chain
 * proposals (which have quotas of their own): teams, systems and API tokens.
 * Each is a small row, but a script repeating create (and delete, leave or
 * revoke) would otherwise grow the database without bound. Counted on arrival
 * in the RateEvent table: a creation that then fails (a name taken) still
 * counts, and deleting what was made gives no slot back.
 */
import { LimitError } from "@/core/errors";
import { utcMinute } from "@/core/format";
import { rateStore, takeRateSlot } from "@/lib/accounts/rate-events";

const DAY_MS = 24 * 3600_000;

export const DAILY_CREATIONS = { team: 5, system: 20, api_token: 20 } as const;
export type CreationKind = keyof typeof DAILY_CREATIONS;

const NAMES: Record<CreationKind, string> = { team: "teams", system: "systems", api_token: "API tokens" };

/** Counts one creation of `kind` by the user, or throws 429 naming the limit and when a slot frees up. */
export async function countCreation(kind: CreationKind, userId: string, now: Date = new Date()): Promise<void> {
  const limit = DAILY_CREATIONS[kind];
  const slot = await takeRateSlot(rateStore(), [{ key: `created:${kind}:${userId}`, limit }], DAY_MS, now.getTime());
  if (slot.allowed) return;
  throw new LimitError(`you created ${limit} ${NAMES[kind]} in the last 24 hours, the most one user may; the next can be made at ${utcMinute(new Date(slot.retryAt))} UTC`, 429);
}
