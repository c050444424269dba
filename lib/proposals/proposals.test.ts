/**
 * Chain proposals against a real database (SQLite, and PostgreSQL in the pg
 * project): intake from real multipart Requests (bad input refused whole,
 * nothing stored), the validation jobs on the queue behind evaluations, the
 * verdict handed in, and the review with its separation of duties. Images are
 * checked on the real engine where a test says so; elsewhere every image is
 * taken as present, so these tests need no Docker.
 */
import { mkdtemp } from "node:fs/promises";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { FieldError, ForbiddenError, InputError, LimitError, NotFoundError, UnauthorizedError } from "@/core/errors";
import { openTestDb, testViewer, TEST_QUEUE_POLICY, type TestDb } from "@/lib/testing/test-db";
import { jsonl, proposedChain } from "@/lib/testing/proposed-chains";
import type { IntakeLimits } from "@/lib/submissions/intake";
import type { Viewer } from "@/lib/accounts/users";

let t: TestDb;
let intake: typeof import("@/lib/proposals/intake");
let data: typeof import("@/lib/proposals/data");
let review: typeof import("@/lib/proposals/review");
let validation: typeof import("@/jobs/validation");
let alice: Viewer; // proposes
let rita: Viewer; // reviewer, no tie to alice
let aliceReviewer: Viewer; // a reviewer on alice's team

const LIMITS: IntakeLimits = { maxUploadBytes: 256 * 1024, maxPatchBytes: 64 * 1024, dailyQuota: 100, maxTrajectoriesBytes: 1024 * 1024, storageBytes: 1024 ** 3 };
const ALL_PRESENT = { missingImages: async () => [] };

beforeAll(async () => {
  t = await openTestDb();
  vi.stubEnv("TMPDIR", await mkdtemp(join(tmpdir(), "chainswe-proposals-test-")));
  intake = await import("@/lib/proposals/intake");
  data = await import("@/lib/proposals/data");
  review = await import("@/lib/proposals/review");
  validation = await import("@/jobs/validation");
  const team = await t.db.team.create({ data: { name: "Acme", slug: "acme" } });
  alice = await testViewer(t, "alice", team.id);
  aliceReviewer = await testViewer(t, "ally", team.id, { isReviewer: true });
  rita = await testViewer(t, "rita", null, { isReviewer: true });
}, 60_000);

afterAll(async () => t?.close());

beforeEach(async () => {
  await t.db.chainProposal.deleteMany();
  // each test starts with the proposers' daily quotas unused
  await t.db.rateEvent.deleteMany();
});

function upload(file: string | Blob | null, fields: Record<string, string> = { dataset_version: "v1" }, part = "chains"): Request {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (file !== null) form.append(part, typeof file === "string" ? new Blob([file]) : file, "proposal.jsonl");
  return new Request("http://localhost/api/v1/proposals", { method: "POST", body: form });
}

const propose = (file: string | Blob | null, opts: { fields?: Record<string, string>; part?: string; viewer?: Viewer | null } = {}) =>
  intake.receiveProposal(opts.viewer === undefined ? alice : opts.viewer, upload(file, opts.fields, opts.part), { limits: LIMITS, checks: ALL_PRESENT });

async function stored() {
  const [proposals, chains, jobs] = await Promise.all([t.db.chainProposal.count(), t.db.proposedChain.count(), t.db.validationJob.count()]);
  return { proposals, chains, jobs };
}
const NOTHING = { proposals: 0, chains: 0, jobs: 0 };

async function refused(p: Promise<unknown>) {
  const e = await p.then(() => null, (e: unknown) => e);
  expect(await stored()).toEqual(NOTHING);
  return e;
}

