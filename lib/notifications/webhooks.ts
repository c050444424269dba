/**
 * A team's webhook as its admins manage it on the team page: the URL, the
 * secret (shown once, when made or rotated), a test delivery and the log of
 * deliveries. Team admins only (lib/teams/data.ts assertTeamAdmin); bad input
 * is a FieldError naming the form field, and nothing is changed. Every
 * attempt, in the log and as the test button's answer, is shown as
 * ./outcome.ts attemptAnswer words it.
 */
import { z } from "zod";
import type { Viewer } from "@/lib/accounts/users";
import { rateStore, takeRateSlot } from "@/lib/accounts/rate-events";
import { isTeamAdmin } from "@/lib/authz";
import { db } from "@/db/client";
import { FieldError, LimitError } from "@/core/errors";
import { deliveryChannelSchema, deliveryStatusSchema, type DeliveryChannel, type DeliveryStatus } from "@/core/schemas/columns";
import { assertTeamAdmin, teamForChange } from "@/lib/teams/data";
import { webhookHostProblem, webhookUrlSchema } from "./address";
import { CLAIM_MS, attemptDelivery, deliverySettingsFromEnv, type DeliverySettings } from "./deliveries";
import { attemptAnswer } from "./outcome";
import { notificationPayloadSchema, testPayload } from "./payload";
import { machineAddresses } from "./post";
import { newWebhookSecret } from "./signature";

/** The webhook form. */
export const webhookInputSchema = z.object({ url: webhookUrlSchema });
export type WebhookInput = z.infer<typeof webhookInputSchema>;

/** The webhook's buttons on the team page. */
export const webhookIntentSchema = z.enum(["test", "rotate", "remove"]);
export type WebhookIntent = z.infer<typeof webhookIntentSchema>;

const WHAT = "manage its webhook";

/** Why a private address is refused and the operator's setting that allows it (an intranet deployment). */
export const PRIVATE_ADDRESSES_SETTING =
  "The site posts only to public addresses; its operator can allow private ones with the setting CHAINSWE_WEBHOOK_ALLOW_PRIVATE=true";

async function adminTeam(viewer: Viewer | null, slug: string): Promise<{ viewer: Viewer; teamId: string }> {
  const t = await teamForChange(viewer, slug);
  assertTeamAdmin(t.viewer, t.teamId, WHAT);
  return t;
}

/** Sets the URL. A new webhook gets a secret, answered this once; changing the URL keeps the secret. */
export async function saveWebhook(viewer: Viewer | null, slug: string, input: z.input<typeof webhookInputSchema>, allowPrivate = deliverySettingsFromEnv().allowPrivate): Promise<{ secret: string | null }> {
  const { teamId } = await adminTeam(viewer, slug);
  const { url } = webhookInputSchema.parse(input);
  const problem = webhookHostProblem(url, allowPrivate, allowPrivate ? [] : machineAddresses());
  if (problem) throw new FieldError("url", `refused: ${problem}. ${PRIVATE_ADDRESSES_SETTING}`);
  const secret = newWebhookSecret();
  const existing = await db.teamWebhook.findUnique({ where: { teamId }, select: { teamId: true } });
  await db.teamWebhook.upsert({ where: { teamId }, create: { teamId, url, secret }, update: { url } });
  return { secret: existing ? null : secret };
}

/** A new secret, answered this once; the old one stops signing at once. */
export async function rotateWebhookSecret(viewer: Viewer | null, slug: string): Promise<{ secret: string }> {
  const { teamId } = await adminTeam(viewer, slug);
  const secret = newWebhookSecret();
  const { count } = await db.teamWebhook.updateMany({ where: { teamId }, data: { secret } });
  if (count === 0) throw new FieldError("url", "set a webhook URL first");
  return { secret };
}

export async function removeWebhook(viewer: Viewer | null, slug: string): Promise<void> {
  const { teamId } = await adminTeam(viewer, slug);
  await db.teamWebhook.deleteMany({ where: { teamId } });
}

/** Test deliveries a team, and a user over all their teams, may send within TEST_DELIVERY_WINDOW_MS. */
export const TEST_DELIVERY_LIMITS = { perTeam: 5, perUser: 10 } as const;
export const TEST_DELIVERY_WINDOW_MS = 10 * 60_000;

