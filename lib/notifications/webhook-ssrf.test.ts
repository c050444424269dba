/**
 * Webhooks against server-side request forgery, with real receivers on this
 * machine's own addresses and a real database: the machine itself is never
 * reached, a name is resolved once and the connection goes to what was
 * checked, the team sees only a category of each attempt (never a redirect's
 * Location, an address or a port), and the test button is neither retried nor
 * free to press. The resolver passed to postWebhook stands in for a hostile
 * DNS server (one that answers differently each time), which does not run here.
 */
import type { LookupAddress } from "node:dns";
import { networkInterfaces } from "node:os";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Viewer } from "@/lib/authz";
import { FieldError, LimitError } from "@/core/errors";
import { openTestDb } from "@/lib/testing/test-db";
import { startWebhookReceiver } from "@/lib/testing/webhook-receiver";
import type { DeliverySettings } from "./deliveries";
import { ATTEMPT_FAILURES } from "./outcome";
import { postWebhook } from "./post";

const HEADERS = { "content-type": "application/json" };
const allowed = { allowPrivate: true, timeoutMs: 5_000 };
const refusing = { allowPrivate: false, timeoutMs: 5_000 };

/** The machine's own addresses a receiver can listen on (an IPv6 link-local one needs a zone, which a URL cannot carry). */
const ownAddresses = () =>
  Object.values(networkInterfaces())
    .flatMap((list) => list ?? [])
    .map((i) => i.address)
    .filter((a) => !a.toLowerCase().startsWith("fe80:"));

