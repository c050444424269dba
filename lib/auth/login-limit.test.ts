import { describe, expect, it } from "vitest";
import { clientAddress, limitedSignIn, memoryLoginAttemptStore } from "./login-attempts";
import { LOCKED_PREFIX, lockedMessage, loginVerdict, type LoginLimits } from "./login-limit";

const MIN = 60_000;
const LIMITS: LoginLimits = { windowMs: 15 * MIN, maxPerUsername: 3, maxPerAddress: 5 };
const T0 = Date.parse("2026-12-02T12:00:00Z");
const at = (minutes: number) => T0 + minutes * MIN;

describe("loginVerdict (history, now)", () => {
  it("allows until the username has `max` failures in the window, then locks until the oldest of them leaves it", () => {
    const two = { username: [at(0), at(1)], address: [] };
    expect(loginVerdict(two, at(2), LIMITS)).toEqual({ allowed: true });
    const three = { username: [at(0), at(1), at(2)], address: [] };
    expect(loginVerdict(three, at(3), LIMITS)).toEqual({ allowed: false, scope: "username", retryAt: at(15) });
    // the limit resets after the window: at 15 min the first failure no longer counts
    expect(loginVerdict(three, at(15) - 1, LIMITS).allowed).toBe(false);
    expect(loginVerdict(three, at(15), LIMITS)).toEqual({ allowed: true });
  });

  it("is a sliding window: a steady trickle of failures stays locked, unlocking as each old one leaves", () => {
    const failures = [at(0), at(5), at(10), at(14)];
    // four in the window, three needed: the lock lasts until two have left (5 + 15)
    expect(loginVerdict({ username: failures, address: [] }, at(14), LIMITS)).toEqual({ allowed: false, scope: "username", retryAt: at(20) });
    expect(loginVerdict({ username: failures, address: [] }, at(20), LIMITS)).toEqual({ allowed: true });
  });

  it("locks a client address over its own limit, whatever usernames it tried; the later unlock wins when both are locked", () => {
    const address = [at(0), at(1), at(2), at(3), at(4)];
    expect(loginVerdict({ username: [], address }, at(5), LIMITS)).toEqual({ allowed: false, scope: "address", retryAt: at(15) });
    expect(loginVerdict({ username: [at(4), at(4), at(6)], address }, at(7), LIMITS)).toEqual({ allowed: false, scope: "username", retryAt: at(19) });
    expect(loginVerdict({ username: [], address: address.slice(1) }, at(5), LIMITS)).toEqual({ allowed: true });
  });

  it("ignores failures outside the window, and unsorted history", () => {
    expect(loginVerdict({ username: [at(-30), at(-20), at(-16)], address: [] }, at(0), LIMITS)).toEqual({ allowed: true });
    expect(loginVerdict({ username: [at(2), at(0), at(1)], address: [] }, at(3), LIMITS)).toMatchObject({ retryAt: at(15) });
  });

  it("says who is locked and for how long, starting with the prefix the form recognises", () => {
    expect(lockedMessage({ allowed: false, scope: "username", retryAt: at(15) }, at(3) + 1)).toBe(`${LOCKED_PREFIX} for this username: try again in 12 min.`);
    expect(lockedMessage({ allowed: false, scope: "address", retryAt: at(1) }, at(1) - 1)).toBe(`${LOCKED_PREFIX} from your network address: try again in 1 min.`);
  });
});

