/**
 * Notifications in the browser: a team admin sets a webhook to a receiver
 * this spec starts (node:http on 127.0.0.1), gets the secret once, sends a
 * test delivery and sees it in the delivery log, and the receiver got a body
 * signed with that secret; then a real evaluation's end is a notification on
 * the notifications page (unread, linking to the submission) and a second,
 * signed delivery. Last, the receiver redirects: the team sees "redirect
 * refused" and never the Location, and the sixth test within ten minutes is
 * refused without being sent.
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
  const secretPlace = "http://169.254.169.254/latest/meta-data/";
  const receiver = await startWebhookReceiver([200, 200, { status: 302, headers: { location: secretPlace } }]);
  const admin = await teamMember(browser, `nt-${run}`, `NT ${run}`, "nt-agent");
  const { page } = admin;
  try {
    await page.goto(`/teams/${admin.slug}`);
    await page.getByLabel("Webhook URL").fill(receiver.url);
    await page.getByRole("button", { name: "Add webhook" }).click();
    const secret = await page.getByLabel("Webhook secret").inputValue();
    expect(secret).toMatch(/^whsec_[0-9a-f]{64}$/);

    const testButton = page.getByRole("button", { name: "Send test delivery" });
    await testButton.click();
    await expect(page.getByText("Test delivery: delivered.")).toBeVisible();
    const log = page.getByTestId("delivery-log");
    await expect(log).toContainText("webhook_test");
    await expect(log).toContainText("delivered");
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

    // four more tests, redirected: shown as a category; then the team's sixth in ten minutes is refused, unsent
    for (let received = 3; received <= 6; received++) {
      await testButton.click();
      await expect.poll(() => receiver.received.length).toBe(received);
      // the button is named so again once the answer is in
      await expect(testButton).toBeEnabled();
    }
    await expect(page.getByText("Test delivery failed: redirect refused. A test delivery is not retried.")).toBeVisible();
    await expect(page.getByTestId("delivery-log")).toContainText("redirect refused");
    await testButton.click();
    await expect(page.getByText(/^Too many test deliveries: this team has sent 5 in the last 10 minutes; try again in \d+ min\.$/)).toBeVisible();
    expect(receiver.received).toHaveLength(6);
    expect(await page.content()).not.toContain("169.254");
  } finally {
    await admin.context.close();
    await receiver.close();
  }
});
