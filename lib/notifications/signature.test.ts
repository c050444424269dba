import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { SIGNATURE_HEADER, TIMESTAMP_HEADER, newWebhookSecret, webhookHeaders, webhookSignature } from "./signature";

describe("webhookSignature", () => {
  it("is the hex HMAC-SHA256 of '<timestamp>.<body>' keyed with the secret", () => {
    // computed independently: a fixed key, timestamp and body
    const expected = createHmac("sha256", "s3cret").update('1700000000.{"a":1}').digest("hex");
    expect(webhookSignature("s3cret", 1_700_000_000, '{"a":1}')).toBe(`sha256=${expected}`);
    // and the same value from openssl: printf '%s' '1700000000.{"a":1}' | openssl dgst -sha256 -hmac s3cret
    expect(expected).toBe("1698a50bc74d1ff1db85c4e0a5297c2ad9fdba245d5737cdb789e4cc6e098940");
  });

  it("changes with the timestamp, the body and the secret", () => {
    const base = webhookSignature("k", 1, "b");
    expect(webhookSignature("k", 2, "b")).not.toBe(base);
    expect(webhookSignature("k", 1, "c")).not.toBe(base);
    expect(webhookSignature("j", 1, "b")).not.toBe(base);
  });
});

describe("webhookHeaders", () => {
  it("signs the timestamp it sends, in unix seconds", () => {
    const h = webhookHeaders({ secret: "k", body: "{}", event: "webhook_test", deliveryId: "d1", now: new Date("2026-12-04T20:00:00.900Z") });
    expect(h[TIMESTAMP_HEADER]).toBe("1796414400");
    expect(h[SIGNATURE_HEADER]).toBe(`sha256=${createHmac("sha256", "k").update("1796414400.{}").digest("hex")}`);
    expect(h["content-type"]).toBe("application/json");
  });
});

it("makes a new secret each time", () => {
  expect(newWebhookSecret()).toMatch(/^whsec_[0-9a-f]{64}$/);
  expect(newWebhookSecret()).not.toBe(newWebhookSecret());
});