/** Counts one press of "Send test delivery", or refuses it (429) when the team or the user has sent their share. */
async function takeTestDeliverySlot(teamId: string, userId: string, now: Date): Promise<void> {
  const slot = await takeRateSlot(
    rateStore(),
    [
      { key: `webhook-test:team:${teamId}`, limit: TEST_DELIVERY_LIMITS.perTeam },
      { key: `webhook-test:user:${userId}`, limit: TEST_DELIVERY_LIMITS.perUser },
    ],
    TEST_DELIVERY_WINDOW_MS,
    now.getTime(),
  );
  if (slot.allowed) return;
  const minutes = Math.max(1, Math.ceil((slot.retryAt - now.getTime()) / 60_000));
  const who = slot.key.startsWith("webhook-test:team:") ? `this team has sent ${TEST_DELIVERY_LIMITS.perTeam}` : `you have sent ${TEST_DELIVERY_LIMITS.perUser}`;
  throw new LimitError(`Too many test deliveries: ${who} in the last ${TEST_DELIVERY_WINDOW_MS / 60_000} minutes; try again in ${minutes} min.`, 429);
}

/** Sends a test delivery now, once (it is not retried), within the press limits; answers how it went, in the delivery log's words. */
export async function sendTestDelivery(viewer: Viewer | null, slug: string, settings: DeliverySettings = deliverySettingsFromEnv(), now: Date = new Date()): Promise<{ ok: boolean; answer: string }> {
  const { viewer: admin, teamId } = await adminTeam(viewer, slug);
  const team = await db.team.findUniqueOrThrow({ where: { id: teamId }, select: { slug: true, name: true, webhook: { select: { teamId: true } } } });
  if (!team.webhook) throw new FieldError("url", "set a webhook URL first");
  await takeTestDeliverySlot(teamId, admin.id, now);
  const payload = notificationPayloadSchema.parse(testPayload({ slug: team.slug, name: team.name }, now));
  // created claimed by this request, so the delivery loop leaves the first attempt to it
  const d = await db.notificationDelivery.create({
    data: { teamId, channel: "webhook", payload: JSON.stringify(payload), nextAttemptAt: new Date(now.getTime() + CLAIM_MS) },
    select: { id: true, teamId: true, channel: true, recipient: true, payload: true, attempts: true },
  });
  const outcome = await attemptDelivery(d, settings, now);
  return attemptAnswer({ httpStatus: outcome.httpStatus, error: outcome.failure });
}

// ---------------------------------------------------------------- reading

export type WebhookView = { url: string; createdAt: Date; updatedAt: Date };

export type DeliveryRow = {
  id: string;
  event: string;
  channel: DeliveryChannel;
  recipient: string | null;
  status: DeliveryStatus;
  createdAt: Date;
  /** `answer`: "delivered" or the failure's category, never what the receiver sent */
  attempts: { at: Date; ok: boolean; answer: string; durationMs: number; nextAttemptAt: Date | null }[];
};

export type WebhookSettings = { webhook: WebhookView | null; deliveries: DeliveryRow[] };

/** The team's webhook and its latest deliveries (e-mail ones too), newest first; null for anyone but the team's admins. */
export async function webhookSettings(viewer: Viewer | null, teamId: string, limit = 20): Promise<WebhookSettings | null> {
  if (!isTeamAdmin(viewer, teamId)) return null;
  const [webhook, deliveries] = await Promise.all([
    db.teamWebhook.findUnique({ where: { teamId }, select: { url: true, createdAt: true, updatedAt: true } }),
    db.notificationDelivery.findMany({
      where: { teamId },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: limit,
      select: {
        id: true,
        channel: true,
        recipient: true,
        status: true,
        createdAt: true,
        payload: true,
        attemptLog: { orderBy: { at: "asc" }, select: { at: true, httpStatus: true, error: true, durationMs: true, nextAttemptAt: true } },
      },
    }),
  ]);
  return {
    webhook,
    deliveries: deliveries.map((d) => ({
      id: d.id,
      event: notificationPayloadSchema.parse(JSON.parse(d.payload)).event,
      channel: deliveryChannelSchema.parse(d.channel),
      recipient: d.recipient,
      status: deliveryStatusSchema.parse(d.status),
      createdAt: d.createdAt,
      attempts: d.attemptLog.map(({ httpStatus, error, ...a }) => ({ ...a, ...attemptAnswer({ httpStatus, error }) })),
    })),
  };
}
