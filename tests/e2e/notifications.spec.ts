/**
 * Notifications in the browser: a team admin sets a webhook to a receiver
 * this spec starts (node:http on 127.0.0.1), gets the secret once, sends a
 * test delivery and sees it in the delivery log, and the receiver got a body
 * signed with that secret; then a real evaluation's end is a notification on
 * the notifications page (unread, linking to the submission) and a second,
 * signed delivery.
 */
import { createHmac } from "node:crypto";
import { expect, test } from "@playwright/test";
import { startWebhookReceiver, type ReceivedRequest } from "../../lib/testing/webhook-receiver";
import { teamMember, upload, waitForStatus } from "./hostile-steps";

const run = Date.now().toString(36);

function expectSigned(req: ReceivedRequest, secret: string): Record<string, unknown> {
  const timestamp = String(req.headers["x-chainswe-timestamp"]);
  expect(timestamp).toMatch(/^\d+$/);
  expect(req.headers["x-chainswe-signature"]).toBe(`sha256=${createHmac("sha256", secret).update(`${timestamp}.${req.body}`).digest("hex")}`);
  return JSON.parse(req.body) as Record<string, unknown>;
}

test("a team's webhook and notifications: test delivery signed and logged; an evaluation's end is on the notifications page", async ({ browser }) => {
  const receiver = await startWebhookReceiver([200]);
  const admin = await teamMember(browser, `nt-${run}`, `NT ${run}`, "nt-agent");
  const { page } = admin;
  try {
    await page.goto(`/teams/${admin.slug}`);
    await page.getByLabel("Webhook URL").fill(receiver.url);
    await page.getByRole("button", { name: "Add webhook" }).click();
    const secret = await page.getByLabel("Webhook secret").inputValue();
    expect(secret).toMatch(/^whsec_[0-9a-f]{64}$/);

    await page.getByRole("button", { name: "Send test delivery" }).click();
    await expect(page.getByText("Test delivery sent: HTTP 200.")).toBeVisible();
    const log = page.getByTestId("delivery-log");
    await expect(log).toContainText("webhook_test");
    await expect(log).toContainText("HTTP 200");
    expect(receiver.received).toHaveLength(1);
    const test = expectSigned(receiver.received[0]!, secret);
    expect(test).toMatchObject({ event: "webhook_test", submission: null, team: { slug: admin.slug } });
    expect(test.delivery_id).toEqual(expect.any(String));
    // the secret is not shown again
    await page.reload();
    await expect(page.getByLabel("Webhook secret")).toHaveCount(0);

    const id = await upload(page.request, admin);
    await waitForStatus(page.request, admin.token, id, "completed");
    await page.goto("/notifications");
    const row = page.getByTestId("notifications").locator("tbody tr").first();
    await expect(row).toContainText("nt-agent: evaluation completed");
    await expect(row).toHaveAttribute("data-unread", "true");
    await expect(row.getByRole("link", { name: "nt-agent: evaluation completed" })).toHaveAttribute("href", `/submissions/${id}`);
    await expect(page.getByRole("link", { name: "Notifications, 1 unread" })).toBeVisible();
    await page.getByRole("button", { name: /Mark all read/ }).click();
    await expect(row).toHaveAttribute("data-unread", "false");
    await expect(page.getByRole("link", { name: "Notifications", exact: true })).toBeVisible();

    // the delivery loop POSTed the same event, signed
    await expect.poll(() => receiver.received.length, { timeout: 30_000 }).toBe(2);
    expect(expectSigned(receiver.received[1]!, secret)).toMatchObject({ event: "evaluation_completed", submission: { id, status: "completed", system: "nt-agent", mode: "oracle" } });
    await page.goto(`/teams/${admin.slug}`);
    await expect(page.getByTestId("delivery-log")).toContainText("evaluation_completed");
  } finally {
    await admin.context.close();
    await receiver.close();
  }
});