describe("limitedSignIn with the in-memory store", () => {
  const right = async () => "user-1";
  const wrong = async () => null;
  const sign = (store: ReturnType<typeof memoryLoginAttemptStore>, check: () => Promise<string | null>, minutes: number, username = "Ann", address: string | null = "198.51.100.7") =>
    limitedSignIn(store, { username, address }, check, { now: at(minutes), limits: LIMITS });

  it("locks after the failures, refuses the right password while locked (without checking it), and lets it in after the window", async () => {
    const store = memoryLoginAttemptStore();
    for (const m of [0, 1, 2]) expect(await sign(store, wrong, m)).toEqual({ outcome: "wrong" });
    let checked = 0;
    const counted = async () => (checked++, "user-1");
    expect(await sign(store, counted, 3)).toEqual({ outcome: "locked", message: `${LOCKED_PREFIX} for this username: try again in 12 min.` });
    // the username is matched without case or surrounding spaces; locked attempts do not extend the lock
    expect(await sign(store, counted, 14, " ANN ")).toMatchObject({ outcome: "locked" });
    expect(checked).toBe(0);
    expect(await sign(store, right, 15)).toEqual({ outcome: "signed-in", userId: "user-1" });
  });

  it("a success clears the username's failures; an unknown username locks like a known one", async () => {
    const store = memoryLoginAttemptStore();
    await sign(store, wrong, 0);
    await sign(store, wrong, 1);
    await sign(store, right, 2);
    await sign(store, wrong, 3);
    await sign(store, wrong, 4);
    expect(await sign(store, right, 5)).toMatchObject({ outcome: "signed-in" });
    for (const m of [0, 1, 2]) await sign(store, wrong, m, "nobody-here", null);
    expect(await sign(store, wrong, 3, "nobody-here", null)).toMatchObject({ outcome: "locked" });
  });

  it("an address trying many usernames is locked for all of them; successes from it do not count", async () => {
    const store = memoryLoginAttemptStore();
    for (let i = 0; i < 20; i++) expect(await sign(store, right, 0, "ann")).toMatchObject({ outcome: "signed-in" });
    for (let i = 0; i < 5; i++) expect(await sign(store, wrong, 1, `guess-${i}`)).toEqual({ outcome: "wrong" });
    expect(await sign(store, right, 2, "ann")).toEqual({ outcome: "locked", message: `${LOCKED_PREFIX} from your network address: try again in 14 min.` });
    // another address is not affected
    expect(await sign(store, right, 2, "ann", "203.0.113.1")).toMatchObject({ outcome: "signed-in" });
  });

  it("attempts sent in parallel count against each other", async () => {
    const store = memoryLoginAttemptStore();
    const slow = () => new Promise<null>((resolve) => setTimeout(() => resolve(null), 5));
    const outcomes = await Promise.all(Array.from({ length: 10 }, () => sign(store, slow, 0)));
    expect(outcomes.filter((o) => o.outcome === "wrong")).toHaveLength(3);
    expect(outcomes.filter((o) => o.outcome === "locked")).toHaveLength(7);
  });

  it("a check that throws is not a failure", async () => {
    const store = memoryLoginAttemptStore();
    for (let i = 0; i < 5; i++) {
      await expect(sign(store, () => Promise.reject(new Error("db down")), 0)).rejects.toThrow("db down");
    }
    expect(await sign(store, right, 0)).toMatchObject({ outcome: "signed-in" });
  });

  it("stays bounded: the stalest keys and the oldest attempts go first", async () => {
    const store = memoryLoginAttemptStore({ maxKeys: 2, maxPerKey: 4 });
    for (const name of ["a", "b", "c"]) await sign(store, wrong, 0, name, null);
    // "a" was dropped, so its next attempt starts afresh
    expect(await store.add("user:a", at(1), at(-14))).toEqual([at(1)]);
    for (let i = 0; i < 6; i++) await store.add("user:z", at(i), at(-10));
    expect(await store.add("user:z", at(6), at(-10))).toEqual([at(3), at(4), at(5), at(6)]);
  });
});

describe("clientAddress", () => {
  it("takes the last X-Forwarded-For entry (the nearest proxy's), without the IPv4-mapped prefix", () => {
    expect(clientAddress({ "x-forwarded-for": "10.0.0.1, 198.51.100.7" }, true)).toBe("198.51.100.7");
    expect(clientAddress(new Headers({ "x-forwarded-for": "::ffff:127.0.0.1" }), true)).toBe("127.0.0.1");
    expect(clientAddress({ "x-forwarded-for": "2001:DB8::1" }, true)).toBe("2001:db8::1");
    expect(clientAddress({}, true)).toBeNull();
    expect(clientAddress(undefined, true)).toBeNull();
  });
});
