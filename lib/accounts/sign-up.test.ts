/**
 * Sign-up's limits against a real database: a "taken" answer is counted as a
 * username probe and uses no account slot; past the probe limit every name is
 * refused alike (so the refusal tells nothing); only created accounts use the
 * hour's sign-ups; each address has its own counts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FieldError, LimitError } from "@/core/errors";
import { openTestDb } from "@/lib/testing/test-db";

let t: Awaited<ReturnType<typeof openTestDb>>;
let m: typeof import("./sign-up");
let rates: typeof import("./rate-events");

beforeAll(async () => {
  t = await openTestDb({ importDemo: false });
  m = await import("./sign-up");
  rates = await import("./rate-events");
}, 60_000);

afterAll(async () => t?.close());

const T0 = Date.parse("2026-12-05T12:00:00Z");
const at = (minutes: number) => T0 + minutes * 60_000;
const PASSWORD = "correct horse battery staple";
const LIMITS = { signUpsPerHour: 2, probesPerHour: 3 };
const signUp = (username: string, address: string | null, minutes = 0) =>
  m.signUpFromSite(rates.rateStore(), { username, password: PASSWORD }, { address }, LIMITS, at(minutes));
const refusal = (call: Promise<unknown>) => call.then(() => null, (e: unknown) => e as Error);

describe("signUpFromSite", () => {
  it("answers 'taken' without using one of the address's accounts", async () => {
    await signUp("su-ann", "198.51.100.80");
    for (let i = 0; i < 2; i++) {
      const e = await refusal(signUp("su-ann", "198.51.100.81"));
      expect(e).toBeInstanceOf(FieldError);
      expect(e?.message).toBe('username: "su-ann" is taken');
    }
    // two "taken" answers used no account: both of the hour's are still there
    await signUp("su-bob", "198.51.100.81", 1);
    await signUp("su-cat", "198.51.100.81", 2);
    expect(await refusal(signUp("su-dan", "198.51.100.81", 3))).toMatchObject({ message: "Too many accounts created from your network address: try again in 58 min." });
  });

  it("stops answering whether a name exists past the probe limit, for taken and free names alike, per address", async () => {
    for (const name of ["su-x1", "su-x2", "su-x3"]) await t.db.user.create({ data: { username: name, name } });
    for (const name of ["su-x1", "su-x2", "su-x3"]) expect(await refusal(signUp(name, "198.51.100.90"))).toBeInstanceOf(FieldError);
    for (const name of ["su-x1", "su-free"]) {
      const e = await refusal(signUp(name, "198.51.100.90", 1));
      expect(e).toBeInstanceOf(LimitError);
      expect(e?.message).toBe("Too many attempts naming taken or unknown usernames from your network address: try again in 59 min.");
    }
    expect(await t.db.user.count({ where: { username: "su-free" } })).toBe(0);
    // another address is not held back, and the hour passes
    await signUp("su-free", "198.51.100.91", 1);
    expect(await refusal(signUp("su-x1", "198.51.100.90", 61))).toBeInstanceOf(FieldError);
  });

  it("a form that does not parse uses neither count", async () => {
    for (let i = 0; i < 5; i++) expect(await refusal(m.signUpFromSite(rates.rateStore(), { username: "su-weak", password: "Summer2024!" }, { address: "198.51.100.95" }, LIMITS, at(0)))).toBeTruthy();
    await signUp("su-eve", "198.51.100.95");
    await signUp("su-fay", "198.51.100.95");
  });
});
