/**
 * Teams, members, systems and site roles against a real SQLite file: every
 * authorization rule (team admin, member, outsider, visitor, site admin), the
 * last-admin rule, unique names, and that a refused call changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZodError } from "zod";
import { FieldError, ForbiddenError, LimitError, NotFoundError, UnauthorizedError } from "@/core/errors";
import { openTestDb } from "@/lib/testing/test-db";
import type { Viewer } from "@/lib/accounts/users";

let t: Awaited<ReturnType<typeof openTestDb>>;
let teams: typeof import("@/lib/teams/data");
let users: typeof import("@/lib/accounts/users");
let systems: typeof import("@/lib/teams/systems");
let invitations: typeof import("@/lib/teams/invitations");
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await openTestDb({ importDemo: false });
  teams = await import("@/lib/teams/data");
  users = await import("@/lib/accounts/users");
  systems = await import("@/lib/teams/systems");
  invitations = await import("@/lib/teams/invitations");
  for (const username of ["ann", "bob", "cat", "dan", "root"]) {
    ids[username] = (await users.createUser({ username, password: "correct horse battery" }, { isSiteAdmin: username === "root" })).id;
  }
});

afterAll(async () => t?.close());

/** A fresh Viewer, as each request reads one (memberships change during the tests). */
const as = async (username: string): Promise<Viewer> => (await users.viewerById(ids[username]!))!;

/** Everything a refused call must leave as it was. */
async function snapshot() {
  const [team, member, invitation, system] = await Promise.all([
    t.db.team.findMany({ orderBy: { id: "asc" } }),
    t.db.teamMember.findMany({ orderBy: { id: "asc" } }),
    t.db.teamInvitation.findMany({ orderBy: { id: "asc" } }),
    t.db.system.findMany({ orderBy: { id: "asc" } }),
  ]);
  return { team, member, invitation, system };
}

/** Expects the call to be refused with `kind` (and field) and to change nothing. */
async function refused(call: () => Promise<unknown>, kind: new (...a: never[]) => Error, field?: string) {
  const before = await snapshot();
  const err = await call().then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(kind);
  if (field) expect((err as FieldError).field).toBe(field);
  expect(await snapshot()).toEqual(before);
  return err as Error;
}

/** `by` invites `username` into acme-labs, and they accept. */
async function join(by: string, username: string) {
  await invitations.inviteMember(await as(by), "acme-labs", { username });
  const [invitation] = await invitations.receivedInvitations(await as(username));
  await invitations.answerInvitation(await as(username), invitation!.id, "accept");
}

const system = { name: "sys-a", model: "model-x", scaffold: "scaffold-y", contextConfig: "Baseline" };

describe("createTeam and listTeams", () => {
  it("makes the creator the team's admin and lists only the viewer's teams", async () => {
    const created = await teams.createTeam(await as("ann"), { name: "  Acme Labs " });
    expect(created.slug).toBe("acme-labs");
    expect(await teams.listTeams(await as("ann"))).toEqual([{ slug: "acme-labs", name: "Acme Labs", role: "admin", members: 1, systems: 0 }]);
    expect(await teams.listTeams(await as("bob"))).toEqual([]);
    expect(await teams.listTeams(null)).toEqual([]);
  });

  it("refuses a taken name, one differing only in case or punctuation, and a visitor", async () => {
    await refused(async () => teams.createTeam(await as("bob"), { name: "Acme Labs" }), FieldError, "name");
    await refused(async () => teams.createTeam(await as("bob"), { name: "acme-LABS!" }), FieldError, "name");
    await refused(() => teams.createTeam(null, { name: "Visitors" }), UnauthorizedError);
    await refused(async () => teams.createTeam(await as("bob"), { name: "!!" }), ZodError);
  });
});

