/**
 * Who is told, and how: pure decisions over what the database holds, so the
 * delivery loop only writes what these answer.
 */
import type { DeliveryChannel } from "@/core/schemas/columns";

export type PlannedDelivery = { channel: DeliveryChannel; recipient: string | null };

/** The team's members who gave an e-mail address, each address once (case aside), in the order given. */
export function emailRecipients(members: { email: string | null }[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const m of members) {
    const email = m.email?.trim();
    if (!email || seen.has(email.toLowerCase())) continue;
    seen.add(email.toLowerCase());
    out.push(email);
  }
  return out;
}

/** A notification's deliveries: one webhook POST when the team has a webhook, one e-mail per member with an address when the site sends e-mail. */
export function plannedDeliveries(o: { hasWebhook: boolean; emailEnabled: boolean; members: { email: string | null }[] }): PlannedDelivery[] {
  return [
    ...(o.hasWebhook ? [{ channel: "webhook", recipient: null } as const] : []),
    ...(o.emailEnabled ? emailRecipients(o.members).map((recipient) => ({ channel: "email", recipient }) as const) : []),
  ];
}
