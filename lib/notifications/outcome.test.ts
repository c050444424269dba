import { describe, expect, it } from "vitest";
import { attemptAnswer, httpFailure } from "./outcome";

describe("httpFailure", () => {
  it.each([
    [200, null],
    [204, null],
    [301, "redirect refused"],
    [307, "redirect refused"],
    [404, "HTTP 4xx"],
    [405, "HTTP 4xx"],
    [503, "HTTP 5xx"],
    [600, "unexpected HTTP status"],
  ])("HTTP %i is %s", (status, failure) => expect(httpFailure(status)).toBe(failure));
});

describe("attemptAnswer", () => {
  it("shows a stored category as it is, and success as delivered", () => {
    expect(attemptAnswer({ httpStatus: 200, error: null })).toEqual({ ok: true, answer: "delivered" });
    expect(attemptAnswer({ httpStatus: null, error: null })).toEqual({ ok: true, answer: "delivered" });
    expect(attemptAnswer({ httpStatus: null, error: "timed out" })).toEqual({ ok: false, answer: "timed out" });
  });
  it("never shows a raw error stored before categories were", () => {
    expect(attemptAnswer({ httpStatus: 302, error: "redirect to http://10.0.0.5/admin not followed" })).toEqual({ ok: false, answer: "redirect refused" });
    expect(attemptAnswer({ httpStatus: null, error: "connect ECONNREFUSED 10.0.0.5:5432" })).toEqual({ ok: false, answer: "failed" });
    expect(attemptAnswer({ httpStatus: 405, error: "HTTP 405 from the portal" })).toEqual({ ok: false, answer: "HTTP 4xx" });
  });
});
