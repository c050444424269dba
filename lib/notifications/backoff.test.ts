import { describe, expect, it } from "vitest";
import { MAX_DELIVERY_ATTEMPTS, afterAttempt, nextAttemptAt } from "./backoff";

const now = new Date("2026-12-04T20:00:00Z");
const later = (ms: number) => new Date(now.getTime() + ms);

describe("the delivery backoff", () => {
  it("waits 10 s, 1 min, 5 min, 30 min, then gives up after five attempts", () => {
    expect([1, 2, 3, 4].map((n) => nextAttemptAt(n, now))).toEqual([later(10_000), later(60_000), later(300_000), later(1_800_000)]);
    expect(nextAttemptAt(5, now)).toBeNull();
    expect(MAX_DELIVERY_ATTEMPTS).toBe(5);
  });

  it("ends a delivered message, retries a failed one while attempts are left", () => {
    expect(afterAttempt(1, true, now)).toEqual({ status: "delivered", nextAttemptAt: null });
    expect(afterAttempt(1, false, now)).toEqual({ status: "pending", nextAttemptAt: later(10_000) });
    expect(afterAttempt(4, false, now)).toEqual({ status: "pending", nextAttemptAt: later(1_800_000) });
    expect(afterAttempt(5, false, now)).toEqual({ status: "failed", nextAttemptAt: null });
  });
});