describe("members", () => {
  it("'no user' answers are counted per sender's address: past the hour's limit every name is refused alike, and nothing is sent", async () => {
    const from = { address: "198.51.100.120" };
    // the default limit (CHAINSWE_USERNAME_PROBES_PER_HOUR): 20 names that do not exist
    for (let i = 0; i < 20; i++) await refused(async () => invitations.inviteMember(await as("ann"), "acme-labs", { username: `ghost-${i}` }, new Date(), from), FieldError, "username");
    for (const username of ["ghost-x", "cat"]) {
      const e = await refused(async () => invitations.inviteMember(await as("ann"), "acme-labs", { username }, new Date(), from), LimitError);
      expect(e.message).toMatch(/^Too many attempts naming taken or unknown usernames from your network address/);
    }
    // another address is not held back; an invitation actually sent is not a probe
    await refused(async () => invitations.inviteMember(await as("ann"), "acme-labs", { username: "ghost-x" }, new Date(), { address: "198.51.100.121" }), FieldError, "username");
    for (let i = 0; i < 25; i++) {
      await invitations.inviteMember(await as("ann"), "acme-labs", { username: "cat" }, new Date(), { address: "198.51.100.122" });
      await t.db.teamInvitation.deleteMany({ where: { userId: ids.cat } });
    }
    await t.db.rateEvent.deleteMany({});
  }, 30_000);

  it("a team admin invites by username; nobody is a member before accepting; refusals name the field", async () => {
    await invitations.inviteMember(await as("ann"), "acme-labs", { username: "bob" });
    expect((await as("bob")).teams).toEqual([]);
    const [received] = await invitations.receivedInvitations(await as("bob"));
    expect(received).toMatchObject({ team: { slug: "acme-labs", name: "Acme Labs" }, role: "member", invitedBy: "ann" });
    expect((await teams.getTeam(await as("ann"), "acme-labs")).invitations).toMatchObject([{ username: "bob", role: "member", invitedBy: "ann" }]);
    await refused(async () => invitations.inviteMember(await as("ann"), "acme-labs", { username: "bob" }), FieldError, "username");
    await refused(async () => invitations.inviteMember(await as("ann"), "acme-labs", { username: "nobody" }), FieldError, "username");
    await refused(async () => invitations.inviteMember(await as("ann"), "acme-labs", { username: "ann" }), FieldError, "username");
    await invitations.answerInvitation(await as("bob"), received!.id, "accept");
    expect((await as("bob")).teams).toMatchObject([{ slug: "acme-labs", role: "member" }]);
    expect(await invitations.receivedInvitations(await as("bob"))).toEqual([]);
    await refused(async () => invitations.answerInvitation(await as("bob"), received!.id, "accept"), NotFoundError);
  });

  it("only the invitee accepts or declines, only the team's admins withdraw; others get not-found", async () => {
    await invitations.inviteMember(await as("ann"), "acme-labs", { username: "cat", role: "admin" });
    const [forCat] = await invitations.receivedInvitations(await as("cat"));
    for (const who of ["ann", "bob", "dan"]) {
      await refused(async () => invitations.answerInvitation(await as(who), forCat!.id, "accept"), NotFoundError);
    }
    await refused(async () => invitations.answerInvitation(await as("bob"), forCat!.id, "withdraw"), NotFoundError);
    await refused(async () => invitations.answerInvitation(await as("cat"), forCat!.id, "withdraw"), NotFoundError);
    await refused(() => invitations.answerInvitation(null, forCat!.id, "accept"), UnauthorizedError);
    await refused(async () => invitations.answerInvitation(await as("cat"), "no-such-id", "accept"), NotFoundError);
    // bob, a plain member, sees no invitations; cat declines, and stays out
    expect((await teams.getTeam(await as("bob"), "acme-labs")).invitations).toBeNull();
    await invitations.answerInvitation(await as("cat"), forCat!.id, "decline");
    expect((await as("cat")).teams).toEqual([]);
    // invited again, then withdrawn by ann: cat can no longer accept
    await invitations.inviteMember(await as("ann"), "acme-labs", { username: "cat" });
    const [again] = await invitations.receivedInvitations(await as("cat"));
    await invitations.answerInvitation(await as("ann"), again!.id, "withdraw");
    expect(await invitations.receivedInvitations(await as("cat"))).toEqual([]);
    await refused(async () => invitations.answerInvitation(await as("cat"), again!.id, "accept"), NotFoundError);
  });

  it("an invitation dies after its days: not listed, not accepted, and a new one replaces it", async () => {
    const long = new Date(Date.now() - (invitations.INVITATION_DAYS + 1) * 86_400_000);
    await invitations.inviteMember(await as("ann"), "acme-labs", { username: "dan" }, long);
    const [old] = await t.db.teamInvitation.findMany({ where: { userId: ids.dan! } });
    expect(await invitations.receivedInvitations(await as("dan"))).toEqual([]);
    await refused(async () => invitations.answerInvitation(await as("dan"), old!.id, "accept"), NotFoundError);
    await invitations.inviteMember(await as("ann"), "acme-labs", { username: "dan" });
    const [fresh] = await invitations.receivedInvitations(await as("dan"));
    expect(fresh!.id).not.toBe(old!.id);
    await invitations.answerInvitation(await as("dan"), fresh!.id, "decline");
  });

  it("a team holds a bounded number of open invitations", async () => {
    // accounts without a password (none signs in here): hashing 50 passwords would only slow the test
    const extra = Array.from({ length: invitations.MAX_OPEN_INVITATIONS }, (_, i) => `invitee-${i}`);
    await t.db.user.createMany({ data: extra.map((username) => ({ username })) });
    for (const username of extra.slice(0, -1)) await invitations.inviteMember(await as("ann"), "acme-labs", { username });
    await invitations.inviteMember(await as("ann"), "acme-labs", { username: extra.at(-1)! });
    await refused(async () => invitations.inviteMember(await as("ann"), "acme-labs", { username: "dan" }), LimitError);
    // their invitations go with them
    await t.db.user.deleteMany({ where: { username: { in: extra } } });
    expect(await t.db.teamInvitation.count()).toBe(0);
  }, 30_000);

  it("members, outsiders and visitors may not invite; unknown teams are not found", async () => {
    await refused(async () => invitations.inviteMember(await as("bob"), "acme-labs", { username: "cat" }), ForbiddenError);
    await refused(async () => invitations.inviteMember(await as("cat"), "acme-labs", { username: "cat" }), ForbiddenError);
    await refused(() => invitations.inviteMember(null, "acme-labs", { username: "cat" }), UnauthorizedError);
    await refused(async () => invitations.inviteMember(await as("ann"), "no-such-team", { username: "cat" }), NotFoundError);
  });

  it("shows members to members (and site admins) only; everyone sees the systems", async () => {
    await systems.createSystem(await as("bob"), "acme-labs", { ...system, links: [{ label: "paper", url: "https://example.org/p" }] });
    const forMember = await teams.getTeam(await as("bob"), "acme-labs");
    expect(forMember.members?.map((m) => [m.username, m.role, m.isViewer])).toEqual([
      ["ann", "admin", false],
      ["bob", "member", true],
    ]);
    expect(forMember).toMatchObject({ role: "member", canEditSystems: true, canManageMembers: false });
    for (const viewer of [await as("cat"), null]) {
      const view = await teams.getTeam(viewer, "acme-labs");
      expect(view).toMatchObject({ name: "Acme Labs", members: null, role: null, canEditSystems: false, canManageMembers: false });
      expect(view.systems.map((s) => [s.name, s.links])).toEqual([["sys-a", [{ label: "paper", url: "https://example.org/p" }]]]);
    }
    expect(await teams.getTeam(await as("root"), "acme-labs")).toMatchObject({ canManageMembers: true, canEditSystems: false });
    expect((await teams.getTeam(await as("root"), "acme-labs")).members).toHaveLength(2);
    await expect(teams.getTeam(await as("ann"), "nope")).rejects.toBeInstanceOf(NotFoundError);
  });

  it("only team admins change roles", async () => {
    await refused(async () => teams.setMemberRole(await as("bob"), "acme-labs", ids.bob!, { role: "admin" }), ForbiddenError);
    await refused(async () => teams.setMemberRole(await as("cat"), "acme-labs", ids.bob!, { role: "admin" }), ForbiddenError);
    await refused(() => teams.setMemberRole(null, "acme-labs", ids.bob!, { role: "admin" }), UnauthorizedError);
    await refused(async () => teams.setMemberRole(await as("ann"), "acme-labs", ids.cat!, { role: "admin" }), NotFoundError);
  });

  it("the last admin can neither demote themself nor leave; with a second admin they can", async () => {
    await refused(async () => teams.setMemberRole(await as("ann"), "acme-labs", ids.ann!, { role: "member" }), FieldError, "role");
    await refused(async () => teams.removeMember(await as("ann"), "acme-labs", ids.ann!), FieldError, "member");
    await teams.setMemberRole(await as("ann"), "acme-labs", ids.bob!, { role: "admin" });
    await teams.setMemberRole(await as("ann"), "acme-labs", ids.ann!, { role: "member" });
    expect((await as("ann")).teams).toMatchObject([{ role: "member" }]);
    // bob is now the only admin
    await refused(async () => teams.setMemberRole(await as("bob"), "acme-labs", ids.bob!, { role: "member" }), FieldError, "role");
    await refused(async () => teams.removeMember(await as("bob"), "acme-labs", ids.bob!), FieldError, "member");
  });

  it("members leave on their own but do not remove others; admins remove anyone", async () => {
    await join("bob", "cat");
    await refused(async () => teams.removeMember(await as("ann"), "acme-labs", ids.cat!), ForbiddenError);
    await refused(async () => teams.removeMember(await as("dan"), "acme-labs", ids.cat!), ForbiddenError);
    await refused(async () => teams.removeMember(await as("dan"), "acme-labs", ids.dan!), ForbiddenError);
    await refused(() => teams.removeMember(null, "acme-labs", ids.cat!), UnauthorizedError);
    await teams.removeMember(await as("cat"), "acme-labs", ids.cat!);
    await teams.removeMember(await as("bob"), "acme-labs", ids.ann!);
    expect((await teams.getTeam(await as("bob"), "acme-labs")).members?.map((m) => m.username)).toEqual(["bob"]);
    await refused(async () => teams.removeMember(await as("bob"), "acme-labs", ids.ann!), NotFoundError);
  });
});

