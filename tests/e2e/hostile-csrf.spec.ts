/**
 * CSRF on every state-changing route handler and every
 * server action (tests/e2e/hostile-routes.ts lists them; a unit test keeps the
 * list complete): each is sent with a signed-in person's cookie but from
 * another site, with no Origin, and from an opaque origin (server actions
 * also with an Authorization header, which switches nothing off), and must
 * answer 403 and change nothing. The same request from this site then goes through (or
 * fails for another reason), so the refusal is the origin's doing.
 * Server actions are the browser's real requests, caught before delivery and
 * replayed forged.
 */
import { expect, test, type APIRequestContext, type APIResponse, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { readFileSync } from "node:fs";
import { jsonl, proposedChain } from "@/lib/testing/proposed-chains";
import { DEMO_VERSION } from "./site";
import { PASSWORD, createToken, signUp } from "./steps";
import { SERVER_ACTIONS, STATE_CHANGING_ROUTES, type ServerAction, type StateChangingRoute } from "./hostile-routes";
import { deleteVersion } from "./steps";
import {
  CHAIN,
  FORGED_ORIGINS,
  FORGED_WITH_AUTHORIZATION,
  GOLD_ORACLE,
  bearer,
  captureAction,
  dbGet,
  randomCuid,
  replayAction,
  reviewer,
  teamMember,
  trajectoriesArchive,
  upload,
  waitForStatus,
  type Actor,
} from "./hostile-steps";

const run = Date.now().toString(36);
let owner: Actor;
let rev: Awaited<ReturnType<typeof reviewer>>;
/** a person with no team, whom the team and admin actions act on */
const victim = `hw-victim-${run}`;
/** the victim's own browser, signed in (they answer the invitation) */
let victimContext: BrowserContext;
/** owner's completed private submission */
let completedId: string;
/** a visitor's browser, which a forged sign-in would sign in (login CSRF) */
let visitor: BrowserContext;

test.beforeAll(async ({ browser }) => {
  test.setTimeout(8 * 60_000);
  owner = await teamMember(browser, `hw-csrf-${run}`, `HW CSRF ${run}`);
  rev = await reviewer(browser, `hw-csrf-rev-${run}`);
  victimContext = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  await signUp(await victimContext.newPage(), victim);
  visitor = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  completedId = await upload(owner.page.request, owner);
  await waitForStatus(owner.page.request, owner.token, completedId, "completed");
});

test.afterAll(async () => {
  await owner?.context.close();
  await rev?.context.close();
  await victimContext?.close();
  await visitor?.close();
});

const base = () => process.env.E2E_BASE_URL!;
const sameSite = () => ({ origin: base() });
const statusOf = (id: string) => dbGet<{ status: string; visibility: string }>(`SELECT status, visibility FROM Submission WHERE id = ?`, id);

async function expectRefused(res: APIResponse, what: string): Promise<void> {
  expect(res.status(), what).toBe(403);
  expect(((await res.json()) as { error: string }).error, what).toMatch(/^cross-site request refused/);
}

/** A submission still being evaluated (all five chains), for the cancel tests. */
async function running(request: APIRequestContext): Promise<string> {
  return upload(request, owner, { chains: null });
}

// ---------------------------------------------------------------- route handlers

type RouteCase = {
  /** whose cookie session sends it */
  as: () => BrowserContext;
  /** makes what the request acts on */
  setup?: () => Promise<void>;
  /** the state-changing request(s), with the given Origin headers */
  send: (r: APIRequestContext, origin: Record<string, string>) => Promise<APIResponse[]>;
  /** what they would change */
  probe: () => Promise<unknown>;
  /** the same kind of request from this site, refused for another reason (so the origin check let it through) */
  control: (r: APIRequestContext) => Promise<APIResponse>;
  controlStatus: number;
  cleanup?: () => Promise<void>;
};

let cancelTarget = "";
let deleteTarget = "";
const ROUTES: Record<StateChangingRoute, RouteCase> = {
  "app/api/auth/[...nextauth]/route.ts POST": {
    as: () => owner.context,
    // sign-out of the signed-in owner (logout CSRF), and sign-in of a visitor's browser as the owner (login CSRF)
    send: async (r, origin) => {
      const token = async (req: APIRequestContext) => ((await (await req.get("/api/auth/csrf")).json()) as { csrfToken: string }).csrfToken;
      const csrfToken = await token(r);
      const visitorToken = await token(visitor.request);
      const credentials = { csrfToken: visitorToken, json: "true", username: owner.username, password: PASSWORD };
      return [
        await r.post("/api/auth/signout", { headers: origin, form: { csrfToken, json: "true" }, maxRedirects: 0 }),
        await visitor.request.post("/api/auth/callback/credentials", { headers: origin, form: credentials, maxRedirects: 0 }),
      ];
    },
    probe: async () => {
      const session = async (c: BrowserContext) => ((await (await c.request.get("/api/auth/session")).json()) as { userId?: string }).userId ?? null;
      return { owner: await session(owner.context), visitor: await session(visitor) };
    },
    control: async (r) => {
      const { csrfToken } = (await (await r.get("/api/auth/csrf")).json()) as { csrfToken: string };
      return r.post("/api/auth/callback/credentials", { headers: sameSite(), form: { csrfToken, json: "true", username: owner.username, password: "not the password" }, maxRedirects: 0 });
    },
    controlStatus: 401,
  },
  "app/api/v1/submissions/route.ts POST": {
    as: () => owner.context,
    send: async (r, origin) => [
      await r.post("/api/v1/submissions", {
        headers: origin,
        multipart: {
          system: owner.system,
          dataset_version: DEMO_VERSION,
          mode: "oracle",
          predictions: { name: "p.jsonl", mimeType: "application/x-ndjson", buffer: readFileSync(GOLD_ORACLE) },
        },
      }),
    ],
    probe: async () => dbGet(`SELECT count(*) AS n FROM Submission s JOIN System y ON y.id = s.systemId JOIN Team t ON t.id = y.teamId WHERE t.slug = ?`, owner.slug),
    control: (r) =>
      r.post("/api/v1/submissions", {
        headers: sameSite(),
        multipart: { system: "no-such-team/none", dataset_version: DEMO_VERSION, mode: "oracle", predictions: { name: "p.jsonl", mimeType: "application/x-ndjson", buffer: Buffer.from("") } },
      }),
    controlStatus: 404,
  },
  "app/api/v1/submissions/[id]/route.ts DELETE": {
    as: () => owner.context,
    // a cancelled submission: private and no longer evaluated, so the team may delete it
    setup: async () => {
      deleteTarget = await running(owner.page.request);
      await owner.page.request.post(`/api/v1/submissions/${deleteTarget}/cancel`, { headers: bearer(owner.token) });
    },
    send: async (r, origin) => [await r.delete(`/api/v1/submissions/${deleteTarget}`, { headers: origin })],
    probe: async () => statusOf(deleteTarget) ?? null,
    control: (r) => r.delete(`/api/v1/submissions/${randomCuid()}`, { headers: sameSite() }),
    controlStatus: 404,
  },
  "app/api/v1/submissions/[id]/cancel/route.ts POST": {
    as: () => owner.context,
    setup: async () => void (cancelTarget = await running(owner.page.request)),
    send: async (r, origin) => [await r.post(`/api/v1/submissions/${cancelTarget}/cancel`, { headers: origin })],
    probe: async () => statusOf(cancelTarget)?.status === "cancelled",
    control: (r) => r.post(`/api/v1/submissions/${randomCuid()}/cancel`, { headers: sameSite() }),
    controlStatus: 404,
    cleanup: async () => void (await owner.page.request.post(`/api/v1/submissions/${cancelTarget}/cancel`, { headers: bearer(owner.token) })),
  },
  "app/api/v1/submissions/[id]/publication/route.ts POST": {
    as: () => owner.context,
    send: async (r, origin) => [await r.post(`/api/v1/submissions/${completedId}/publication`, { headers: origin, data: { action: "request_publication" } })],
    probe: async () => statusOf(completedId),
    control: (r) => r.post(`/api/v1/submissions/${completedId}/publication`, { headers: sameSite(), data: { action: "explode" } }),
    controlStatus: 400,
  },
  "app/api/v1/submissions/[id]/rerun/route.ts POST": {
    as: () => rev.context,
    send: async (r, origin) => [await r.post(`/api/v1/submissions/${completedId}/rerun`, { headers: origin })],
    probe: async () => ({ ...statusOf(completedId), graded: dbGet(`SELECT count(*) AS n FROM BugResult WHERE submissionId = ?`, completedId) }),
    control: (r) => r.post(`/api/v1/submissions/${randomCuid()}/rerun`, { headers: sameSite() }),
    controlStatus: 404,
  },
  "app/api/v1/proposals/route.ts POST": {
    as: () => owner.context,
    send: async (r, origin) => [
      await r.post("/api/v1/proposals", {
        headers: origin,
        multipart: { dataset_version: DEMO_VERSION, chains: { name: "c.jsonl", mimeType: "application/x-ndjson", buffer: Buffer.from(jsonl([proposedChain("inikit", `csrf-${run}`, { bugs: 1 })])) } },
      }),
    ],
    probe: async () => dbGet(`SELECT count(*) AS n FROM ChainProposal`),
    control: (r) => r.post("/api/v1/proposals", { headers: sameSite(), multipart: { dataset_version: "no-such-version", chains: { name: "c.jsonl", mimeType: "application/x-ndjson", buffer: Buffer.from("") } } }),
    controlStatus: 400,
  },
};

for (const key of STATE_CHANGING_ROUTES) {
  test(`CSRF, route handler ${key}: 403 from another site or with no Origin, nothing changed`, async () => {
    const c = ROUTES[key];
    const request = c.as().request;
    await c.setup?.();
    const before = await c.probe();
    try {
      for (const forged of FORGED_ORIGINS) {
        for (const res of await c.send(request, forged.headers)) await expectRefused(res, `${key}, ${forged.name}`);
        expect(await c.probe(), `${key}, ${forged.name}`).toEqual(before);
      }
      expect((await c.control(request)).status(), `${key}, from this site`).toBe(c.controlStatus);
      expect(await c.probe()).toEqual(before);
    } finally {
      await c.cleanup?.();
    }
  });
}

// ---------------------------------------------------------------- server actions

type ActionCase = {
  as: (browser: Browser) => Promise<BrowserContext>;
  /** where its form is */
  path: () => string;
  /** fills and submits the form (the request is caught, never delivered) */
  submit: (page: Page) => Promise<void>;
  /** what it changes */
  probe: () => unknown;
  /** puts back what the successful replay from this site changed, when later tests need it */
  cleanup?: () => Promise<void>;
};

const signedIn = (who: () => BrowserContext) => async () => who();
const teamId = () => dbGet<{ id: string }>(`SELECT id FROM Team WHERE slug = ?`, owner.slug)!.id;
const userId = (username: string) => dbGet<{ id: string }>(`SELECT id FROM User WHERE username = ?`, username)?.id;
const systemId = () => dbGet<{ id: string }>(`SELECT id FROM System WHERE teamId = ? AND name = 'hw-agent'`, teamId())!.id;
let actionTarget = "";

/** A proposal of one chain by the owner, once validated: the reviewer's decision on it is the review action's target. */
async function validProposal(): Promise<{ proposal: string; chain: string }> {
  const res = await owner.page.request.post("/api/v1/proposals", {
    headers: bearer(owner.token),
    multipart: { dataset_version: DEMO_VERSION, chains: { name: "c.jsonl", mimeType: "application/x-ndjson", buffer: Buffer.from(jsonl([proposedChain("moneyx", `csrf-review-${run}`, { bugs: 1 })])) } },
  });
  expect(res.status()).toBe(201);
  const { id } = (await res.json()) as { id: string };
  await expect.poll(() => dbGet<{ status: string }>(`SELECT status FROM ProposedChain WHERE proposalId = ?`, id)?.status, { timeout: 5 * 60_000, intervals: [1000] }).toBe("valid");
  return { proposal: id, chain: dbGet<{ id: string }>(`SELECT id FROM ProposedChain WHERE proposalId = ?`, id)!.id };
}

const ACTIONS: Record<ServerAction, ActionCase> = {
  "app/dataset/proposals/[id]/actions.ts reviewChainAction": {
    as: async () => {
      actionTarget = (await validProposal()).proposal;
      return rev.context;
    },
    path: () => `/dataset/proposals/${actionTarget}`,
    submit: async (page) => {
      await page.getByLabel(/^Reason for /).fill("forged");
      await page.getByRole("button", { name: "Accept" }).click();
    },
    probe: () => dbGet(`SELECT review, reviewReason FROM ProposedChain WHERE proposalId = ?`, actionTarget),
  },
  "app/account/actions.ts createTokenAction": {
    as: signedIn(() => owner.context),
    path: () => "/account",
    submit: async (page) => {
      await page.getByLabel("Token name").fill(`csrf-made-${run}`);
      await page.getByRole("button", { name: "Create token" }).click();
    },
    probe: () => dbGet(`SELECT count(*) AS n FROM ApiToken WHERE name = ?`, `csrf-made-${run}`),
  },
  "app/account/actions.ts revokeTokenAction": {
    as: async () => {
      await createToken(owner.page, `csrf-revoke-${run}`, ["read"]);
      return owner.context;
    },
    path: () => "/account",
    submit: (page) => page.getByRole("button", { name: `Revoke token csrf-revoke-${run}` }).click(),
    probe: () => dbGet(`SELECT revokedAt FROM ApiToken WHERE name = ?`, `csrf-revoke-${run}`),
  },
  "app/account/actions.ts changePasswordAction": {
    as: async (browser) => {
      const context = await browser.newContext({ baseURL: base() });
      const page = await context.newPage();
      await signUp(page, `hw-csrf-pw-${run}`);
      await page.close();
      return context;
    },
    path: () => "/account",
    submit: async (page) => {
      await page.getByLabel("Current password").fill(PASSWORD);
      await page.getByLabel("New password").fill(`${PASSWORD} staple`);
      await page.getByRole("button", { name: "Change password" }).click();
    },
    probe: () => dbGet(`SELECT passwordHash FROM User WHERE username = ?`, `hw-csrf-pw-${run}`),
  },
  "app/admin/actions.ts changeSiteRoleAction": {
    as: signedIn(() => rev.context),
    path: () => "/admin",
    submit: (page) => page.getByRole("button", { name: `Grant reviewer to ${victim}` }).click(),
    probe: () => dbGet(`SELECT isReviewer FROM User WHERE username = ?`, victim),
  },
  "app/admin/actions.ts regradeAction": {
    as: signedIn(() => rev.context),
    path: () => "/admin",
    submit: async (page) => {
      await page.getByLabel("Submission id (empty: all submissions)").fill(completedId);
      await page.getByRole("button", { name: "Re-grade" }).click();
    },
    probe: () => dbGet(`SELECT lastRegrade FROM Submission WHERE id = ?`, completedId),
  },
  "app/admin/actions.ts releaseVersionAction": {
    as: signedIn(() => rev.context),
    path: () => "/admin",
    submit: async (page) => {
      const form = page.getByRole("form", { name: "Release a version" });
      await form.getByLabel("New version").fill(`csrf-release-${run}`);
      await form.getByLabel("From").selectOption(DEMO_VERSION);
      await form.getByLabel("Retire (chain ids)").fill("tablefmt-chain-1");
      await form.getByLabel(/^Why/).fill("tablefmt-chain-1: retired by the CSRF test's release");
      await form.getByRole("button", { name: "Release" }).click();
    },
    probe: () => dbGet(`SELECT count(*) AS n FROM DatasetVersion WHERE version = ?`, `csrf-release-${run}`),
    // the specs share one database: the version goes again
    cleanup: async () => deleteVersion(`csrf-release-${run}`),
  },
  "app/signup/actions.ts signUpAction": {
    as: (browser) => browser.newContext({ baseURL: base() }),
    path: () => "/signup",
    submit: async (page) => {
      await page.getByLabel("Username").fill(`hw-csrf-new-${run}`);
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Create account" }).click();
    },
    probe: () => userId(`hw-csrf-new-${run}`) ?? null,
  },
  "app/submissions/[id]/actions.ts visibilityAction": {
    as: signedIn(() => owner.context),
    path: () => `/submissions/${completedId}`,
    submit: (page) => page.getByRole("button", { name: "Request publication" }).click(),
    probe: () => statusOf(completedId),
    cleanup: async () => void (await owner.page.request.post(`/api/v1/submissions/${completedId}/publication`, { headers: bearer(owner.token), data: { action: "withdraw" } })),
  },
  "app/submissions/[id]/actions.ts cancelAction": {
    as: async () => {
      actionTarget = await running(owner.page.request);
      return owner.context;
    },
    path: () => `/submissions/${actionTarget}`,
    submit: (page) => page.getByRole("button", { name: "Cancel evaluation" }).click(),
    probe: () => statusOf(actionTarget)?.status === "cancelled",
  },
  "app/submissions/[id]/actions.ts rerunAction": {
    as: async () => {
      // a cancelled submission: re-running it queues its chains again, cancelled once more afterwards
      actionTarget = await running(owner.page.request);
      await owner.page.request.post(`/api/v1/submissions/${actionTarget}/cancel`, { headers: bearer(owner.token) });
      return rev.context;
    },
    path: () => `/submissions/${actionTarget}`,
    submit: async (page) => {
      await page.getByRole("button", { name: "Re-run…" }).click();
      await page.getByRole("button", { name: "Re-run from scratch" }).click();
    },
    probe: () => statusOf(actionTarget)?.status,
    cleanup: async () => void (await owner.page.request.post(`/api/v1/submissions/${actionTarget}/cancel`, { headers: bearer(owner.token) })),
  },
  "app/submissions/[id]/actions.ts trajectoriesAction": {
    as: async () => {
      actionTarget = await upload(owner.page.request, owner, { trajectories: await trajectoriesArchive({ [`${CHAIN}/1.log`]: "##[chainswe] step Look\n" }) });
      return owner.context;
    },
    path: () => `/submissions/${actionTarget}`,
    submit: (page) => page.getByRole("button", { name: "Make trajectories public once published" }).click(),
    probe: () => dbGet(`SELECT trajectoriesPublic AS shown FROM Submission WHERE id = ?`, actionTarget),
    cleanup: async () => void (await owner.page.request.post(`/api/v1/submissions/${actionTarget}/cancel`, { headers: bearer(owner.token) })),
  },
  "app/submissions/[id]/actions.ts deleteAction": {
    as: async () => {
      actionTarget = await running(owner.page.request);
      await owner.page.request.post(`/api/v1/submissions/${actionTarget}/cancel`, { headers: bearer(owner.token) });
      return owner.context;
    },
    path: () => `/submissions/${actionTarget}`,
    submit: (page) => page.getByRole("button", { name: "Delete submission" }).click(),
    probe: () => statusOf(actionTarget) ?? null,
  },
  "app/teams/actions.ts createTeamAction": {
    as: signedIn(() => owner.context),
    path: () => "/teams",
    submit: async (page) => {
      await page.getByLabel("Team name").fill(`CSRF made ${run}`);
      await page.getByRole("button", { name: "Create team" }).click();
    },
    probe: () => dbGet(`SELECT count(*) AS n FROM Team WHERE name = ?`, `CSRF made ${run}`),
  },
  "app/teams/actions.ts createSystemAction": {
    as: signedIn(() => owner.context),
    path: () => `/teams/${owner.slug}`,
    submit: async (page) => {
      await page.getByLabel("System name").fill(`csrf-system-${run}`);
      await page.getByLabel("Model").fill("csrf-model");
      await page.getByLabel("Scaffold").fill("csrf");
      await page.getByLabel("Context configuration").fill("Baseline");
      await page.getByRole("button", { name: "Create system" }).click();
    },
    probe: () => dbGet(`SELECT count(*) AS n FROM System WHERE name = ?`, `csrf-system-${run}`),
  },
  "app/teams/actions.ts updateSystemAction": {
    as: signedIn(() => owner.context),
    path: () => `/teams/${owner.slug}?edit=${systemId()}`,
    submit: async (page) => {
      await page.getByLabel("Model").fill(`csrf-changed-${run}`);
      await page.getByRole("button", { name: "Save system" }).click();
    },
    probe: () => dbGet(`SELECT model FROM System WHERE id = ?`, systemId()),
  },
  "app/teams/actions.ts inviteMemberAction": {
    as: signedIn(() => owner.context),
    path: () => `/teams/${owner.slug}`,
    submit: async (page) => {
      await page.getByLabel("Username").fill(victim);
      await page.getByRole("button", { name: "Send invitation" }).click();
    },
    probe: () => dbGet(`SELECT count(*) AS n FROM TeamInvitation WHERE teamId = ? AND userId = ?`, teamId(), userId(victim)),
  },
  "app/teams/actions.ts invitationAction": {
    // the victim accepts the invitation that inviteMemberAction's replay from this site sent
    as: signedIn(() => victimContext),
    path: () => `/teams`,
    submit: async (page) => {
      await page.getByRole("button", { name: `Accept the invitation to HW CSRF ${run}` }).click();
    },
    probe: () => dbGet(`SELECT count(*) AS n FROM TeamMember WHERE teamId = ? AND userId = ?`, teamId(), userId(victim)),
  },
  "app/teams/actions.ts memberAction": {
    // the victim is a member by now (invitationAction's replay from this site accepted)
    as: signedIn(() => owner.context),
    path: () => `/teams/${owner.slug}`,
    submit: async (page) => {
      const row = page.locator("form", { has: page.getByLabel(`Role of ${victim}`) });
      await row.getByLabel(`Role of ${victim}`).selectOption("admin");
      await row.getByRole("button", { name: "Save role" }).click();
    },
    probe: () => dbGet(`SELECT role FROM TeamMember WHERE teamId = ? AND userId = ?`, teamId(), userId(victim)),
  },
  "app/teams/actions.ts saveWebhookAction": {
    as: signedIn(() => owner.context),
    path: () => `/teams/${owner.slug}`,
    submit: async (page) => {
      await page.getByLabel("Webhook URL").fill(`https://hooks.example.org/csrf-${run}`);
      await page.getByRole("button", { name: "Add webhook" }).click();
    },
    probe: () => dbGet(`SELECT url FROM TeamWebhook WHERE teamId = ?`, teamId()),
  },
  "app/teams/actions.ts webhookAction": {
    // the webhook saveWebhookAction's replay from this site made
    as: signedIn(() => owner.context),
    path: () => `/teams/${owner.slug}`,
    submit: async (page) => {
      await page.getByRole("button", { name: "Rotate secret" }).click();
    },
    probe: () => dbGet(`SELECT secret FROM TeamWebhook WHERE teamId = ?`, teamId()),
  },
  "app/notifications/actions.ts markAllReadAction": {
    // the owner's completed submission left the team a notification
    as: signedIn(() => owner.context),
    path: () => "/notifications",
    submit: async (page) => {
      await page.getByRole("button", { name: /Mark all read/ }).click();
    },
    probe: () => dbGet(`SELECT notificationsReadAt AS at FROM User WHERE id = ?`, userId(owner.username)),
  },
};

for (const key of SERVER_ACTIONS) {
  test(`CSRF, server action ${key}: 403 from another site or with no Origin, nothing changed; from this site it works`, async ({ browser }) => {
    const c = ACTIONS[key];
    const context = await c.as(browser);
    const page = await context.newPage();
    try {
      await page.goto(c.path());
      const action = await captureAction(page, () => c.submit(page));
      const before = c.probe();
      for (const forged of [...FORGED_ORIGINS, ...FORGED_WITH_AUTHORIZATION]) {
        await expectRefused(await replayAction(context, action, forged.headers), `${key}, ${forged.name}`);
        expect(c.probe(), `${key}, ${forged.name}`).toEqual(before);
      }
      // the very same request from this site does what the form does
      const genuine = await replayAction(context, action, sameSite());
      expect(genuine.status(), `${key} from this site: ${(await genuine.text()).slice(0, 300)}`).toBeLessThan(400);
      await expect.poll(() => c.probe(), { message: `${key} from this site changed nothing` }).not.toEqual(before);
    } finally {
      await c.cleanup?.();
      await page.close();
    }
  });
}