describe("the proposer's daily quota of chains and storage", () => {
  const proposeWith = (file: string, opts: { dailyChains?: number; storageBytes?: number; viewer?: Viewer }) =>
    intake.receiveProposal(opts.viewer ?? alice, upload(file), {
      limits: { ...LIMITS, storageBytes: opts.storageBytes ?? LIMITS.storageBytes },
      checks: ALL_PRESENT,
      dailyChains: opts.dailyChains ?? 3,
    });

  it("counts every proposed chain on arrival: a proposal past the quota is refused (429) whole, and neither deleting nor rejecting gives a slot back", async () => {
    await proposeWith(jsonl([proposedChain("inikit", "q1"), proposedChain("moneyx", "q1")]), {});
    const over = (await proposeWith(jsonl([proposedChain("inikit", "q2"), proposedChain("moneyx", "q2")]), {}).catch((e: unknown) => e)) as LimitError;
    expect(over).toBeInstanceOf(LimitError);
    expect(over.status).toBe(429);
    expect(over.message).toContain("daily quota of 3 proposed chain(s)");
    expect(over.message).toContain("CHAINSWE_DAILY_PROPOSED_CHAINS");
    expect(over.message).toContain("this proposal has 2 chains and 1 remain");
    expect(await stored()).toEqual({ proposals: 1, chains: 2, jobs: 2 });
    // the last slot still takes a one-chain proposal
    await proposeWith(jsonl([proposedChain("inikit", "q3")]), {});
    // what was stored is gone, but what arrived still counts
    await t.db.chainProposal.deleteMany();
    const full = (await proposeWith(jsonl([proposedChain("inikit", "q4")]), {}).catch((e: unknown) => e)) as LimitError;
    expect(full).toMatchObject({ status: 429 });
    expect(await stored()).toEqual(NOTHING);
    // another user's quota is their own
    const carol = await testViewer(t, "carol-q", null);
    await expect(proposeWith(jsonl([proposedChain("inikit", "q5")]), { viewer: carol })).resolves.toMatchObject({ chains: 1 });
  });

  it("counts refused uploads at a quarter of a chain, so refusals are not free to repeat", async () => {
    for (let i = 0; i < 4; i++) await expect(proposeWith("{not json\n", { dailyChains: 1 })).rejects.toBeInstanceOf(InputError);
    const e = (await proposeWith(jsonl([proposedChain("inikit", "r1")]), { dailyChains: 1 }).catch((e: unknown) => e)) as LimitError;
    expect(e).toMatchObject({ status: 429 });
    expect(await stored()).toEqual(NOTHING);
  });

  it("refuses (413) a proposal that would take its proposer past the storage limit, with what they store named, and stores nothing", async () => {
    const chain = proposedChain("inikit", "s1");
    const bytes = Buffer.byteLength(JSON.stringify(chain));
    await proposeWith(jsonl([chain]), { storageBytes: 10 * bytes });
    const e = (await proposeWith(jsonl([proposedChain("moneyx", "s2")]), { storageBytes: bytes + 100 }).catch((e: unknown) => e)) as LimitError;
    expect(e).toBeInstanceOf(LimitError);
    expect(e.status).toBe(413);
    expect(e.message).toMatch(/^you store [0-9.]+ KB of submissions and chain proposals; this upload would add [0-9.]+ KB, past your storage limit/);
    expect(await stored()).toEqual({ proposals: 1, chains: 1, jobs: 1 });
  });
});

