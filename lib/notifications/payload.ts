/**
 * What a notification says, as the webhook body and the e-mail text carry it.
 * Pure: built from plain data, so its shape is tested without a database, and
 * stored as built (NotificationDelivery.payload) so every retry sends the same bytes.
 */
import { z } from "zod";
import { notificationEventSchema, submissionStatusSchema, visibilitySchema, type NotificationEvent } from "@/core/schemas/columns";
import { modeSchema } from "@/core/schemas/prediction";
import { submissionPageUrl } from "@/lib/submissions/urls";

/** The event of a team admin's "Send test delivery": no submission behind it. */
export const TEST_EVENT = "webhook_test";

export const notificationPayloadSchema = z.object({
  event: z.union([notificationEventSchema, z.literal(TEST_EVENT)]),
  /** when the change happened (ISO 8601, UTC) */
  occurred_at: z.iso.datetime(),
  team: z.object({ slug: z.string(), name: z.string() }),
  /** null only for a test delivery */
  submission: z
    .object({
      id: z.string(),
      /** the submission's page: absolute when the site's public URL (NEXTAUTH_URL) is set */
      url: z.string(),
      system: z.string(),
      mode: modeSchema,
      dataset_version: z.string(),
      status: submissionStatusSchema,
      visibility: visibilitySchema,
      run: z.number().int().positive(),
    })
    .nullable(),
  /** the reviewer's reason for a rejection; null otherwise */
  reason: z.string().nullable(),
});
export type NotificationPayload = z.infer<typeof notificationPayloadSchema>;

/** The webhook body: the payload and the delivery's id, which stays the same across retries. */
export type WebhookBody = NotificationPayload & { delivery_id: string };

export type PayloadInput = {
  event: NotificationEvent;
  occurredAt: Date;
  team: { slug: string; name: string };
  submission: { id: string; system: string; mode: string; datasetVersion: string; status: string; visibility: string; run: number };
  reason: string | null;
  /** the site's public URL, if known */
  siteUrl: string | undefined;
};

/** A page of the site as a link a receiver can follow: absolute when the public URL is known. */
export const siteLink = (path: string, siteUrl: string | undefined): string => (siteUrl ? new URL(path, siteUrl).href : path);

export function notificationPayload(input: PayloadInput): NotificationPayload {
  const s = input.submission;
  // parsed, so a column holding a value outside its set fails here rather than at a receiver
  return notificationPayloadSchema.parse({
    event: input.event,
    occurred_at: input.occurredAt.toISOString(),
    team: { slug: input.team.slug, name: input.team.name },
    submission: {
      id: s.id,
      url: siteLink(submissionPageUrl(s.id), input.siteUrl),
      system: s.system,
      mode: s.mode,
      dataset_version: s.datasetVersion,
      status: s.status,
      visibility: s.visibility,
      run: s.run,
    },
    reason: input.reason,
  });
}

export function testPayload(team: { slug: string; name: string }, now: Date): NotificationPayload {
  return { event: TEST_EVENT, occurred_at: now.toISOString(), team, submission: null, reason: null };
}

/** The exact bytes POSTed: delivery_id first, so a receiver reading the head of a log sees it. */
export function webhookBody(payload: NotificationPayload, deliveryId: string): string {
  const body: WebhookBody = { delivery_id: deliveryId, ...payload };
  return JSON.stringify(body);
}

const EVENT_TEXT: Record<NotificationPayload["event"], string> = {
  evaluation_completed: "evaluation completed",
  evaluation_failed: "evaluation failed",
  publication_approved: "publication approved",
  publication_rejected: "publication rejected",
  webhook_test: "test delivery",
};

/** One line saying what happened, for the notifications page and the e-mail subject. */
export function notificationHeadline(event: NotificationPayload["event"], system: string | null): string {
  return system ? `${system}: ${EVENT_TEXT[event]}` : `ChainSWE ${EVENT_TEXT[event]}`;
}

/** The e-mail for a notification: plain text, the same facts as the webhook body. */
export function notificationEmail(payload: NotificationPayload): { subject: string; text: string } {
  const s = payload.submission;
  const lines = [
    `Team ${payload.team.name}: ${notificationHeadline(payload.event, s?.system ?? null)}.`,
    ...(s ? ["", `Submission ${s.id} (${s.mode}, dataset ${s.dataset_version}, run ${s.run})`, `Status: ${s.status}, visibility: ${s.visibility.replace("_", " ")}`] : []),
    ...(payload.reason ? ["", `Reason: ${payload.reason}`] : []),
    ...(s ? ["", s.url] : []),
  ];
  return { subject: `[ChainSWE] ${notificationHeadline(payload.event, s?.system ?? null)}`, text: `${lines.join("\n")}\n` };
}
