/** The queue's rules without a database: backoff, what a failure does, submission status. */
import { describe, expect, it } from "vitest";
import { DatasetError, EnvironmentError } from "@/core/errors";
import { backoffMs, failureOutcome, settledSubmissionStatus } from "./policy";

const backoff = { baseMs: 1000, maxMs: 5000 };
const policy = { maxAttempts: 3, backoff };
const now = new Date("2026-01-01T00:00:00Z");

describe("backoffMs", () => {
  it("doubles with each failed attempt, up to the cap", () => {
    expect([1, 2, 3, 4, 5, 40].map((a) => backoffMs(a, backoff))).toEqual([1000, 2000, 4000, 5000, 5000, 5000]);
  });
});

describe("failureOutcome", () => {
  it("fails a job for good on a dataset error, whatever the attempts left", () => {
    const out = failureOutcome(new DatasetError("test patch does not apply", "c-1", 2), 1, policy, now);
    expect(out).toEqual({ status: "failed", lastError: "dataset error at bug 2: test patch does not apply" });
  });

  it("retries an environment error after the backoff", () => {
    const out = failureOutcome(new EnvironmentError("engine down"), 2, policy, now);
    expect(out).toEqual({ status: "queued", lastError: "environment error: engine down", runAfter: new Date(now.getTime() + 2000) });
  });

  it("retries any other error too, and gives up at maxAttempts", () => {
    expect(failureOutcome(new TypeError("oops"), 1, policy, now).status).toBe("queued");
    expect(failureOutcome("a string was thrown", 1, policy, now).status).toBe("queued");
    const out = failureOutcome(new EnvironmentError("engine down"), 3, policy, now);
    expect(out).toEqual({ status: "failed", lastError: "environment error: engine down (gave up after 3 attempt(s))" });
  });
});

describe("settledSubmissionStatus", () => {
  const j = (status: "queued" | "running" | "done" | "failed" | "cancelled", attempts = 1) => ({ status, attempts });
  it("stays queued until a job is claimed, then runs", () => {
    expect(settledSubmissionStatus("queued", [j("queued", 0), j("queued", 0)])).toBe("queued");
    expect(settledSubmissionStatus("queued", [j("running"), j("queued", 0)])).toBe("running");
    // a retry waiting in the queue keeps the submission running
    expect(settledSubmissionStatus("running", [j("queued", 1), j("done")])).toBe("running");
  });

  it("completes when every chain is done and fails when any chain failed", () => {
    expect(settledSubmissionStatus("running", [j("done"), j("done")])).toBe("completed");
    expect(settledSubmissionStatus("running", [j("done"), j("failed")])).toBe("failed");
    expect(settledSubmissionStatus("running", [j("done"), j("running")])).toBe("running");
  });

  it("never leaves cancelled", () => {
    expect(settledSubmissionStatus("cancelled", [j("done"), j("done")])).toBe("cancelled");
  });
});
