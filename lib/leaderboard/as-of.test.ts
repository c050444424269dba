/**
 * The archived board's rules (SPEC §6), pure: which day `as_of` names, whether
 * a submission was public at its end, and which stored scores were current then.
 */
import { describe, expect, it } from "vitest";
import { asOfSchema, endOfDay, publicAt, scoresAt, type PublicationEvent } from "@/lib/leaderboard/as-of";

const at = (iso: string) => new Date(iso);
const approved = (iso: string): PublicationEvent => ({ action: "publication_approved", at: at(iso) });
const withdrawn = (iso: string): PublicationEvent => ({ action: "publication_withdrawn", at: at(iso) });
const notNow = { public: false, reviewedAt: null };

describe("as_of", () => {
  it("names a calendar day no later than today; its end is the next midnight UTC", () => {
    expect(asOfSchema.parse("2026-01-15")).toBe("2026-01-15");
    expect(endOfDay("2026-01-15").toISOString()).toBe("2026-01-16T00:00:00.000Z");
    expect(endOfDay("2024-02-29").toISOString()).toBe("2024-03-01T00:00:00.000Z");
    const problem = (v: string) => asOfSchema.safeParse(v).error?.issues[0]?.message;
    expect(problem("yesterday")).toMatch(/YYYY-MM-DD/);
    expect(problem("2026-02-30")).toMatch(/not a calendar date/);
    const tomorrow = new Date(Date.now() + 36 * 3600_000).toISOString().slice(0, 10);
    expect(problem(tomorrow)).toMatch(/in the future/);
    expect(problem(new Date().toISOString().slice(0, 10))).toBeUndefined();
  });
});

describe("publicAt", () => {
  const end = endOfDay("2026-01-15");
  it("is the last decision before the day's end: an approval", () => {
    expect(publicAt([approved("2026-01-10T12:00:00Z")], end, notNow)).toBe(true);
    expect(publicAt([approved("2026-01-15T23:59:59Z")], end, notNow)).toBe(true);
    // decided the next day: not yet public then
    expect(publicAt([approved("2026-01-16T00:00:00Z")], end, notNow)).toBe(false);
    expect(publicAt([approved("2026-01-10T00:00:00Z"), withdrawn("2026-01-12T00:00:00Z")], end, notNow)).toBe(false);
    // withdrawn later: it was public that day, whatever it is now
    expect(publicAt([withdrawn("2026-01-20T00:00:00Z"), approved("2026-01-10T00:00:00Z")], end, notNow)).toBe(true);
    expect(publicAt([approved("2026-01-01T00:00:00Z"), withdrawn("2026-01-05T00:00:00Z"), approved("2026-01-14T00:00:00Z")], end, notNow)).toBe(true);
    expect(publicAt([], end, notNow)).toBe(false);
  });

  it("takes the review's time for a submission public today with no decision in the log", () => {
    expect(publicAt([], end, { public: true, reviewedAt: at("2026-01-14T00:00:00Z") })).toBe(true);
    expect(publicAt([], end, { public: true, reviewedAt: at("2026-01-17T00:00:00Z") })).toBe(false);
    // the log decides when it has anything
    expect(publicAt([withdrawn("2026-01-01T00:00:00Z")], end, { public: true, reviewedAt: at("2026-01-14T00:00:00Z") })).toBe(false);
  });
});

describe("scoresAt", () => {
  const end = endOfDay("2026-01-15");
  const current = { computedAt: at("2026-02-01T00:00:00Z"), graderVersion: "0.4.0" };
  const older = { computedAt: at("2026-01-02T00:00:00Z"), replacedAt: at("2026-01-10T00:00:00Z"), graderVersion: "0.2.0" };
  const then = { computedAt: at("2026-01-10T00:00:00Z"), replacedAt: at("2026-02-01T00:00:00Z"), graderVersion: "0.3.0" };
  it("is the current row when it was computed by then", () => {
    expect(scoresAt({ current: { computedAt: at("2026-01-03T00:00:00Z"), graderVersion: "0.4.0" }, revisions: [] }, end)?.graderVersion).toBe("0.4.0");
  });
  it("else the revision that was current then, grader version included", () => {
    expect(scoresAt({ current, revisions: [older, then] }, end)).toEqual({ computedAt: then.computedAt, graderVersion: "0.3.0" });
    expect(scoresAt({ current, revisions: [older, then] }, endOfDay("2026-01-05"))).toEqual({ computedAt: older.computedAt, graderVersion: "0.2.0" });
  });
  it("is none before the first scores, or between a re-run's reset and its new scores", () => {
    expect(scoresAt({ current, revisions: [older, then] }, endOfDay("2026-01-01"))).toBeNull();
    // re-run on the 10th (scores retired), rescored on Feb 1
    expect(scoresAt({ current, revisions: [older] }, end)).toBeNull();
    expect(scoresAt({ current: null, revisions: [] }, end)).toBeNull();
  });
});