describe("postWebhook", () => {
  it("never reaches an address of this machine, on any interface", async () => {
    const receivers = await Promise.all(ownAddresses().map((a) => startWebhookReceiver([200], a)));
    try {
      expect(receivers.length).toBeGreaterThan(0);
      const outcomes = [];
      for (const r of receivers) outcomes.push([r.url, (await postWebhook(r.url, HEADERS, "{}", refusing)).failure]);
      expect(receivers.flatMap((r) => r.received.map(() => r.url))).toEqual([]);
      expect(outcomes).toEqual(receivers.map((r) => [r.url, "refused address"]));
      // they do answer when allowed, so the refusal above was the check's
      expect(await postWebhook(receivers[0]!.url, HEADERS, "{}", allowed)).toMatchObject({ ok: true, failure: null });
    } finally {
      await Promise.all(receivers.map((r) => r.close()));
    }
  });

  it("resolves a name once and connects to the addresses it checked", async () => {
    const receiver = await startWebhookReceiver([200]);
    try {
      const lookups: string[] = [];
      // answers a public address to the first question and this machine to any later one
      const rebinding = async (host: string): Promise<LookupAddress[]> => {
        lookups.push(host);
        return lookups.length === 1 ? [{ address: "93.184.215.14", family: 4 }] : [{ address: "127.0.0.1", family: 4 }];
      };
      const url = `http://hooks.rebind.test:${receiver.port}/hook`;
      const outcome = await postWebhook(url, HEADERS, "{}", { ...refusing, timeoutMs: 1_500, resolve: rebinding });
      expect(lookups).toEqual(["hooks.rebind.test"]);
      expect(receiver.received).toEqual([]);
      expect(outcome.ok).toBe(false);

      // the name's answer is what the connection uses: the same name answering this machine reaches it when allowed
      const local = async (): Promise<LookupAddress[]> => [{ address: "127.0.0.1", family: 4 }];
      expect(await postWebhook(url, HEADERS, "{}", { ...allowed, resolve: local })).toMatchObject({ ok: true });
      expect(receiver.received).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });

  it.each([
    [[{ address: "93.184.215.14", family: 4 }, { address: "127.0.0.1", family: 4 }]],
    [[{ address: "64:ff9b::7f00:1", family: 6 }]],
    [[{ address: "2002:c000:0202::1", family: 6 }]],
    [[{ address: "::ffff:192.168.0.1", family: 6 }]],
  ])("refuses a name when any address it resolves to is refused: %j", async (answer) => {
    const outcome = await postWebhook("http://hooks.example.test/hook", HEADERS, "{}", { ...refusing, resolve: async () => answer });
    expect(outcome).toMatchObject({ ok: false, failure: "refused address", httpStatus: null });
  });

  it("names failures by category: a closed port is 'unreachable', a redirect 'redirect refused'", async () => {
    const closed = await startWebhookReceiver([200]);
    await closed.close();
    const unreachable = await postWebhook(closed.url, HEADERS, "{}", allowed);
    expect(unreachable).toMatchObject({ ok: false, failure: "unreachable" });
    const redirecting = await startWebhookReceiver([{ status: 302, headers: { location: "http://169.254.169.254/latest/meta-data/" } }]);
    try {
      expect(await postWebhook(redirecting.url, HEADERS, "{}", allowed)).toMatchObject({ ok: false, failure: "redirect refused", httpStatus: 302 });
    } finally {
      await redirecting.close();
    }
  });
});

// ---------------------------------------------------------------- through the team's buttons and log

let t: Awaited<ReturnType<typeof openTestDb>>;
let webhooks: typeof import("./webhooks");
let deliveries: typeof import("./deliveries");
const teams: Record<string, string> = {};
let admin: Viewer;
const settings: DeliverySettings = { allowPrivate: true, email: null, siteUrl: "http://chainswe.test" };

beforeAll(async () => {
  t = await openTestDb();
  webhooks = await import("./webhooks");
  deliveries = await import("./deliveries");
  const { ensureSystem } = await import("@/lib/teams/systems");
  const { viewerById } = await import("@/lib/accounts/users");
  const user = await t.db.user.create({ data: { username: "wanda", name: "wanda" } });
  for (const name of ["Alpha", "Beta", "Gamma"]) {
    const systemId = await ensureSystem({ teamName: name, name: `${name.toLowerCase()}-agent` });
    const { teamId } = await t.db.system.findUniqueOrThrow({ where: { id: systemId }, select: { teamId: true } });
    teams[name.toLowerCase()] = teamId;
    await t.db.teamMember.create({ data: { teamId, userId: user.id, role: "admin" } });
  }
  admin = (await viewerById(user.id))!;
}, 60_000);

afterAll(async () => t?.close());

beforeEach(async () => {
  await t.db.notificationDelivery.deleteMany();
  await t.db.teamWebhook.deleteMany();
  await t.db.rateEvent.deleteMany();
});

describe("the team page's webhook", () => {
  it("refuses to save localhost with its root's dot, NAT64, IPv4-compatible and this machine's own address", async () => {
    const own = ownAddresses().find((a) => !a.includes(":") && !a.startsWith("127."));
    const urls = ["http://localhost.:3000/api/v1/dataset", "http://x.localhost./", "http://[64:ff9b::7f00:1]:3000/", "http://[::7f00:1]:3000/", "http://[2002:7f00:1::]/"];
    if (own) urls.push(`http://${own}:3000/api/v1/dataset`);
    for (const url of urls) {
      const saved = webhooks.saveWebhook(admin, "alpha", { url }, false);
      await expect(saved, url).rejects.toBeInstanceOf(FieldError);
      await expect(saved, url).rejects.toThrow(/^url: refused: /);
    }
    expect(await t.db.teamWebhook.count()).toBe(0);
  });

  it("shows the team a category of each attempt, never the receiver's Location, an address or a port", async () => {
    const secretPlace = "http://169.254.169.254/latest/meta-data/iam";
    const redirecting = await startWebhookReceiver([{ status: 302, headers: { location: secretPlace } }]);
    const closed = await startWebhookReceiver([200]);
    await closed.close();
    try {
      await webhooks.saveWebhook(admin, "alpha", { url: redirecting.url }, true);
      const redirected = await webhooks.sendTestDelivery(admin, "alpha", settings);
      await webhooks.saveWebhook(admin, "alpha", { url: closed.url }, true);
      const refused = await webhooks.sendTestDelivery(admin, "alpha", settings);
      const shown = JSON.stringify([redirected, refused, (await webhooks.webhookSettings(admin, teams.alpha!))!.deliveries]);
      for (const leak of ["169.254", "meta-data", String(closed.port), "ECONNREFUSED", "127.0.0.1:"]) expect(shown, leak).not.toContain(leak);
      // what is stored is the category too
      const stored = await t.db.deliveryAttempt.findMany({ select: { error: true } });
      expect(stored.map((a) => a.error).sort()).toEqual(["redirect refused", "unreachable"]);
      expect(ATTEMPT_FAILURES).toEqual(expect.arrayContaining(["redirect refused", "unreachable"]));
      expect([redirected, refused]).toEqual([
        { ok: false, answer: "redirect refused" },
        { ok: false, answer: "unreachable" },
      ]);
      expect(shown.match(/"answer":"(redirect refused|unreachable)"/g)).toHaveLength(4);
    } finally {
      await redirecting.close();
    }
  });

  it("a failed test delivery is not retried", async () => {
    const receiver = await startWebhookReceiver([500]);
    try {
      await webhooks.saveWebhook(admin, "alpha", { url: receiver.url }, true);
      const now = new Date();
      const answer = await webhooks.sendTestDelivery(admin, "alpha", settings, now);
      const row = await t.db.notificationDelivery.findFirstOrThrow();
      expect([row.status, row.attempts, row.nextAttemptAt]).toEqual(["failed", 1, null]);
      for (const later of [60_000, 3600_000]) await deliveries.processDueDeliveries(settings, new Date(now.getTime() + later));
      expect(receiver.received).toHaveLength(1);
      expect(answer).toEqual({ ok: false, answer: "HTTP 5xx" });
    } finally {
      await receiver.close();
    }
  });

  it("limits test deliveries per team and per user, counting no refused press", async () => {
    const receiver = await startWebhookReceiver([200]);
    try {
      for (const slug of ["alpha", "beta", "gamma"]) await webhooks.saveWebhook(admin, slug, { url: receiver.url }, true);
      const now = new Date();
      const press = (slug: string, at = now) => webhooks.sendTestDelivery(admin, slug, settings, at);
      for (let i = 0; i < 5; i++) await press("alpha");
      const refused = press("alpha");
      await expect(refused).rejects.toBeInstanceOf(LimitError);
      await expect(refused).rejects.toThrow(/Too many test deliveries: this team has sent 5 in the last 10 minutes; try again in 10 min/);
      await expect(press("alpha")).rejects.toBeInstanceOf(LimitError);
      for (let i = 0; i < 5; i++) await press("beta");
      // ten from this user across teams: gamma, which has sent none, is refused for the user
      await expect(press("gamma")).rejects.toThrow(/you have sent 10/);
      expect(receiver.received).toHaveLength(10);
      // the window slides: ten minutes on, alpha may test again
      expect(await press("alpha", new Date(now.getTime() + 10 * 60_000 + 1))).toEqual({ ok: true, answer: "delivered" });
      expect(receiver.received).toHaveLength(11);
    } finally {
      await receiver.close();
    }
  });
});
