import { describe, expect, it } from "vitest";
import type { Viewer } from "@/lib/accounts/users";
import { canActForTeam, canReadSubmission, canReadTrajectories, canReview, isTeamAdmin } from "./authz";

const viewer = (over: Partial<Viewer> = {}): Viewer => ({
  id: "u1",
  username: "ann",
  name: "Ann",
  isReviewer: false,
  isSiteAdmin: false,
  teams: [],
  ...over,
});
const member = viewer({ teams: [{ id: "t1", slug: "t1", name: "T1", role: "member" }] });
const admin = viewer({ teams: [{ id: "t1", slug: "t1", name: "T1", role: "admin" }] });
const otherTeam = viewer({ teams: [{ id: "t2", slug: "t2", name: "T2", role: "admin" }] });
const reviewer = viewer({ isReviewer: true });
const siteAdmin = viewer({ isSiteAdmin: true });

describe("canReadSubmission", () => {
  it("shows public results to everyone, visitors included", () => {
    for (const v of [null, member, otherTeam, reviewer]) expect(canReadSubmission(v, { teamId: "t1", visibility: "public" })).toBe(true);
  });
  it("shows private, pending and rejected results to the team and reviewers only", () => {
    for (const visibility of ["private", "pending_review", "rejected"] as const) {
      const s = { teamId: "t1", visibility };
      expect(canReadSubmission(null, s)).toBe(false);
      expect(canReadSubmission(otherTeam, s)).toBe(false);
      expect(canReadSubmission(viewer(), s)).toBe(false);
      expect(canReadSubmission(member, s)).toBe(true);
      expect(canReadSubmission(reviewer, s)).toBe(true);
      expect(canReadSubmission(siteAdmin, s)).toBe(true);
    }
  });
});

describe("canReadTrajectories", () => {
  it("shows them to everyone only when the submission is public and the team chose so; always to the team and reviewers", () => {
    const everyone = [null, viewer(), otherTeam, member, reviewer, siteAdmin];
    expect(everyone.map((v) => canReadTrajectories(v, { teamId: "t1", visibility: "public", trajectoriesPublic: true }))).toEqual([true, true, true, true, true, true]);
    for (const s of [
      { teamId: "t1", visibility: "public" as const, trajectoriesPublic: false },
      { teamId: "t1", visibility: "pending_review" as const, trajectoriesPublic: true },
      { teamId: "t1", visibility: "private" as const, trajectoriesPublic: true },
    ]) {
      expect(everyone.map((v) => canReadTrajectories(v, s))).toEqual([false, false, false, true, true, true]);
    }
  });
});

describe("roles", () => {
  it("team admin is per team; site admins administer every team", () => {
    expect(isTeamAdmin(admin, "t1")).toBe(true);
    expect(isTeamAdmin(member, "t1")).toBe(false);
    expect(isTeamAdmin(otherTeam, "t1")).toBe(false);
    expect(isTeamAdmin(siteAdmin, "t1")).toBe(true);
    expect(isTeamAdmin(null, "t1")).toBe(false);
  });
  it("only members act for a team; reviewers review but do not submit for others", () => {
    expect(canActForTeam(member, "t1")).toBe(true);
    expect(canActForTeam(reviewer, "t1")).toBe(false);
    expect(canActForTeam(null, "t1")).toBe(false);
    expect(canReview(reviewer)).toBe(true);
    expect(canReview(siteAdmin)).toBe(true);
    expect(canReview(admin)).toBe(false);
    expect(canReview(null)).toBe(false);
  });
});
