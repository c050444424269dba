/**
 * Notifications against a real database: made when an evaluation completes or
 * fails and when a reviewer decides, in the same transaction; sent to a real
 * HTTP receiver (signed), retried on the backoff schedule with every attempt
 * logged, and e-mailed through a real SMTP server. Time is passed in, never waited for.
 */
import { createHmac } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Viewer } from "@/lib/authz";
import { DatasetError, ForbiddenError } from "@/core/errors";
import { DEMO_GOLD_SEQ, gradeQueuedChains, openTestDb, TEST_QUEUE_POLICY } from "@/lib/testing/test-db";
import { startSmtpSink } from "@/lib/testing/smtp-sink";
import { startWebhookReceiver } from "@/lib/testing/webhook-receiver";
import type { DeliverySettings } from "./deliveries";

let t: Awaited<ReturnType<typeof openTestDb>>;
let queue: typeof import("@/jobs/queue");
let review: typeof import("@/lib/submissions/review");
let deliveries: typeof import("./deliveries");
let webhooks: typeof import("./webhooks");
let data: typeof import("./data");
let admin: Viewer;
let member: Viewer;
let reviewer: Viewer;
let systemId: string;
let teamId: string;

const policy = TEST_QUEUE_POLICY;
const CHAINS = ["inikit-chain-1", "moneyx-chain-1"];
const noEmail: DeliverySettings = { allowPrivate: true, email: null, siteUrl: "http://chainswe.test" };
const at = (s: number) => new Date(Date.UTC(2026, 11, 4, 20, 0, s));

async function viewer(username: string, opts: { team?: "admin" | "member"; email?: string; isReviewer?: boolean }): Promise<Viewer> {
  const { viewerById } = await import("@/lib/accounts/users");
  const user = await t.db.user.create({ data: { username, name: username, email: opts.email, isReviewer: opts.isReviewer ?? false } });
  if (opts.team) await t.db.teamMember.create({ data: { teamId, userId: user.id, role: opts.team } });
  return (await viewerById(user.id))!;
}

beforeAll(async () => {
  t = await openTestDb();
  queue = await import("@/jobs/queue");
  review = await import("@/lib/submissions/review");
  deliveries = await import("./deliveries");
  webhooks = await import("./webhooks");
  data = await import("./data");
  const { ensureSystem } = await import("@/lib/teams/systems");
  systemId = await ensureSystem({ teamName: "Alpha", name: "alpha-agent" });
  teamId = (await t.db.system.findUniqueOrThrow({ where: { id: systemId }, select: { teamId: true } })).teamId;
  admin = await viewer("alice", { team: "admin", email: "alice@alpha.test" });
  member = await viewer("amos", { team: "member" });
  reviewer = await viewer("rita", { isReviewer: true });
}, 60_000);

afterAll(async () => t?.close());

beforeEach(async () => {
  await t.db.submission.deleteMany();
  await t.db.notificationDelivery.deleteMany();
  await t.db.teamWebhook.deleteMany();
  await t.db.rateEvent.deleteMany();
});

const submission = async () => (await t.submissions.createSubmission({ systemId, datasetVersion: "v1", mode: "seq", predictions: DEMO_GOLD_SEQ, chainIds: CHAINS })).id;

/** Runs every chain of the queue through `end`. */
async function drain(end: (job: NonNullable<Awaited<ReturnType<typeof queue.claimJob>>>) => Promise<unknown>) {
  for (;;) {
    const job = await queue.claimJob({ workerId: "w", policy });
    if (!job) break;
    await end(job);
  }
}

async function completed(): Promise<string> {
  const id = await submission();
  await gradeQueuedChains(t);
  return id;
}

const events = (submissionId: string) => t.db.notification.findMany({ where: { submissionId }, orderBy: { createdAt: "asc" }, select: { event: true, teamId: true, reason: true } });