describe("intake", () => {
  it("stores a proposal of two new chains, each with a queued validation job, readable by its proposer and reviewers only", async () => {
    const got = await propose(jsonl([proposedChain("inikit", "p1"), proposedChain("moneyx", "p1", { bugs: 2 })]));
    expect(got).toMatchObject({ chains: 2, url: `/dataset/proposals/${got.id}` });
    expect(await stored()).toEqual({ proposals: 1, chains: 2, jobs: 2 });
    const view = await data.getProposal(alice, got.id);
    expect(view.chains.map((c) => [c.continuousId, c.bugs, c.status, c.review, c.job?.status])).toEqual([
      ["inikit-p1", 3, "validating", "pending", "queued"],
      ["moneyx-p1", 2, "validating", "pending", "queued"],
    ]);
    await expect(data.getProposal(rita, got.id)).resolves.toMatchObject({ id: got.id });
    const bob = await testViewer(t, "bob", null);
    await expect(data.getProposal(bob, got.id)).rejects.toThrow(NotFoundError);
    await expect(data.getProposal(null, got.id)).rejects.toThrow(NotFoundError);
    expect(await data.listProposals(bob)).toEqual([]);
  });

  it("takes a JSON array as chainswe select may write it", async () => {
    await expect(propose(JSON.stringify([proposedChain("inikit", "arr")]))).resolves.toMatchObject({ chains: 1 });
  });

  it("refuses a signed-out upload, an unknown version and a missing file, storing nothing", async () => {
    expect(await refused(propose(jsonl([proposedChain("inikit", "x")]), { viewer: null }))).toBeInstanceOf(UnauthorizedError);
    expect(await refused(propose(jsonl([proposedChain("inikit", "x")]), { fields: { dataset_version: "v9" } }))).toMatchObject({ field: "dataset_version", message: "dataset_version: unknown dataset version v9" });
    expect(await refused(propose(null))).toMatchObject({ field: "chains" });
    expect(await refused(propose(jsonl([proposedChain("inikit", "x")]), { part: "predictions" }))).toMatchObject({ field: "predictions", message: expect.stringContaining("unexpected file") });
  });

  it("names malformed lines and wrong field types by line and field", async () => {
    const good = JSON.stringify(proposedChain("inikit", "l1"));
    const wrongTypes = JSON.stringify({ ...proposedChain("moneyx", "l3"), bug_fixes: "none", docker_image: 7 });
    const e = (await refused(propose(`${good}\n{not json\n${wrongTypes}\n`))) as InputError;
    expect(e).toBeInstanceOf(InputError);
    expect(e.source).toBe("proposal.jsonl");
    expect(e.issues.map((i) => [i.line, i.field])).toEqual([
      [2, ""],
      [3, "docker_image"],
      [3, "bug_fixes"],
    ]);
  });

  it("refuses a duplicate instance id across chains, a chain the version has, and one already proposed", async () => {
    const a = proposedChain("inikit", "d1");
    const b = { ...proposedChain("moneyx", "d1", { bugs: 1 }) };
    b.bug_fixes = [{ ...b.bug_fixes[0]!, swebench_instance_id: a.bug_fixes[0]!.swebench_instance_id }];
    b.swebench_instance_ids = [a.bug_fixes[0]!.swebench_instance_id];
    const dup = (await refused(propose(jsonl([a, b])))) as InputError;
    expect(dup.issues[0]).toMatchObject({ line: 2, field: "bug_fixes[0].swebench_instance_id", message: `instance ${a.bug_fixes[0]!.swebench_instance_id} already belongs to chain inikit-d1` });

    const demo = (await t.datasets.getChains("v1"))[0]!;
    const again = (await refused(propose(jsonl([demo])))) as InputError;
    expect(again.issues[0]).toMatchObject({ line: 1, field: "continuous_id", message: `dataset version v1 already has a chain ${demo.continuous_id}` });
    expect(again.issues[1]).toMatchObject({ field: "bug_fixes[0].swebench_instance_id" });

    const first = await propose(jsonl([a]));
    const e = (await propose(jsonl([a])).catch((e: unknown) => e)) as InputError;
    expect(e.issues[0]!.message).toBe(`chain inikit-d1 is already proposed for v1 (proposal ${first.id})`);
    expect(await stored()).toEqual({ proposals: 1, chains: 1, jobs: 1 });
  });

  it("refuses an image the engine has not and cannot pull, naming it on its record", async () => {
    const chain = { ...proposedChain("inikit", "img"), docker_image: "chainswe-test/no-such-image:0" };
    const checks = { missingImages: async (images: string[]) => images.filter((i) => i.includes("no-such")) };
    const e = (await refused(intake.receiveProposal(alice, upload(jsonl([proposedChain("moneyx", "img"), chain])), { limits: LIMITS, checks }))) as InputError;
    expect(e.issues).toEqual([{ line: 2, id: "inikit-img", field: "docker_image", message: "image chainswe-test/no-such-image:0 is not on the workers' engine and cannot be pulled" }]);
  });

  it("refuses an oversize file (413) and an archive, storing nothing", async () => {
    const big = `${JSON.stringify(proposedChain("inikit", "big"))}\n`.repeat(40);
    expect(big.length).toBeGreaterThan(LIMITS.maxUploadBytes);
    expect(await refused(propose(big))).toMatchObject({ status: 413, field: "chains" });
    expect(await refused(propose(new Blob([new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0, 0, 0])])))).toBeInstanceOf(FieldError);
  });
});

/** The one validation job of the chain `continuousId`, claimed and handed in as valid (or refused). */
async function validate(refusal: string | null = null) {
  const job = await validation.claimValidationJob({ workerId: "w", policy: TEST_QUEUE_POLICY, runs: 3 });
  expect(job).not.toBeNull();
  const verdict = { result: { runs: 3, rule: "drop" as const, ok: !refusal, bugs: [] }, validated: refusal ? null : job!.chain, refusal, log: "gold log" };
  expect(await validation.completeValidation({ jobId: job!.jobId, workerId: "w", verdict })).toBe(true);
  return job!;
}

