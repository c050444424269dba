/**
 * Separation of duties beyond today's membership, against a real database: a
 * reviewer who was ever in the submitting team, holds an open invitation to it,
 * or took part in the submission decides nothing on it (approve, reject,
 * re-run), the refusal changes nothing, and the submission page offers no
 * such button.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Viewer } from "@/lib/authz";
import { ForbiddenError } from "@/core/errors";
import { DEMO_GOLD_SEQ, gradeQueuedChains, openTestDb } from "@/lib/testing/test-db";

let t: Awaited<ReturnType<typeof openTestDb>>;
let review: typeof import("@/lib/submissions/review");
let view: typeof import("@/lib/submissions/view");
let teams: typeof import("@/lib/teams/data");
let invitations: typeof import("@/lib/teams/invitations");
let users: typeof import("@/lib/accounts/users");
let systemId: string;
let teamId: string;
const ids: Record<string, string> = {};

const CHAINS = ["inikit-chain-1", "moneyx-chain-1"];

/** A fresh Viewer, as each request reads one (memberships change during the tests). */
const as = async (username: string): Promise<Viewer> => (await users.viewerById(ids[username]!))!;

async function user(username: string, roles: { isReviewer?: boolean } = {}): Promise<string> {
  ids[username] = (await t.db.user.create({ data: { username, name: username, ...roles } })).id;
  return ids[username];
}

beforeAll(async () => {
  t = await openTestDb();
  review = await import("@/lib/submissions/review");
  view = await import("@/lib/submissions/view");
  teams = await import("@/lib/teams/data");
  invitations = await import("@/lib/teams/invitations");
  users = await import("@/lib/accounts/users");
  const { ensureSystem } = await import("@/lib/teams/systems");
  systemId = await ensureSystem({ teamName: "Alpha", name: "alpha-agent" });
  teamId = (await t.db.system.findUniqueOrThrow({ where: { id: systemId }, select: { teamId: true } })).teamId;
  await t.db.teamMember.create({ data: { teamId, userId: await user("alice"), role: "admin" } });
  await user("rita", { isReviewer: true });
}, 60_000);

afterAll(async () => t?.close());

beforeEach(async () => {
  await t.db.submission.deleteMany();
});

/** A completed submission of team Alpha, uploaded by `by`. */
async function completed(by: string | null = ids.alice!): Promise<string> {
  const { id } = await t.submissions.createSubmission({ systemId, datasetVersion: "v1", mode: "seq", predictions: DEMO_GOLD_SEQ, chainIds: CHAINS, submittedById: by });
  await gradeQueuedChains(t);
  return id;
}

async function pending(by?: string | null): Promise<string> {
  const id = await completed(by);
  await review.changeVisibility(await as("alice"), id, { action: "request_publication" });
  return id;
}

async function snapshot(id: string) {
  const [submission, jobs, audits] = await Promise.all([
    t.db.submission.findUnique({ where: { id } }),
    t.db.evaluationJob.findMany({ where: { submissionId: id }, orderBy: { id: "asc" } }),
    t.db.auditLog.findMany({ where: { targetId: id }, orderBy: { id: "asc" } }),
  ]);
  return { submission, jobs, audits };
}

/** Every decision the reviewer could take is refused with `message`, changes nothing, and the page offers none. */
async function decidesNothing(username: string, id: string, message: RegExp) {
  const viewer = await as(username);
  const before = await snapshot(id);
  for (const act of [
    () => review.changeVisibility(viewer, id, { action: "approve" }),
    () => review.changeVisibility(viewer, id, { action: "reject", reason: "x" }),
    () => review.rerunSubmission(viewer, id),
  ]) {
    const thrown = await act().then(() => null, (e: unknown) => e);
    expect(thrown).toBeInstanceOf(ForbiddenError);
    expect((thrown as Error).message).toMatch(message);
  }
  expect(await snapshot(id)).toEqual(before);
  expect((await view.getSubmissionForViewer(viewer, id)).actions).toMatchObject({ approve: false, reject: false, rerun: false });
}

