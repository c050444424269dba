/**
 * Signing a webhook body. The signed text is `<timestamp>.<raw body>`, so a
 * receiver that checks the timestamp's age also refuses an old body replayed
 * with its old signature. Pure (node:crypto only).
 */
import { createHmac, randomBytes } from "node:crypto";

export const SIGNATURE_HEADER = "X-ChainSWE-Signature";
export const TIMESTAMP_HEADER = "X-ChainSWE-Timestamp";
export const EVENT_HEADER = "X-ChainSWE-Event";
export const DELIVERY_HEADER = "X-ChainSWE-Delivery";

/** `sha256=<hex HMAC-SHA256 of "<timestamp>.<body>" keyed with the secret>` */
export function webhookSignature(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`;
}

/** The headers of one POST: unix seconds when it was sent, and the signature over them and the body. */
export function webhookHeaders(o: { secret: string; body: string; event: string; deliveryId: string; now: Date }): Record<string, string> {
  const timestamp = Math.floor(o.now.getTime() / 1000);
  return {
    "content-type": "application/json",
    "user-agent": "ChainSWE-Webhook/1",
    [TIMESTAMP_HEADER]: String(timestamp),
    [SIGNATURE_HEADER]: webhookSignature(o.secret, timestamp, o.body),
    [EVENT_HEADER]: o.event,
    [DELIVERY_HEADER]: o.deliveryId,
  };
}

/** A new webhook secret: 32 random bytes, shown to the team's admins once. */
export const newWebhookSecret = (): string => `whsec_${randomBytes(32).toString("hex")}`;
