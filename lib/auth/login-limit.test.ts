/**
 * Sign-in and sign-up limits: the rules as pure functions, then their use with
 * the store every site process shares (the RateEvent table of a real database).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDb } from "@/lib/testing/test-db";
import { LOCKED_PREFIX, lockedMessage, loginVerdict, type FailureHistory, type LoginLimits } from "./login-limit";

const MIN = 60_000;
const SEC = 1000;
const LIMITS: LoginLimits = { windowMs: 15 * MIN, freePerPair: 3, backoffMs: 30 * SEC, maxBackoffMs: 15 * MIN, maxPerAddress: 5, freePerUsername: 8 };
const T0 = Date.parse("2026-12-02T12:00:00Z");
const at = (minutes: number) => T0 + minutes * MIN;
const none: FailureHistory = { pair: [], username: [], address: [] };

describe("loginVerdict (history, now)", () => {
  it("a pair backs off after its free failures, doubling per failure up to the cap, from its last failure", () => {
    expect(loginVerdict({ ...none, pair: [at(0), at(1)] }, at(1), LIMITS)).toEqual({ allowed: true });
    const three = [at(0), at(0), at(1)];
    expect(loginVerdict({ ...none, pair: three }, at(1), LIMITS)).toEqual({ allowed: false, scope: "pair", retryAt: at(1) + 30 * SEC });
    expect(loginVerdict({ ...none, pair: three }, at(1) + 30 * SEC, LIMITS)).toEqual({ allowed: true });
    expect(loginVerdict({ ...none, pair: [...three, at(2)] }, at(2), LIMITS)).toMatchObject({ retryAt: at(3) });
    const many = Array.from({ length: 12 }, () => at(2));
    expect(loginVerdict({ ...none, pair: many }, at(2), LIMITS)).toMatchObject({ scope: "pair", retryAt: at(17) });
    // failures that left the window no longer count
    expect(loginVerdict({ ...none, pair: three }, at(16), LIMITS)).toEqual({ allowed: true });
  });

  it("a username guessed from many addresses backs off everywhere, but only past a count one guesser cannot reach", () => {
    const spread = Array.from({ length: 8 }, (_, i) => at(i / 8));
    expect(loginVerdict({ ...none, username: spread.slice(1) }, at(1), LIMITS)).toEqual({ allowed: true });
    expect(loginVerdict({ ...none, username: spread }, at(1), LIMITS)).toMatchObject({ allowed: false, scope: "username" });
  });

  it("locks an address over its own limit, whatever usernames it tried, until its failures leave the window; the later end wins", () => {
    const address = [at(0), at(1), at(2), at(3), at(4)];
    expect(loginVerdict({ ...none, address }, at(5), LIMITS)).toEqual({ allowed: false, scope: "address", retryAt: at(15) });
    expect(loginVerdict({ ...none, address: address.slice(1) }, at(5), LIMITS)).toEqual({ allowed: true });
    const pair = Array.from({ length: 12 }, () => at(4));
    expect(loginVerdict({ pair, username: [], address }, at(5), LIMITS)).toMatchObject({ scope: "pair", retryAt: at(19) });
  });

  it("says who must wait and for how long, starting with the prefix the form recognises", () => {
    expect(lockedMessage({ allowed: false, scope: "pair", retryAt: at(15) }, at(3) + 1)).toBe(`${LOCKED_PREFIX} for this username: try again in 12 min.`);
    expect(lockedMessage({ allowed: false, scope: "address", retryAt: at(1) }, at(1) - 20 * SEC)).toBe(`${LOCKED_PREFIX} from your network address: try again in 20 s.`);
  });
});

describe("with the database store", () => {
  let t: Awaited<ReturnType<typeof openTestDb>>;
  let m: typeof import("./login-attempts") & typeof import("@/lib/accounts/rate-events");
  beforeAll(async () => {
    t = await openTestDb({ importDemo: false });
    m = { ...(await import("./login-attempts")), ...(await import("@/lib/accounts/rate-events")) };
  }, 60_000);
  afterAll(async () => t?.close());

  const right = async () => "user-1";
  const wrong = async () => null;
  const sign = (check: () => Promise<string | null>, minutes: number, username: string, address: string | null = "198.51.100.7") =>
    m.limitedSignIn(m.rateStore(), { username, address }, check, { now: at(minutes), limits: LIMITS });

  it("a guesser slows the username down from its own address only: its owner elsewhere signs in", async () => {
    for (const s of [0, 0.1, 0.2]) expect(await sign(wrong, s, "ann")).toEqual({ outcome: "wrong" });
    let checked = 0;
    const counted = async () => (checked++, "user-1");
    expect(await sign(counted, 0.3, " ANN ")).toEqual({ outcome: "locked", message: `${LOCKED_PREFIX} for this username: try again in 24 s.` });
    expect(checked).toBe(0);
    expect(await sign(right, 0.3, "ann", "203.0.113.9")).toEqual({ outcome: "signed-in", userId: "user-1" });
    // once the backoff has passed, the right password from the guesser's address gets in too, and clears its pair
    expect(await sign(right, 0.2 + 0.5, "ann")).toMatchObject({ outcome: "signed-in" });
    expect(await sign(wrong, 0.8, "ann")).toEqual({ outcome: "wrong" });
  });

  it("holds across processes: a second store on the same database sees the same failures", async () => {
    for (const s of [0, 0.1, 0.2]) await sign(wrong, s, "bob", "192.0.2.40");
    const other = m.rateStore();
    expect(await m.limitedSignIn(other, { username: "bob", address: "192.0.2.40" }, right, { now: at(0.3), limits: LIMITS })).toMatchObject({ outcome: "locked" });
  });

  it("an address trying many usernames is locked for all of them; another address is not", async () => {
    for (let i = 0; i < 5; i++) expect(await sign(wrong, 1, `guess-${i}`, "192.0.2.5")).toEqual({ outcome: "wrong" });
    expect(await sign(right, 2, "cat", "192.0.2.5")).toEqual({ outcome: "locked", message: `${LOCKED_PREFIX} from your network address: try again in 14 min.` });
    expect(await sign(right, 2, "cat", "192.0.2.6")).toMatchObject({ outcome: "signed-in" });
  });

  it("attempts sent in parallel count against each other; a check that throws is not a failure", async () => {
    const slow = () => new Promise<null>((resolve) => setTimeout(() => resolve(null), 5));
    const outcomes = await Promise.all(Array.from({ length: 8 }, () => sign(slow, 3, "dan", "192.0.2.30")));
    expect(outcomes.filter((o) => o.outcome === "locked").length).toBeGreaterThanOrEqual(5);
    for (let i = 0; i < 5; i++) await expect(sign(() => Promise.reject(new Error("db down")), 3, "eve", "192.0.2.31")).rejects.toThrow("db down");
    expect(await sign(right, 3, "eve", "192.0.2.31")).toMatchObject({ outcome: "signed-in" });
  });

  it("sign-ups: a few per address and hour, counted for every process; a refused one is not counted", async () => {
    const store = m.rateStore();
    for (let i = 0; i < 3; i++) expect(await m.signUpAllowed(store, "198.51.100.20", 3, at(i))).toEqual({ allowed: true });
    expect(await m.signUpAllowed(store, "198.51.100.20", 3, at(10))).toEqual({ allowed: false, message: "Too many accounts created from your network address: try again in 50 min." });
    expect(await m.signUpAllowed(store, "198.51.100.21", 3, at(10))).toEqual({ allowed: true });
    expect(await m.signUpAllowed(store, "198.51.100.20", 3, at(60))).toEqual({ allowed: true });
  });
});

describe("clientAddress", () => {
  it("takes the last X-Forwarded-For entry (the nearest proxy's) behind a trusted proxy, without the IPv4-mapped prefix", async () => {
    const { clientAddress } = await import("./login-attempts");
    expect(clientAddress({ "x-forwarded-for": "10.0.0.1, 198.51.100.7" }, true, "10.0.0.9")).toBe("198.51.100.7");
    expect(clientAddress(new Headers({ "x-forwarded-for": "::ffff:127.0.0.1" }), true, null)).toBe("127.0.0.1");
    expect(clientAddress({ "x-forwarded-for": "2001:DB8::1" }, true, null)).toBe("2001:db8::1");
    expect(clientAddress({}, true, null)).toBeNull();
  });

  it("without a trusted proxy, tells clients apart by the connection's peer, whatever X-Forwarded-For says", async () => {
    const { clientAddress } = await import("./login-attempts");
    expect(clientAddress({ "x-forwarded-for": "198.51.100.7" }, false, "::ffff:203.0.113.4")).toBe("203.0.113.4");
    expect(clientAddress({}, false, "2001:DB8::2")).toBe("2001:db8::2");
    // behind a proxy that sent no header, the proxy is the peer
    expect(clientAddress({}, true, "10.0.0.9")).toBe("10.0.0.9");
    expect(clientAddress({}, false, null)).toBeNull();
  });
});
