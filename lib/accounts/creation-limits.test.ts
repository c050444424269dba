/**
 * The daily limits on what a user creates besides submissions and proposals
 * (teams, systems, API tokens), against a real SQLite file: the limit's
 * creation is refused with 429 and changes nothing, deleting what was made
 * gives no slot back, and one user's count is not another's.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { LimitError } from "@/core/errors";
import { openTestDb } from "@/lib/testing/test-db";
import type { Viewer } from "@/lib/accounts/users";

let t: Awaited<ReturnType<typeof openTestDb>>;
let teams: typeof import("@/lib/teams/data");
let users: typeof import("@/lib/accounts/users");
let systems: typeof import("@/lib/teams/systems");
let tokens: typeof import("@/lib/accounts/api-tokens");
let DAILY_CREATIONS: typeof import("@/lib/accounts/creation-limits").DAILY_CREATIONS;

beforeAll(async () => {
  t = await openTestDb({ importDemo: false });
  teams = await import("@/lib/teams/data");
  users = await import("@/lib/accounts/users");
  systems = await import("@/lib/teams/systems");
  tokens = await import("@/lib/accounts/api-tokens");
  ({ DAILY_CREATIONS } = await import("@/lib/accounts/creation-limits"));
});

afterAll(async () => t?.close());

const user = async (username: string): Promise<Viewer> => (await users.viewerById((await users.createUser({ username, password: "correct horse battery" })).id))!;
const again = async (v: Viewer): Promise<Viewer> => (await users.viewerById(v.id))!;

async function refused(call: () => Promise<unknown>, message: RegExp) {
  const counts = async () => Promise.all([t.db.team.count(), t.db.system.count(), t.db.apiToken.count()]);
  const before = await counts();
  const e = await call().then(() => null, (e: unknown) => e);
  expect(e).toBeInstanceOf(LimitError);
  expect((e as LimitError).status).toBe(429);
  expect((e as LimitError).message).toMatch(message);
  expect(await counts()).toEqual(before);
}

it("a user creates at most DAILY_CREATIONS.team teams a day; deleting a team's rows gives no slot back; another user is not counted", async () => {
  const ann = await user("ann-limits");
  for (let i = 0; i < DAILY_CREATIONS.team; i++) await teams.createTeam(ann, { name: `Ann team ${i}` });
  await refused(() => teams.createTeam(ann, { name: "Ann team extra" }), new RegExp(`^you created ${DAILY_CREATIONS.team} teams in the last 24 hours, the most one user may; the next can be made at \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2} UTC$`));
  await t.db.team.deleteMany({ where: { name: { startsWith: "Ann team" } } });
  await refused(() => teams.createTeam(ann, { name: "Ann team after" }), /you created 5 teams/);
  const bob = await user("bob-limits");
  await expect(teams.createTeam(bob, { name: "Bob team" })).resolves.toMatchObject({ slug: "bob-team" });
});

it("systems and API tokens are counted per user the same way", async () => {
  const cat = await user("cat-limits");
  await teams.createTeam(cat, { name: "Cat team" });
  const member = await again(cat);
  for (let i = 0; i < DAILY_CREATIONS.system; i++) await systems.createSystem(member, "cat-team", { name: `sys-${i}`, model: "m", scaffold: "s", contextConfig: "Baseline" });
  await refused(() => systems.createSystem(member, "cat-team", { name: "sys-extra", model: "m", scaffold: "s", contextConfig: "Baseline" }), /^you created 20 systems in the last 24 hours/);
  for (let i = 0; i < DAILY_CREATIONS.api_token; i++) await tokens.createApiToken(cat.id, { name: `t${i}` });
  await refused(() => tokens.createApiToken(cat.id, { name: "extra" }), /^you created 20 API tokens in the last 24 hours/);
});
