/** Server-side sessions against a real database: opened, checked, closed, expired. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDb } from "@/lib/testing/test-db";

let t: Awaited<ReturnType<typeof openTestDb>>;
let sessions: typeof import("@/lib/accounts/sessions");
let ann = "";
let bob = "";

beforeAll(async () => {
  t = await openTestDb({ importDemo: false });
  sessions = await import("@/lib/accounts/sessions");
  const users = await import("@/lib/accounts/users");
  ann = (await users.createUser({ username: "ann", password: "correct horse battery" })).id;
  bob = (await users.createUser({ username: "bob", password: "correct horse battery" })).id;
});
afterAll(async () => t?.close());

describe("sessions", () => {
  it("an open session is its user's until it is closed", async () => {
    const id = await sessions.openSession(ann, 3600);
    expect(await sessions.sessionIsOpen(id, ann)).toBe(true);
    expect(await sessions.sessionIsOpen(id, bob)).toBe(false);
    const other = await sessions.openSession(ann, 3600);
    await sessions.closeSession(id);
    expect(await sessions.sessionIsOpen(id, ann)).toBe(false);
    // closing one leaves the user's others open
    expect(await sessions.sessionIsOpen(other, ann)).toBe(true);
  });

  it("an expired session is closed, and an unknown id is no session", async () => {
    const id = await sessions.openSession(bob, -1);
    expect(await sessions.sessionIsOpen(id, bob)).toBe(false);
    expect(await sessions.sessionIsOpen("not-a-session", bob)).toBe(false);
  });
});