describe("notifications are made", () => {
  it("when an evaluation completes: one, for the submission's team", async () => {
    const id = await completed();
    expect(await events(id)).toEqual([{ event: "evaluation_completed", teamId, reason: null }]);
  });

  it("when an evaluation fails", async () => {
    const id = await submission();
    await drain((job) => queue.failJob({ jobId: job.jobId, workerId: "w", error: new DatasetError("bad test patch", job.payload.continuousId), policy }));
    expect((await t.db.submission.findUniqueOrThrow({ where: { id } })).status).toBe("failed");
    expect(await events(id)).toEqual([{ event: "evaluation_failed", teamId, reason: null }]);
  });

  it("when a reviewer approves or rejects publication, not when the team asks", async () => {
    const id = await completed();
    await review.changeVisibility(member, id, { action: "request_publication" });
    await review.changeVisibility(reviewer, id, { action: "reject", reason: "no cost figures" });
    await review.changeVisibility(member, id, { action: "request_publication" });
    await review.changeVisibility(reviewer, id, { action: "approve" });
    expect((await events(id)).map((e) => [e.event, e.reason])).toEqual([
      ["evaluation_completed", null],
      ["publication_rejected", "no cost figures"],
      ["publication_approved", null],
    ]);
  });

  it("not by a refused decision", async () => {
    const id = await completed();
    await expect(review.changeVisibility(reviewer, id, { action: "approve" })).rejects.toBeInstanceOf(ForbiddenError);
    expect((await events(id)).map((e) => e.event)).toEqual(["evaluation_completed"]);
  });

  it("and listed for the team's members, newest first, unread until marked read", async () => {
    const id = await completed();
    await review.changeVisibility(member, id, { action: "request_publication" });
    await review.changeVisibility(reviewer, id, { action: "approve" });
    const rows = await data.listNotifications(member);
    expect(rows.slice(0, 2).map((r) => [r.event, r.submission.id, r.unread])).toEqual([
      ["publication_approved", id, true],
      ["evaluation_completed", id, true],
    ]);
    // which run of which dataset version each is about
    expect(rows[0]!.submission).toMatchObject({ run: 1, datasetVersion: "v1" });
    expect(await data.unreadNotificationCount(member)).toBeGreaterThanOrEqual(2);
    expect(await data.listNotifications(reviewer)).toEqual([]);
    await data.markAllNotificationsRead(member, new Date(Date.now() + 1000));
    expect(await data.unreadNotificationCount(member)).toBe(0);
    expect((await data.listNotifications(member)).every((r) => !r.unread)).toBe(true);
    // read is per user
    expect(await data.unreadNotificationCount(admin)).toBeGreaterThan(0);
  });
});

