/** proposalDecision, the review's rule, as a pure function: who may decide, on what, with what. */
import { describe, expect, it } from "vitest";
import { NO_TIES } from "@/lib/submissions/visibility";
import { proposalDecision } from "./review";

const free = { team: false, reviewer: true, ties: NO_TIES };
const valid = { status: "valid", review: "pending" } as const;
const accept = { decision: "accept", reason: "stable" } as const;

describe("proposalDecision", () => {
  it("a reviewer with no tie accepts a valid chain, or rejects any pending one, with the reason", () => {
    expect(proposalDecision(accept, valid, free)).toEqual({ ok: true, review: "accepted", audit: "proposed_chain_accepted", reason: "stable" });
    expect(proposalDecision({ decision: "reject", reason: "gold fails" }, { status: "refused", review: "pending" }, free)).toMatchObject({ ok: true, review: "rejected" });
  });

  it("refuses the proposer, a teammate of the proposer and a non-reviewer", () => {
    expect(proposalDecision(accept, valid, { ...free, ties: { ...NO_TIES, tookPart: true } })).toMatchObject({ ok: false, refusal: "forbidden", message: expect.stringMatching(/own proposal/) });
    expect(proposalDecision(accept, valid, { ...free, team: true })).toMatchObject({ ok: false, refusal: "forbidden", message: expect.stringMatching(/own team's members/) });
    expect(proposalDecision(accept, valid, { ...free, reviewer: false })).toMatchObject({ ok: false, refusal: "forbidden" });
  });

  it("accepts only a valid chain, and decides once", () => {
    for (const status of ["validating", "refused", "failed"] as const) expect(proposalDecision(accept, { status, review: "pending" }, free)).toMatchObject({ ok: false, refusal: "state" });
    expect(proposalDecision(accept, { status: "valid", review: "rejected" }, free)).toMatchObject({ ok: false, message: "this chain was already rejected" });
  });
});