describe("validation jobs on the queue", () => {
  it("are claimed only when no evaluation job is runnable", async () => {
    const { id } = await propose(jsonl([proposedChain("inikit", "q")]));
    // an evaluation queued after the proposal still goes first
    const system = await t.db.system.create({ data: { teamId: alice.teams[0]!.id, name: "s", model: "m", scaffold: "s", contextConfig: "Baseline" } });
    const version = await t.db.datasetVersion.findUniqueOrThrow({ where: { version: "v1" } });
    const submission = await t.db.submission.create({ data: { systemId: system.id, datasetVersionId: version.id, mode: "oracle" } });
    await t.db.evaluationJob.create({ data: { submissionId: submission.id, continuousId: "inikit-chain-1" } });
    const pool = await import("@/jobs/queue/worker");
    expect(pool.JOB_PRIORITIES.evaluation).toBeLessThan(pool.JOB_PRIORITIES.validation);
    const first = await pool.claimNextJob({ workerId: "w", policy: TEST_QUEUE_POLICY, flakyRuns: 3 });
    expect(first).toMatchObject({ kind: "evaluation", job: { payload: { continuousId: "inikit-chain-1" } } });
    const job = await validate();
    expect(job.chain.continuous_id).toBe("inikit-q");
    const view = await data.getProposal(alice, id);
    expect(view.chains[0]).toMatchObject({ status: "valid", log: "gold log", job: { status: "done" } });
    await t.db.submission.delete({ where: { id: submission.id } });
  });

  it("a worker that lost its lease hands in nothing", async () => {
    await propose(jsonl([proposedChain("inikit", "lease")]));
    const job = (await validation.claimValidationJob({ workerId: "w1", policy: TEST_QUEUE_POLICY, runs: 1 }))!;
    const verdict = { result: null, validated: null, refusal: "x", log: "" };
    expect(await validation.completeValidation({ jobId: job.jobId, workerId: "w2", verdict })).toBe(false);
    expect(await validation.heartbeatValidation({ jobId: job.jobId, workerId: "w2", leaseMs: 1000 })).toBe(false);
    expect((await t.db.proposedChain.findFirstOrThrow()).status).toBe("validating");
  });
});