describe("systems", () => {
  it("any member creates and edits; names are unique per team only", async () => {
    await join("bob", "dan");
    const { id } = await systems.createSystem(await as("dan"), "acme-labs", { ...system, name: "sys-b", openWeights: true });
    await systems.updateSystem(await as("dan"), id, { ...system, name: "sys-b2", contextConfig: "Sub-Agent", openScaffold: true });
    const row = await t.db.system.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ name: "sys-b2", contextConfig: "Sub-Agent", openWeights: false, openScaffold: true, links: "[]" });
    await teams.createTeam(await as("cat"), { name: "Other" });
    await systems.createSystem(await as("cat"), "other", system); // "sys-a" again, another team
  });

  it("refuses a taken name, outsiders, visitors and unknown ids, changing nothing", async () => {
    const [sysA] = (await teams.getTeam(null, "acme-labs")).systems;
    await refused(async () => systems.createSystem(await as("dan"), "acme-labs", system), FieldError, "name");
    await refused(async () => systems.updateSystem(await as("dan"), sysA!.id, { ...system, name: "sys-b2" }), FieldError, "name");
    await refused(async () => systems.createSystem(await as("cat"), "acme-labs", { ...system, name: "new" }), ForbiddenError);
    await refused(async () => systems.updateSystem(await as("cat"), sysA!.id, { ...system, name: "new" }), ForbiddenError);
    await refused(async () => systems.updateSystem(await as("root"), sysA!.id, { ...system, name: "new" }), ForbiddenError);
    await refused(() => systems.createSystem(null, "acme-labs", { ...system, name: "new" }), UnauthorizedError);
    await refused(async () => systems.updateSystem(await as("dan"), "no-such-id", system), NotFoundError);
    await refused(async () => systems.createSystem(await as("dan"), "no-such-team", system), NotFoundError);
    const err = await refused(async () => systems.createSystem(await as("dan"), "acme-labs", { ...system, name: "x", links: [{ label: "l", url: "not a url" }] }), ZodError);
    expect((err as ZodError).issues[0]?.path).toEqual(["links", 0, "url"]);
  });

  it("reads the system form: checkboxes and one link per line", () => {
    const form = new FormData();
    for (const [k, v] of Object.entries({ ...system, openWeights: "on", trainingCutoff: "2024-03-31", releaseDate: "", links: "Paper https://a.org/p\n\n https://b.org \n" })) form.set(k, v);
    const parsed = systems.systemInputSchema.parse(systems.systemFormInput(form));
    expect(parsed).toEqual({
      ...system,
      openWeights: true,
      openScaffold: false,
      // an empty date field is no date
      releaseDate: null,
      trainingCutoff: "2024-03-31",
      links: [
        { label: "Paper", url: "https://a.org/p" },
        { label: "https://b.org", url: "https://b.org" },
      ],
    });
    expect(systems.linksText(parsed.links)).toBe("Paper https://a.org/p\nhttps://b.org");
    form.set("trainingCutoff", "March 2024");
    expect(systems.systemInputSchema.safeParse(systems.systemFormInput(form)).error?.issues[0]).toMatchObject({ path: ["trainingCutoff"], message: "expected a day, YYYY-MM-DD" });
  });
});

