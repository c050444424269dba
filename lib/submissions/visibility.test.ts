/** The publication state machine as one table: every (action, visibility, status, role) that matters. */
import { describe, expect, it } from "vitest";
import type { SubmissionStatus, Visibility } from "@/core/schemas/columns";
import { availableActions, decisionConflict, deletionRefusal, visibilityRequestSchema, visibilityTransition, type VisibilityAction } from "@/lib/submissions/visibility";

const none = { formerMember: false, invited: false, tookPart: false };
const team = { team: true, reviewer: false, ties: none };
const reviewer = { team: false, reviewer: true, ties: none };
const both = { team: true, reviewer: true, ties: none };
const stranger = { team: false, reviewer: false, ties: none };
/** reviewers tied to the submission other than by being on its team now */
const formerMember = { ...reviewer, ties: { ...none, formerMember: true } };
const invited = { ...reviewer, ties: { ...none, invited: true } };
const tookPart = { ...reviewer, ties: { ...none, tookPart: true } };
const now = new Date("2026-01-02T03:04:05Z");

type Row = [VisibilityAction, Visibility, SubmissionStatus, typeof team, string | null, Visibility | "forbidden" | "state" | "reason"];

const TABLE: Row[] = [
  // the team asks for publication of a completed evaluation
  ["request_publication", "private", "completed", team, null, "pending_review"],
  ["request_publication", "rejected", "completed", team, null, "pending_review"],
  ["request_publication", "private", "running", team, null, "state"],
  ["request_publication", "private", "queued", team, null, "state"],
  ["request_publication", "private", "failed", team, null, "state"],
  ["request_publication", "private", "cancelled", team, null, "state"],
  ["request_publication", "pending_review", "completed", team, null, "state"],
  ["request_publication", "public", "completed", team, null, "state"],
  ["request_publication", "private", "completed", reviewer, null, "forbidden"],
  ["request_publication", "private", "completed", stranger, null, "forbidden"],
  // the team withdraws from anything but private
  ["withdraw", "pending_review", "completed", team, null, "private"],
  ["withdraw", "public", "completed", team, null, "private"],
  ["withdraw", "rejected", "completed", team, null, "private"],
  ["withdraw", "public", "running", team, null, "private"],
  ["withdraw", "private", "completed", team, null, "state"],
  ["withdraw", "public", "completed", reviewer, null, "forbidden"],
  ["withdraw", "public", "completed", stranger, null, "forbidden"],
  // a reviewer decides a pending request
  ["approve", "pending_review", "completed", reviewer, null, "public"],
  // no one decides on their own team's submission
  ["approve", "pending_review", "completed", both, null, "forbidden"],
  ["reject", "pending_review", "completed", both, "x", "forbidden"],
  // …nor on a submission of a team they were in, are invited to, or a submission they took part in
  ["approve", "pending_review", "completed", formerMember, null, "forbidden"],
  ["reject", "pending_review", "completed", formerMember, "x", "forbidden"],
  ["approve", "pending_review", "completed", invited, null, "forbidden"],
  ["reject", "pending_review", "completed", invited, "x", "forbidden"],
  ["approve", "pending_review", "completed", tookPart, null, "forbidden"],
  ["reject", "pending_review", "completed", tookPart, "x", "forbidden"],
  ["approve", "private", "completed", reviewer, null, "state"],
  ["approve", "rejected", "completed", reviewer, null, "state"],
  ["approve", "public", "completed", reviewer, null, "state"],
  ["approve", "pending_review", "completed", team, null, "forbidden"],
  ["approve", "pending_review", "completed", stranger, null, "forbidden"],
  ["reject", "pending_review", "completed", reviewer, "flaky tests", "rejected"],
  ["reject", "pending_review", "completed", reviewer, null, "reason"],
  ["reject", "pending_review", "completed", reviewer, "   ", "reason"],
  ["reject", "public", "completed", reviewer, "x", "state"],
  ["reject", "private", "completed", reviewer, "x", "state"],
  ["reject", "pending_review", "completed", team, "x", "forbidden"],
];

