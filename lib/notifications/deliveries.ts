/**
 * Webhook and e-mail deliveries: queued from each new notification, sent by
 * the site's delivery loop (./loop.ts), retried on the backoff schedule
 * (./backoff.ts). Everything is in the database, so a restart loses nothing:
 * a delivery a stopped process was sending is due again once its claim
 * (CLAIM_MS) runs out. Decisions are made by the pure modules beside this one;
 * this file reads, writes and sends.
 */
import { env } from "@/env";
import { db } from "@/db/client";
import { coerceError } from "@/core/errors";
import { deliveryChannelSchema, notificationEventSchema, type DeliveryChannel } from "@/core/schemas/columns";
import { afterAttempt } from "./backoff";
import { sendEmail, type EmailSettings } from "./email";
import type { AttemptFailure, AttemptOutcome } from "./outcome";
import { TEST_EVENT, notificationEmail, notificationPayload, notificationPayloadSchema, webhookBody, type NotificationPayload } from "./payload";
import { postWebhook } from "./post";
import { plannedDeliveries } from "./recipients";
import { webhookHeaders } from "./signature";

export type DeliverySettings = {
  /** CHAINSWE_WEBHOOK_ALLOW_PRIVATE */
  allowPrivate: boolean;
  /** null when the site sends no e-mail */
  email: EmailSettings | null;
  /** the site's public URL, for links in what is sent */
  siteUrl: string | undefined;
};

export function deliverySettingsFromEnv(): DeliverySettings {
  const e = env();
  return {
    allowPrivate: e.CHAINSWE_WEBHOOK_ALLOW_PRIVATE,
    email: e.CHAINSWE_SMTP_URL && e.CHAINSWE_SMTP_FROM ? { url: e.CHAINSWE_SMTP_URL, from: e.CHAINSWE_SMTP_FROM } : null,
    siteUrl: e.NEXTAUTH_URL,
  };
}

/** How long a process owns a delivery it is sending: longer than the webhook deadline and an e-mail's. */
export const CLAIM_MS = 2 * 60_000;

const log = (line: string) => process.stderr.write(`${new Date().toISOString()} [notifications] ${line}\n`);

// ---------------------------------------------------------------- queueing

/** Queues the deliveries of notifications not yet seen by the loop; answers how many notifications it handled. */
export async function fanOutNotifications(settings: DeliverySettings, now: Date = new Date(), limit = 50): Promise<number> {
  const fresh = await db.notification.findMany({
    where: { fannedOutAt: null },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    take: limit,
    select: {
      id: true,
      teamId: true,
      event: true,
      reason: true,
      createdAt: true,
      team: { select: { slug: true, name: true, webhook: { select: { teamId: true } }, members: { select: { user: { select: { email: true } } } } } },
      submission: { select: { id: true, mode: true, status: true, visibility: true, run: true, system: { select: { name: true } }, datasetVersion: { select: { version: true } } } },
    },
  });
  for (const n of fresh) {
    let payload: NotificationPayload | null = null;
    try {
      const s = n.submission;
      payload = notificationPayload({
        event: notificationEventSchema.parse(n.event),
        occurredAt: n.createdAt,
        team: n.team,
        submission: { id: s.id, system: s.system.name, mode: s.mode, datasetVersion: s.datasetVersion.version, status: s.status, visibility: s.visibility, run: s.run },
        reason: n.reason,
        siteUrl: settings.siteUrl,
      });
    } catch (e) {
      // marked seen all the same: a row that cannot be described would otherwise be retried forever
      log(`notification ${n.id} not sent: ${coerceError(e).message}`);
    }
    const planned = payload ? plannedDeliveries({ hasWebhook: !!n.team.webhook, emailEnabled: !!settings.email, members: n.team.members.map((m) => m.user) }) : [];
    await db.$transaction(async (tx) => {
      // the conditional update first: of two processes queueing at once, one does it
      const { count } = await tx.notification.updateMany({ where: { id: n.id, fannedOutAt: null }, data: { fannedOutAt: now } });
      if (count === 0 || planned.length === 0) return;
      await tx.notificationDelivery.createMany({
        data: planned.map((p) => ({ teamId: n.teamId, notificationId: n.id, channel: p.channel, recipient: p.recipient, payload: JSON.stringify(payload), nextAttemptAt: now })),
      });
    });
  }
  return fresh.length;
}

// ---------------------------------------------------------------- sending