describe("site administration", () => {
  it("is not found for anyone but site admins", async () => {
    await expect(users.siteAdminView(null)).rejects.toBeInstanceOf(NotFoundError);
    await expect(users.siteAdminView(await as("ann"))).rejects.toBeInstanceOf(NotFoundError);
    await expect(users.changeSiteRole(await as("ann"), { username: "ann", role: "site_admin", granted: "true" })).rejects.toBeInstanceOf(NotFoundError);
    expect((await as("ann")).isSiteAdmin).toBe(false);
  });

  it("grants and revokes roles with the admin as actor, but not the admin's own site admin role", async () => {
    await users.changeSiteRole(await as("root"), { username: "ann", role: "reviewer", granted: "true" });
    await users.changeSiteRole(await as("root"), { username: "ann", role: "reviewer", granted: "false" });
    await users.changeSiteRole(await as("root"), { username: "bob", role: "site_admin", granted: "true" });
    await expect(users.changeSiteRole(await as("root"), { username: "root", role: "site_admin", granted: "false" })).rejects.toBeInstanceOf(FieldError);
    await expect(users.changeSiteRole(await as("root"), { username: "nobody", role: "reviewer", granted: "true" })).rejects.toBeInstanceOf(FieldError);
    const view = await users.siteAdminView(await as("root"));
    expect(view.users.map((u) => [u.username, u.isReviewer, u.isSiteAdmin])).toEqual([
      ["ann", false, false],
      ["bob", false, true],
      ["cat", false, false],
      ["dan", false, false],
      ["root", false, true],
    ]);
    // newest first; entries written in the same millisecond may come in either order
    const audit = view.audit.rows.map((a) => [a.actor?.username, a.action, a.subject.label, a.reason]);
    expect(audit).toHaveLength(3);
    expect(audit).toEqual(
      expect.arrayContaining([
        ["root", "role_granted", "bob", "site_admin"],
        ["root", "role_revoked", "ann", "reviewer"],
        ["root", "role_granted", "ann", "reviewer"],
      ]),
    );
  });
});
