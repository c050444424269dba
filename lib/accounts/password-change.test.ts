/**
 * Changing a password against a real database: the current password is
 * required (and guessed no faster than at sign-in), the new one passes the
 * sign-up policy, the user's other sessions end while the asking one and the
 * API tokens stay, and a refusal changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FieldError, LimitError } from "@/core/errors";
import { openTestDb } from "@/lib/testing/test-db";
import type { Viewer } from "./users";

let t: Awaited<ReturnType<typeof openTestDb>>;
let m: typeof import("./password-change");
let users: typeof import("./users");
let sessions: typeof import("./sessions");
let rates: typeof import("./rate-events");
let tokens: typeof import("./api-tokens");
let ann: Viewer;

const OLD = "correct horse battery";
const NEW = "staple gun orbit lantern";

beforeAll(async () => {
  t = await openTestDb({ importDemo: false });
  m = await import("./password-change");
  users = await import("./users");
  sessions = await import("./sessions");
  rates = await import("./rate-events");
  tokens = await import("./api-tokens");
  const { id } = await users.createUser({ username: "ann", password: OLD });
  ann = (await users.viewerById(id))!;
}, 60_000);
afterAll(async () => t?.close());

const change = (input: unknown, sessionToken: string | null, address = "198.51.100.40") => m.changePassword(rates.rateStore(), ann, input, { sessionToken, address });
const refusal = (call: Promise<unknown>) => call.then(() => null, (e: unknown) => e as Error);
const hash = async () => (await t.db.user.findUniqueOrThrow({ where: { id: ann.id } })).passwordHash;

describe("changePassword", () => {
  it("refuses a wrong current password, a weak or unchanged new one, naming the field and changing nothing", async () => {
    const before = await hash();
    const here = await sessions.openSession(ann.id, 3600);
    for (const [input, field, message] of [
      [{ current: "not the password", password: NEW }, "current", "current: is not your current password"],
      [{ current: OLD, password: "Summer2024!" }, "password", /^password: is too easy to guess/],
      [{ current: OLD, password: "ann-is-my-name-2026" }, "password", "password: must not contain the username"],
      [{ current: OLD, password: OLD }, "password", "password: is the current password; choose a new one"],
    ] as const) {
      const e = await refusal(change(input, here));
      expect(e, JSON.stringify(input)).toBeInstanceOf(FieldError);
      expect((e as FieldError).field).toBe(field);
      expect(e!.message).toMatch(message);
    }
    expect(await refusal(change({ current: OLD, password: "short" }, here))).toBeTruthy();
    expect(await hash()).toBe(before);
    expect(await sessions.sessionIsOpen(here, ann.id)).toBe(true);
  });

  it("sets the new password and ends every other session of the user, keeping the asking one and the API tokens", async () => {
    const here = await sessions.openSession(ann.id, 3600);
    const laptop = await sessions.openSession(ann.id, 3600);
    const stolen = await sessions.openSession(ann.id, 3600);
    const { id: bobId } = await users.createUser({ username: "bob", password: OLD });
    const bobs = await sessions.openSession(bobId, 3600);
    const { token } = await tokens.createApiToken(ann.id, { name: "ci", scopes: ["read"] });

    expect(await change({ current: OLD, password: NEW }, here)).toEqual({ endedSessions: 3 });
    expect(await users.authenticate("ann", NEW)).toBe(ann.id);
    expect(await users.authenticate("ann", OLD)).toBeNull();
    expect(await sessions.sessionIsOpen(here, ann.id)).toBe(true);
    for (const gone of [laptop, stolen]) expect(await sessions.sessionIsOpen(gone, ann.id)).toBe(false);
    expect(await sessions.sessionIsOpen(bobs, bobId)).toBe(true);
    expect(await tokens.viewerForToken(token, "read")).toMatchObject({ id: ann.id });
  });

  it("guesses at the current password count as failed sign-ins: the form is no faster an oracle than /signin", async () => {
    const here = await sessions.openSession(ann.id, 3600);
    let last: Error | null = null;
    for (let i = 0; i < 8 && !(last instanceof LimitError); i++) last = await refusal(change({ current: `guess number ${i}`, password: "a brand new passphrase" }, here, "198.51.100.41"));
    expect(last).toBeInstanceOf(LimitError);
    expect((last as LimitError).field).toBe("current");
    // even the right password waits now, from that address
    expect(await refusal(change({ current: NEW, password: "a brand new passphrase" }, here, "198.51.100.41"))).toBeInstanceOf(LimitError);
  });
});
