import { describe, expect, it } from "vitest";
import { notificationEmail, notificationPayload, testPayload, webhookBody } from "./payload";

const input = {
  event: "publication_rejected" as const,
  occurredAt: new Date("2026-12-04T20:00:00Z"),
  team: { slug: "alpha", name: "Alpha" },
  submission: { id: "sub1", system: "alpha-agent", mode: "seq", datasetVersion: "v1", status: "completed", visibility: "rejected", run: 1 },
  reason: "missing cost figures",
  siteUrl: "https://chainswe.example.org",
};

describe("notificationPayload", () => {
  it("has the documented shape", () => {
    expect(notificationPayload(input)).toEqual({
      event: "publication_rejected",
      occurred_at: "2026-12-04T20:00:00.000Z",
      team: { slug: "alpha", name: "Alpha" },
      submission: {
        id: "sub1",
        url: "https://chainswe.example.org/submissions/sub1",
        system: "alpha-agent",
        mode: "seq",
        dataset_version: "v1",
        status: "completed",
        visibility: "rejected",
        run: 1,
      },
      reason: "missing cost figures",
    });
  });

  it("links by path when the site's URL is unknown", () => {
    expect(notificationPayload({ ...input, siteUrl: undefined }).submission?.url).toBe("/submissions/sub1");
  });

  it("refuses a column value outside its set", () => {
    expect(() => notificationPayload({ ...input, submission: { ...input.submission, status: "weird" } })).toThrow();
  });
});

describe("webhookBody", () => {
  it("is the payload with delivery_id, the same bytes each time", () => {
    const payload = notificationPayload(input);
    const body = webhookBody(payload, "d1");
    expect(JSON.parse(body)).toEqual({ delivery_id: "d1", ...payload });
    expect(webhookBody(payload, "d1")).toBe(body);
  });

  it("has no submission for a test delivery", () => {
    expect(JSON.parse(webhookBody(testPayload({ slug: "alpha", name: "Alpha" }, input.occurredAt), "d2"))).toMatchObject({ event: "webhook_test", submission: null });
  });
});

describe("notificationEmail", () => {
  it("says what happened, why, and where to look", () => {
    const mail = notificationEmail(notificationPayload(input));
    expect(mail.subject).toBe("[ChainSWE] alpha-agent: publication rejected");
    expect(mail.text).toContain("Reason: missing cost figures");
    expect(mail.text).toContain("https://chainswe.example.org/submissions/sub1");
  });
});