async function join(username: string): Promise<void> {
  await invitations.inviteMember(await as("alice"), "alpha", { username });
  const [inv] = await invitations.receivedInvitations(await as(username));
  await invitations.answerInvitation(await as(username), inv!.id, "accept");
}

describe("a reviewer who left the team", () => {
  it("cannot approve the submission they uploaded and asked to publish (the member form's remove, then approve)", async () => {
    await user("ruth", { isReviewer: true });
    await join("ruth");
    const id = await completed(ids.ruth!);
    await review.changeVisibility(await as("ruth"), id, { action: "request_publication" });
    await teams.removeMember(await as("ruth"), "alpha", ids.ruth!);
    expect((await as("ruth")).teams).toEqual([]);
    await decidesNothing("ruth", id, /were a member of the submitting team.*another reviewer/);
    expect((await t.db.submission.findUniqueOrThrow({ where: { id } })).visibility).toBe("pending_review");
    // someone with no tie decides
    expect(await review.changeVisibility(await as("rita"), id, { action: "approve" })).toBe("public");
  });

  it("cannot decide on the team's later submissions either, whoever removed them", async () => {
    await user("rolf", { isReviewer: true });
    await join("rolf");
    await teams.removeMember(await as("alice"), "alpha", ids.rolf!);
    expect(await t.db.formerMember.findMany({ where: { userId: ids.rolf! }, select: { teamId: true, role: true } })).toEqual([{ teamId, role: "member" }]);
    const id = await pending();
    await decidesNothing("rolf", id, /were a member/);
  });
});

describe("a reviewer invited to the team", () => {
  it("cannot decide while the invitation is open, nor after accepting it; a declined one is no tie", async () => {
    await user("rosa", { isReviewer: true });
    await user("remy", { isReviewer: true });
    const id = await pending();
    await invitations.inviteMember(await as("alice"), "alpha", { username: "rosa" });
    await decidesNothing("rosa", id, /invited to the submitting team/);
    const [inv] = await invitations.receivedInvitations(await as("rosa"));
    await invitations.answerInvitation(await as("rosa"), inv!.id, "accept");
    await decidesNothing("rosa", id, /own team/);

    await invitations.inviteMember(await as("alice"), "alpha", { username: "remy" });
    const [declined] = await invitations.receivedInvitations(await as("remy"));
    await invitations.answerInvitation(await as("remy"), declined!.id, "decline");
    expect(await review.changeVisibility(await as("remy"), id, { action: "approve" })).toBe("public");
  });
});

describe("a reviewer who took part in the submission", () => {
  it("cannot decide on one they uploaded, even with no membership on record", async () => {
    await user("ravi", { isReviewer: true });
    const id = await pending(ids.ravi!);
    await decidesNothing("ravi", id, /took part in this submission/);
  });

  it("cannot decide on one they asked to publish or withdrew, as the audit log shows", async () => {
    await user("rhea", { isReviewer: true });
    await user("rory", { isReviewer: true });
    const id = await pending();
    // actions taken for the team while a member, before any membership history was kept
    await t.db.auditLog.create({ data: { actorId: ids.rhea!, action: "publication_withdrawn", targetType: "submission", targetId: id } });
    await t.db.auditLog.create({ data: { actorId: ids.rory!, action: "publication_requested", targetType: "submission", targetId: id } });
    await decidesNothing("rhea", id, /took part/);
    await decidesNothing("rory", id, /took part/);
  });

  it("may decide again after a decision of their own (a decision is not taking part)", async () => {
    const id = await pending();
    await review.changeVisibility(await as("rita"), id, { action: "reject", reason: "flaky" });
    await review.changeVisibility(await as("alice"), id, { action: "request_publication" });
    expect(await review.changeVisibility(await as("rita"), id, { action: "approve" })).toBe("public");
  });
});
