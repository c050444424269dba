import { describe, expect, it } from "vitest";
import { emailRecipients, plannedDeliveries } from "./recipients";

describe("emailRecipients", () => {
  it("takes each member's address once, skipping members without one", () => {
    expect(emailRecipients([{ email: "a@x.org" }, { email: null }, { email: "A@x.org" }, { email: " b@x.org " }, { email: "" }])).toEqual(["a@x.org", "b@x.org"]);
  });
});

describe("plannedDeliveries", () => {
  const members = [{ email: "a@x.org" }, { email: null }];
  it("is a webhook POST when the team has a webhook and an e-mail per address when e-mail is on", () => {
    expect(plannedDeliveries({ hasWebhook: true, emailEnabled: true, members })).toEqual([
      { channel: "webhook", recipient: null },
      { channel: "email", recipient: "a@x.org" },
    ]);
  });
  it("is nothing with neither", () => {
    expect(plannedDeliveries({ hasWebhook: false, emailEnabled: false, members })).toEqual([]);
  });
});
