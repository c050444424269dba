/** listSubmissions against a real SQLite file: who sees what, filters, pages, counts. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FieldError } from "@/core/errors";
import { DEMO_GOLD_SEQ, openTestDb } from "@/lib/testing/test-db";
import type { Viewer } from "@/lib/accounts/users";

let t: Awaited<ReturnType<typeof openTestDb>>;
let list: typeof import("@/lib/submissions/list");
let alice: Viewer; // team acme
let reviewer: Viewer;
const ids: Record<string, string> = {};

async function user(username: string, opts: { team?: string; isReviewer?: boolean } = {}): Promise<Viewer> {
  const u = await t.db.user.create({ data: { username, isReviewer: opts.isReviewer ?? false } });
  if (opts.team) {
    const team = await t.db.team.upsert({ where: { slug: opts.team }, update: {}, create: { name: opts.team.toUpperCase(), slug: opts.team } });
    await t.db.teamMember.create({ data: { teamId: team.id, userId: u.id } });
  }
  const { viewerById } = await import("@/lib/accounts/users");
  return (await viewerById(u.id))!;
}

async function submission(name: string, team: string, over: { mode?: "oracle" | "seq"; visibility?: string; status?: string; createdAt: Date }) {
  const teamRow = await t.db.team.upsert({ where: { slug: team }, update: {}, create: { name: team.toUpperCase(), slug: team } });
  const system = await t.db.system.upsert({
    where: { teamId_name: { teamId: teamRow.id, name: `${team}-agent` } },
    update: {},
    create: { teamId: teamRow.id, name: `${team}-agent`, model: `${team}-model`, scaffold: "s", contextConfig: "Baseline" },
  });
  const created = await t.submissions.createSubmission({ systemId: system.id, datasetVersion: "v1", mode: over.mode ?? "seq", predictions: DEMO_GOLD_SEQ });
  await t.db.submission.update({
    where: { id: created.id },
    data: { visibility: over.visibility ?? "private", status: over.status ?? "queued", createdAt: over.createdAt },
  });
  ids[name] = created.id;
}

beforeAll(async () => {
  t = await openTestDb();
  list = await import("@/lib/submissions/list");
  alice = await user("alice", { team: "acme" });
  reviewer = await user("rita", { isReviewer: true });
  const at = (h: number) => new Date(Date.UTC(2026, 11, 1, h));
  await submission("acmePrivate", "acme", { createdAt: at(1) });
  await submission("acmePublic", "acme", { visibility: "public", status: "completed", mode: "oracle", createdAt: at(2) });
  await submission("otherPrivate", "other", { createdAt: at(3) });
  await submission("otherPublic", "other", { visibility: "public", status: "completed", createdAt: at(4) });
  await submission("otherPending", "other", { visibility: "pending_review", createdAt: at(4) }); // same time as otherPublic
  // two chains done, one with a resolved and an unresolved bug
  const s = ids.otherPublic!;
  await t.db.evaluationJob.updateMany({ where: { submissionId: s, continuousId: { in: ["inikit-chain-1", "moneyx-chain-1"] } }, data: { status: "done" } });
  const base = { submissionId: s, continuousId: "inikit-chain-1", patchApplied: true, tampered: false, failToPass: "{}", passToPass: "{}", timedOut: false, durationS: 1, modelFiles: "[]", goldFiles: "[]", testFiles: "[]", discardedFiles: "[]", log: "" };
  await t.db.bugResult.createMany({
    data: [
      { ...base, order: 1, swebenchInstanceId: "chainswe-demo__inikit-1", resolved: true },
      { ...base, order: 2, swebenchInstanceId: "chainswe-demo__inikit-2", resolved: false, fingerprint: "left_unfixed" },
    ],
  });
}, 60_000);

afterAll(async () => t?.close());

const names = (page: { items: { id: string }[] }) => page.items.map((i) => Object.entries(ids).find(([, id]) => id === i.id)?.[0]);

describe("listSubmissions", () => {
  it("shows visitors only public submissions, newest first", async () => {
    expect(names(await list.listSubmissions(null))).toEqual(["otherPublic", "acmePublic"]);
  });

  it("shows members their team's submissions too, and reviewers everything", async () => {
    expect(names(await list.listSubmissions(alice))).toEqual(["otherPublic", "acmePublic", "acmePrivate"]);
    // otherPublic and otherPending were created at the same time: the larger id comes first
    const tie = ["otherPublic", "otherPending"].sort((a, b) => (ids[b]! > ids[a]! ? 1 : -1));
    expect(names(await list.listSubmissions(reviewer))).toEqual([...tie, "otherPrivate", "acmePublic", "acmePrivate"]);
  });

  it("filters by team, system, mode, dataset version, status and visibility, never widening what may be read", async () => {
    expect(names(await list.listSubmissions(alice, { team: "acme" }))).toEqual(["acmePublic", "acmePrivate"]);
    expect(names(await list.listSubmissions(alice, { team: "other" }))).toEqual(["otherPublic"]);
    // by the name the pages show, too
    expect(names(await list.listSubmissions(alice, { team: "ACME" }))).toEqual(["acmePublic", "acmePrivate"]);
    expect(names(await list.listSubmissions(null, { team: "OTHER" }))).toEqual(["otherPublic"]);
    expect(names(await list.listSubmissions(null, { mode: "oracle" }))).toEqual(["acmePublic"]);
    expect(names(await list.listSubmissions(alice, { status: "queued" }))).toEqual(["acmePrivate"]);
    expect(names(await list.listSubmissions(alice, { visibility: "private" }))).toEqual(["acmePrivate"]);
    expect(names(await list.listSubmissions(null, { visibility: "private" }))).toEqual([]);
    expect(names(await list.listSubmissions(null, { dataset_version: "v2" }))).toEqual([]);
    const { items } = await list.listSubmissions(null, { dataset_version: "v1" });
    expect(names(await list.listSubmissions(alice, { system: items[0]!.system.id }))).toEqual(["otherPublic"]);
  });

  it("pages with a cursor, ties on the creation time included", async () => {
    const all = names(await list.listSubmissions(reviewer));
    for (const limit of [1, 2]) {
      // limit 1 splits the two submissions created at the same time across pages
      const seen: (string | undefined)[] = [];
      let cursor: string | undefined;
      for (let i = 0; i < 10; i++) {
        const page = await list.listSubmissions(reviewer, { limit, cursor });
        expect(page.items.length).toBeLessThanOrEqual(limit);
        seen.push(...names(page));
        if (!page.nextCursor) break;
        cursor = page.nextCursor;
      }
      expect(seen).toEqual(all);
    }
  });

  it("gives each row its system, team and counts", async () => {
    const [top] = (await list.listSubmissions(null, { limit: 1 })).items;
    expect(top).toMatchObject({
      id: ids.otherPublic,
      system: { name: "other-agent", model: "other-model", team: { slug: "other", name: "OTHER" } },
      mode: "seq",
      datasetVersion: "v1",
      status: "completed",
      visibility: "public",
      chains: { total: 5, done: 2 },
      bugs: { total: 16, graded: 2, resolved: 1 },
    });
  });

  it("parses query parameters, naming a bad one", () => {
    expect(list.parseSubmissionListQuery(new URLSearchParams("mode=seq&status=&limit=10"))).toEqual({ mode: "seq", limit: 10 });
    expect(list.parseSubmissionListQuery({ team: ["acme", "x"], visibility: undefined })).toEqual({ team: "acme", limit: list.DEFAULT_PAGE_SIZE });
    expect(() => list.parseSubmissionListQuery(new URLSearchParams("mode=fast"))).toThrow(FieldError);
    expect(() => list.parseSubmissionListQuery(new URLSearchParams("limit=0"))).toThrow(/limit/);
  });

  it("refuses a cursor it did not give out", async () => {
    await expect(list.listSubmissions(null, { cursor: "garbage" })).rejects.toMatchObject({ field: "cursor" });
  });
});