describe("review", () => {
  it("a reviewer with no tie accepts a valid chain with a reason; it is listed for the release with who and why", async () => {
    const { id } = await propose(jsonl([proposedChain("inikit", "r1"), proposedChain("moneyx", "r1")]));
    await validate();
    await validate("bug 1 (x): FAIL_TO_PASS t does not pass with the gold patch");
    const [valid, refusedChain] = (await data.getProposal(rita, id)).chains;
    await expect(review.reviewProposedChain(rita, refusedChain!.id, { decision: "accept", reason: "ok" })).rejects.toThrow(/refused this chain: only a valid chain/);
    await expect(review.reviewProposedChain(rita, valid!.id, { decision: "accept" })).rejects.toMatchObject({ field: "reason" });
    expect(await review.reviewProposedChain(rita, valid!.id, { decision: "accept", reason: "fresh bugs, stable tests" })).toBe("accepted");
    await expect(review.reviewProposedChain(rita, valid!.id, { decision: "reject", reason: "no" })).rejects.toThrow(/already accepted/);
    expect(await review.reviewProposedChain(rita, refusedChain!.id, { decision: "reject", reason: "gold fails" })).toBe("rejected");
    const accepted = await data.acceptedProposedChains("v1");
    expect(accepted).toHaveLength(1);
    expect(accepted[0]).toMatchObject({ proposalId: id, proposedBy: "alice", acceptedBy: "rita", reason: "fresh bugs, stable tests", record: { continuous_id: "inikit-r1" } });
    expect(accepted[0]!.recordSha256).toMatch(/^[0-9a-f]{64}$/);
    // the next release takes it in, noted with its proposal and review (SPEC §8)
    const { releaseVersion } = await import("@/lib/dataset/release");
    const released = await releaseVersion({ version: "v1-next", parent: "v1", accepted: true, reasons: {} });
    expect(released.notes).toEqual([{ chain: "inikit-r1", change: "added", reason: expect.stringMatching(new RegExp(`^proposal ${id} by alice, accepted by rita on \\d{4}-\\d{2}-\\d{2}: fresh bugs, stable tests$`)) }]);
    expect((await t.datasets.getChains("v1-next")).at(-1)?.continuous_id).toBe("inikit-r1");
    expect((await t.datasets.getVersionRelease("v1-next"))?.manifest?.records.at(-1)).toEqual({ continuous_id: "inikit-r1", sha256: accepted[0]!.recordSha256 });
    const audit = await t.db.auditLog.findMany({ where: { targetType: "proposed_chain" }, orderBy: { createdAt: "asc" } });
    expect(audit.map((a) => [a.action, a.reason])).toEqual([
      ["proposed_chain_accepted", "fresh bugs, stable tests"],
      ["proposed_chain_rejected", "gold fails"],
    ]);
  });

  it("no one decides on their own proposal, nor on a teammate's; a non-reviewer proposer is forbidden, a stranger sees nothing", async () => {
    const ownRita = await intake.receiveProposal(rita, upload(jsonl([proposedChain("inikit", "own")])), { limits: LIMITS, checks: ALL_PRESENT });
    await validate();
    const chainId = (await data.getProposal(rita, ownRita.id)).chains[0]!.id;
    await expect(review.reviewProposedChain(rita, chainId, { decision: "accept", reason: "mine" })).rejects.toThrow(/you proposed this chain, and no one decides on their own proposal/);

    const byAlice = await propose(jsonl([proposedChain("moneyx", "team")]));
    await validate();
    const aliceChain = (await data.getProposal(alice, byAlice.id)).chains[0]!.id;
    await expect(review.reviewProposedChain(aliceReviewer, aliceChain, { decision: "accept", reason: "teammate" })).rejects.toThrow(/own team's members/);
    await expect(review.reviewProposedChain(alice, aliceChain, { decision: "accept", reason: "me" })).rejects.toThrow(ForbiddenError);
    const bob = await testViewer(t, "bob2", null);
    await expect(review.reviewProposedChain(bob, aliceChain, { decision: "accept", reason: "x" })).rejects.toThrow(NotFoundError);
    expect(await t.db.proposedChain.count({ where: { review: { not: "pending" } } })).toBe(0);
    expect(await review.reviewProposedChain(rita, aliceChain, { decision: "reject", reason: "out of scope" })).toBe("rejected");
  });

  it("nor does a reviewer who was ever on a team with the proposer, or who is invited to one of the proposer's teams", async () => {
    const byAlice = await propose(jsonl([proposedChain("inikit", "tie")]));
    await validate();
    const chainId = (await data.getProposal(alice, byAlice.id)).chains[0]!.id;
    const acme = (await t.db.team.findUniqueOrThrow({ where: { slug: "acme" } })).id;
    // left the proposer's team (as the member form records it): still tied
    const former = await testViewer(t, "fred-former", null, { isReviewer: true });
    await t.db.formerMember.create({ data: { teamId: acme, userId: former.id, role: "member", joinedAt: new Date(Date.now() - 86_400_000) } });
    await expect(review.reviewProposedChain(former, chainId, { decision: "accept", reason: "x" })).rejects.toThrow(/you were a member of a team of the proposer/);
    // invited, not yet accepted: tied
    const invitee = await testViewer(t, "ivy-invited", null, { isReviewer: true });
    await t.db.teamInvitation.create({ data: { teamId: acme, userId: invitee.id, role: "member", invitedById: alice.id } });
    await expect(review.reviewProposedChain(invitee, chainId, { decision: "accept", reason: "x" })).rejects.toThrow(/you are invited to a team of the proposer/);
    expect(await t.db.proposedChain.count({ where: { review: { not: "pending" } } })).toBe(0);
    // a reviewer with no tie decides
    expect(await review.reviewProposedChain(rita, chainId, { decision: "accept", reason: "stable" })).toBe("accepted");
  });

  it("refuses a malformed decision naming the field", async () => {
    const { id } = await propose(jsonl([proposedChain("inikit", "bad")]));
    const chainId = (await data.getProposal(alice, id)).chains[0]!.id;
    await expect(review.reviewProposedChain(rita, chainId, { decision: "maybe", reason: "x" })).rejects.toMatchObject({ field: "decision" });
    await expect(review.reviewProposedChain(rita, chainId, [])).rejects.toMatchObject({ field: "body" });
    await expect(review.reviewProposedChain(rita, chainId, { decision: "accept", reason: "early" })).rejects.toThrow(/still being validated/);
  });
});