describe("webhook deliveries", () => {
  it("POST the signed payload to the team's URL", async () => {
    const receiver = await startWebhookReceiver([200]);
    try {
      const { secret } = await webhooks.saveWebhook(admin, "alpha", { url: receiver.url }, true);
      expect(secret).toMatch(/^whsec_/);
      const id = await completed();
      await deliveries.processDueDeliveries(noEmail, at(0));
      expect(receiver.received).toHaveLength(1);
      const [req] = receiver.received;
      const timestamp = String(req!.headers["x-chainswe-timestamp"]);
      const expected = `sha256=${createHmac("sha256", secret!).update(`${timestamp}.${req!.body}`).digest("hex")}`;
      expect(req!.headers["x-chainswe-signature"]).toBe(expected);
      const body = JSON.parse(req!.body) as Record<string, unknown>;
      expect(body).toMatchObject({ event: "evaluation_completed", team: { slug: "alpha", name: "Alpha" }, submission: { id, url: `http://chainswe.test/submissions/${id}`, system: "alpha-agent", mode: "seq", dataset_version: "v1", status: "completed" } });
      const row = await t.db.notificationDelivery.findFirstOrThrow({ include: { attemptLog: true } });
      expect(body.delivery_id).toBe(row.id);
      expect(row.status).toBe("delivered");
      expect(row.attemptLog.map((a) => [a.httpStatus, a.error, a.nextAttemptAt])).toEqual([[200, null, null]]);
      // a second turn sends nothing again
      await deliveries.processDueDeliveries(noEmail, at(3600));
      expect(receiver.received).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });

  it("retry after a failure on the backoff schedule, each attempt in the log", async () => {
    const receiver = await startWebhookReceiver([500, 200]);
    try {
      await webhooks.saveWebhook(admin, "alpha", { url: receiver.url }, true);
      await completed();
      await deliveries.processDueDeliveries(noEmail, at(0));
      // not due again before its 10 s are up
      await deliveries.processDueDeliveries(noEmail, at(5));
      expect(receiver.received).toHaveLength(1);
      const pending = await t.db.notificationDelivery.findFirstOrThrow();
      expect(pending.status).toBe("pending");
      expect(pending.nextAttemptAt!.getTime()).toBeGreaterThanOrEqual(at(10).getTime());
      await deliveries.processDueDeliveries(noEmail, at(30));
      expect(receiver.received).toHaveLength(2);
      // the same delivery, the same body
      expect(receiver.received[1]!.body).toBe(receiver.received[0]!.body);
      const settings = await webhooks.webhookSettings(admin, teamId);
      const [row] = settings!.deliveries;
      expect(row!.status).toBe("delivered");
      expect(row!.attempts.map((a) => [a.answer, a.nextAttemptAt === null])).toEqual([
        ["HTTP 5xx", false],
        ["delivered", true],
      ]);
      expect(await webhooks.webhookSettings(member, teamId)).toBeNull();
    } finally {
      await receiver.close();
    }
  });

  it("give up after five attempts", async () => {
    const receiver = await startWebhookReceiver([503]);
    try {
      await webhooks.saveWebhook(admin, "alpha", { url: receiver.url }, true);
      await completed();
      for (const s of [0, 20, 100, 500, 3000, 9000]) await deliveries.processDueDeliveries(noEmail, at(s));
      expect(receiver.received).toHaveLength(5);
      const row = await t.db.notificationDelivery.findFirstOrThrow({ include: { attemptLog: true } });
      expect([row.status, row.attempts, row.attemptLog.length, row.nextAttemptAt]).toEqual(["failed", 5, 5, null]);
    } finally {
      await receiver.close();
    }
  });

  it("a test delivery is sent at once and logged", async () => {
    const receiver = await startWebhookReceiver([204]);
    try {
      await webhooks.saveWebhook(admin, "alpha", { url: receiver.url }, true);
      const outcome = await webhooks.sendTestDelivery(admin, "alpha", noEmail);
      expect(outcome).toEqual({ ok: true, answer: "delivered" });
      expect(JSON.parse(receiver.received[0]!.body)).toMatchObject({ event: "webhook_test", submission: null, team: { slug: "alpha" } });
      expect((await webhooks.webhookSettings(admin, teamId))!.deliveries[0]).toMatchObject({ event: "webhook_test", status: "delivered" });
      await expect(webhooks.sendTestDelivery(member, "alpha", noEmail)).rejects.toBeInstanceOf(ForbiddenError);
    } finally {
      await receiver.close();
    }
  });

  it("refuse private addresses unless allowed, when saved and when sent", async () => {
    await expect(webhooks.saveWebhook(admin, "alpha", { url: "http://127.0.0.1:9/hook" }, false)).rejects.toThrow(
      "url: refused: 127.0.0.1 is in 127.0.0.0/8, loopback (RFC 1122). The site posts only to public addresses; its operator can allow private ones with the setting CHAINSWE_WEBHOOK_ALLOW_PRIVATE=true",
    );
    await expect(webhooks.saveWebhook(admin, "alpha", { url: "ftp://example.org/hook" }, false)).rejects.toThrow();
    await expect(webhooks.saveWebhook(member, "alpha", { url: "https://example.org/hook" }, false)).rejects.toBeInstanceOf(ForbiddenError);
    // saved while allowed, sent while not: refused without connecting
    await webhooks.saveWebhook(admin, "alpha", { url: "http://localhost:9/hook" }, true);
    const outcome = await webhooks.sendTestDelivery(admin, "alpha", { ...noEmail, allowPrivate: false });
    expect(outcome).toEqual({ ok: false, answer: "refused address" });
  });

  it("rotate the secret: the next delivery is signed with the new one", async () => {
    const receiver = await startWebhookReceiver([200]);
    try {
      const first = await webhooks.saveWebhook(admin, "alpha", { url: receiver.url }, true);
      expect((await webhooks.saveWebhook(admin, "alpha", { url: `${receiver.url}?v=2` }, true)).secret).toBeNull();
      const { secret } = await webhooks.rotateWebhookSecret(admin, "alpha");
      expect(secret).not.toBe(first.secret);
      await webhooks.sendTestDelivery(admin, "alpha", noEmail);
      const [req] = receiver.received;
      expect(req!.path).toBe("/hook?v=2");
      const sign = (key: string) => `sha256=${createHmac("sha256", key).update(`${String(req!.headers["x-chainswe-timestamp"])}.${req!.body}`).digest("hex")}`;
      expect(req!.headers["x-chainswe-signature"]).toBe(sign(secret));
    } finally {
      await receiver.close();
    }
  });
});

describe("e-mail", () => {
  it("goes to each member with an address through the SMTP server", async () => {
    const sink = await startSmtpSink();
    try {
      const settings: DeliverySettings = { ...noEmail, email: { url: sink.url, from: "ChainSWE <chainswe@site.test>" } };
      const id = await completed();
      await deliveries.processDueDeliveries(settings, at(0));
      expect(sink.messages).toHaveLength(1);
      const [mail] = sink.messages;
      expect(mail!.to).toEqual(["alice@alpha.test"]);
      expect(mail!.from).toBe("chainswe@site.test");
      expect(mail!.raw).toContain("Subject: [ChainSWE] alpha-agent: evaluation completed");
      expect(mail!.raw).toContain(`http://chainswe.test/submissions/${id}`);
      const row = await t.db.notificationDelivery.findFirstOrThrow({ where: { channel: "email" } });
      expect([row.recipient, row.status]).toEqual(["alice@alpha.test", "delivered"]);
    } finally {
      await sink.close();
    }
  });
});