describe("visibilityTransition", () => {
  it.each(TABLE)("%s from %s (%s) by %o, reason %s → %s", (action, visibility, status, role, reason, want) => {
    const t = visibilityTransition({ action, visibility, status, role, reason, now });
    if (want === "forbidden" || want === "state" || want === "reason") {
      expect(t).toMatchObject({ ok: false, refusal: want });
      if (!t.ok) expect(t.message).not.toBe("");
    } else {
      expect(t).toMatchObject({ ok: true, to: want, changes: { visibility: want } });
    }
  });

  it("records who asked when, and the reviewer's decision and reason", () => {
    expect(visibilityTransition({ action: "request_publication", visibility: "rejected", status: "completed", role: team, now })).toEqual({
      ok: true,
      to: "pending_review",
      audit: "publication_requested",
      reason: null,
      changes: { visibility: "pending_review", publishRequestedAt: now, reviewedAt: null, reviewReason: null },
    });
    expect(visibilityTransition({ action: "reject", visibility: "pending_review", status: "completed", role: reviewer, reason: " flaky ", now })).toMatchObject({
      audit: "publication_rejected",
      reason: "flaky",
      changes: { visibility: "rejected", reviewedAt: now, reviewReason: "flaky" },
    });
    expect(visibilityTransition({ action: "withdraw", visibility: "public", status: "completed", role: team, now })).toMatchObject({
      audit: "publication_withdrawn",
      changes: { visibility: "private", publishRequestedAt: null },
    });
  });
});

describe("availableActions", () => {
  it("offers the team cancel while running and publication once completed", () => {
    expect(availableActions(team, "private", "running")).toMatchObject({ cancel: true, request_publication: false, withdraw: false, approve: false, rerun: false, predictions: true });
    expect(availableActions(team, "private", "completed")).toMatchObject({ cancel: false, request_publication: true, withdraw: false });
    expect(availableActions(team, "rejected", "completed")).toMatchObject({ request_publication: true, withdraw: true });
    expect(availableActions(team, "pending_review", "completed")).toMatchObject({ request_publication: false, withdraw: true, approve: false });
  });

  it("offers reviewers approve, reject and re-run; visitors nothing", () => {
    expect(availableActions(reviewer, "pending_review", "completed")).toMatchObject({ approve: true, reject: true, rerun: true, cancel: false, withdraw: false, predictions: true });
    expect(availableActions(reviewer, "public", "completed")).toMatchObject({ approve: false, reject: false, rerun: true });
    expect(Object.values(availableActions(stranger, "public", "completed")).some(Boolean)).toBe(false);
  });

  it("offers a reviewer on the submitting team the team's actions but no decision", () => {
    expect(availableActions(both, "pending_review", "completed")).toMatchObject({ approve: false, reject: false, rerun: false, withdraw: true });
  });

  it("offers no decision to a reviewer who was in the team, is invited to it, or took part in the submission", () => {
    for (const role of [formerMember, invited, tookPart]) {
      expect(availableActions(role, "pending_review", "completed")).toMatchObject({ approve: false, reject: false, rerun: false, predictions: true });
    }
  });
});

describe("deletionRefusal", () => {
  it("lets the team delete its private submission once no evaluation runs; nothing else", () => {
    expect(deletionRefusal(team, "private", "completed")).toBeNull();
    expect(deletionRefusal(team, "private", "cancelled")).toBeNull();
    expect(deletionRefusal(team, "private", "failed")).toBeNull();
    expect(deletionRefusal(team, "private", "running")).toMatch(/running: cancel it first/);
    expect(deletionRefusal(team, "private", "queued")).toMatch(/queued: cancel it first/);
    for (const v of ["pending_review", "public", "rejected"] as const) expect(deletionRefusal(team, v, "completed")).toMatch(/only a private submission/);
    expect(deletionRefusal(reviewer, "private", "completed")).toMatch(/only the submitting team/);
    expect(availableActions(team, "private", "completed").delete).toBe(true);
    expect(availableActions(team, "public", "completed").delete).toBe(false);
    expect(availableActions(reviewer, "private", "completed").delete).toBe(false);
  });
});

describe("decisionConflict", () => {
  it("names the tie that bars the decision, the current membership first", () => {
    expect(decisionConflict(reviewer)).toBeNull();
    expect(decisionConflict(both)).toMatch(/own team/);
    expect(decisionConflict(formerMember)).toMatch(/were a member of the submitting team.*another reviewer/);
    expect(decisionConflict(invited)).toMatch(/invited to the submitting team/);
    expect(decisionConflict(tookPart)).toMatch(/took part in this submission/);
    expect(decisionConflict({ ...both, ties: { formerMember: true, invited: true, tookPart: true } })).toMatch(/own team/);
  });
});

describe("visibilityRequestSchema", () => {
  it("trims the reason and caps its length, naming the field", () => {
    expect(visibilityRequestSchema.parse({ action: "reject", reason: "  why  " })).toEqual({ action: "reject", reason: "why" });
    const bad = visibilityRequestSchema.safeParse({ action: "reject", reason: "x".repeat(2001) });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(["reason"]);
    expect(visibilityRequestSchema.safeParse({ action: "publish" }).success).toBe(false);
  });
});
