/**
 * When a delivery is tried again: five attempts in all, the first at once and
 * then after 10 s, 1 min, 5 min and 30 min, so a receiver that is down for a
 * deploy still gets the message. Pure.
 */
import type { DeliveryStatus } from "@/core/schemas/columns";

/** The wait before attempt 2, 3, 4, 5. */
export const RETRY_DELAYS_MS = [10_000, 60_000, 5 * 60_000, 30 * 60_000] as const;
export const MAX_DELIVERY_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** When the next attempt is due after `attemptsMade` failed ones, or null when none is left. */
export function nextAttemptAt(attemptsMade: number, now: Date): Date | null {
  const delay = RETRY_DELAYS_MS[attemptsMade - 1];
  return delay === undefined ? null : new Date(now.getTime() + delay);
}

/** A delivery's state after an attempt (attemptsMade counts it). */
export function afterAttempt(attemptsMade: number, ok: boolean, now: Date): { status: DeliveryStatus; nextAttemptAt: Date | null } {
  if (ok) return { status: "delivered", nextAttemptAt: null };
  const next = nextAttemptAt(attemptsMade, now);
  return next ? { status: "pending", nextAttemptAt: next } : { status: "failed", nextAttemptAt: null };
}