const claimedSelect = { id: true, teamId: true, channel: true, recipient: true, payload: true, attempts: true } as const;
export type ClaimedDelivery = { id: string; teamId: string; channel: string; recipient: string | null; payload: string; attempts: number };

/** Takes up to `limit` due deliveries for this process, each by a compare-and-swap on its due time. */
export async function claimDueDeliveries(now: Date, limit = 10): Promise<ClaimedDelivery[]> {
  const due = await db.notificationDelivery.findMany({
    where: { status: "pending", nextAttemptAt: { lte: now } },
    orderBy: [{ nextAttemptAt: "asc" }, { id: "asc" }],
    take: limit,
    select: { ...claimedSelect, nextAttemptAt: true },
  });
  const claimed: ClaimedDelivery[] = [];
  for (const { nextAttemptAt, ...d } of due) {
    const { count } = await db.notificationDelivery.updateMany({
      where: { id: d.id, status: "pending", nextAttemptAt },
      data: { nextAttemptAt: new Date(now.getTime() + CLAIM_MS) },
    });
    if (count === 1) claimed.push(d);
  }
  return claimed;
}

/** A delivery that can never succeed as things are (no webhook, no e-mail settings): failed at once, not retried. */
type Hopeless = AttemptOutcome & { final: true };
const hopeless = (failure: AttemptFailure, detail: string): Hopeless => ({ ok: false, httpStatus: null, failure, detail, durationMs: 0, final: true });

async function send(d: ClaimedDelivery, channel: DeliveryChannel, payload: NotificationPayload, settings: DeliverySettings, now: Date): Promise<AttemptOutcome | Hopeless> {
  if (channel === "email") {
    if (!settings.email) return hopeless("e-mail turned off", "the site no longer sends e-mail (CHAINSWE_SMTP_URL is not set)");
    if (!d.recipient) return hopeless("no recipient", "no recipient");
    return sendEmail(settings.email, d.recipient, notificationEmail(payload));
  }
  const webhook = await db.teamWebhook.findUnique({ where: { teamId: d.teamId }, select: { url: true, secret: true } });
  if (!webhook) return hopeless("webhook removed", "the team has no webhook any more");
  const body = webhookBody(payload, d.id);
  return postWebhook(webhook.url, webhookHeaders({ secret: webhook.secret, body, event: payload.event, deliveryId: d.id, now }), body, { allowPrivate: settings.allowPrivate });
}

/**
 * One attempt at a claimed delivery, written to its log with when the next
 * one is due. Only the outcome's category is stored (what the team sees); its
 * detail goes to the operator's log. A test delivery is tried once: pressing
 * the button again is the retry.
 */
export async function attemptDelivery(d: ClaimedDelivery, settings: DeliverySettings, now: Date = new Date()): Promise<AttemptOutcome> {
  let outcome: AttemptOutcome | Hopeless;
  let retried = true;
  try {
    const payload = notificationPayloadSchema.parse(JSON.parse(d.payload));
    retried = payload.event !== TEST_EVENT;
    outcome = await send(d, deliveryChannelSchema.parse(d.channel), payload, settings, now);
  } catch (e) {
    outcome = { ok: false, httpStatus: null, failure: "site error", detail: coerceError(e).message, durationMs: 0 };
  }
  const attempts = d.attempts + 1;
  const ended = new Date(now.getTime() + outcome.durationMs);
  const next = outcome.ok || (retried && !("final" in outcome)) ? afterAttempt(attempts, outcome.ok, ended) : { status: "failed" as const, nextAttemptAt: null };
  if (!outcome.ok) log(`delivery ${d.id} attempt ${attempts}: ${outcome.failure} (${outcome.detail ?? "no detail"})`);
  await db.$transaction([
    db.notificationDelivery.update({ where: { id: d.id }, data: { status: next.status, attempts, nextAttemptAt: next.nextAttemptAt } }),
    db.deliveryAttempt.create({
      data: { deliveryId: d.id, at: now, durationMs: outcome.durationMs, httpStatus: outcome.httpStatus, error: outcome.failure, nextAttemptAt: next.nextAttemptAt },
    }),
  ]);
  return outcome;
}

/** One turn of the delivery loop: queue what new notifications need, then send what is due. */
export async function processDueDeliveries(settings: DeliverySettings, now: Date = new Date()): Promise<{ queued: number; sent: number }> {
  const queued = await fanOutNotifications(settings, now);
  const claimed = await claimDueDeliveries(now);
  await Promise.all(claimed.map((d) => attemptDelivery(d, settings, now)));
  return { queued, sent: claimed.length };
}
