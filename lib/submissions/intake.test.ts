/**
 * receiveSubmission against a real SQLite file (demo dataset as v1), with real
 * multipart Requests built from FormData and Blobs, as a browser or the CLI sends them.
 */
import { mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { randomBytes } from "node:crypto";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { FieldError, InputError, LimitError, NotFoundError, UnauthorizedError } from "@/core/errors";
import { DEMO_GOLD_SEQ, openTestDb } from "@/lib/testing/test-db";
import type { IntakeLimits } from "@/lib/submissions/intake";
import type { Viewer } from "@/lib/accounts/users";

let t: Awaited<ReturnType<typeof openTestDb>>;
let intake: typeof import("@/lib/submissions/intake");
let alice: Viewer; // member of team Acme, which owns system `acmeSystem`
let bob: Viewer; // member of team Other, which owns `otherSystem`
let acmeSystem: string;
let otherSystem: string;
let goldLines: string[];

const LIMITS: IntakeLimits = { maxUploadBytes: 1024 * 1024, maxPatchBytes: 64 * 1024, dailyQuota: 100, maxTrajectoriesBytes: 1024 * 1024, storageBytes: 1024 ** 3 };

async function member(username: string, teamName: string): Promise<{ viewer: Viewer; systemId: string }> {
  const user = await t.db.user.create({ data: { username, name: username } });
  const team = await t.db.team.create({ data: { name: teamName, slug: teamName.toLowerCase() } });
  await t.db.teamMember.create({ data: { teamId: team.id, userId: user.id } });
  const system = await t.db.system.create({ data: { teamId: team.id, name: `${teamName} agent`, model: "m", scaffold: "s", contextConfig: "Baseline" } });
  const { viewerById } = await import("@/lib/accounts/users");
  return { viewer: (await viewerById(user.id))!, systemId: system.id };
}

beforeAll(async () => {
  t = await openTestDb();
  // an upload's temp files are looked for in a directory of this file's own: other test runs and sites upload beside it
  vi.stubEnv("TMPDIR", await mkdtemp(join(tmpdir(), "chainswe-intake-test-")));
  intake = await import("@/lib/submissions/intake");
  ({ viewer: alice, systemId: acmeSystem } = await member("alice", "Acme"));
  ({ viewer: bob, systemId: otherSystem } = await member("bob", "Other"));
  goldLines = (await readFile(DEMO_GOLD_SEQ, "utf8")).trim().split("\n");
  // start the checking thread once (it compiles the checker: seconds on a busy machine)
  const { loadPredictionsOffThread } = await import("@/lib/submissions/predictions-off-thread");
  await loadPredictionsOffThread(DEMO_GOLD_SEQ, []).catch(() => {});
}, 60_000);

afterAll(async () => t?.close());

beforeEach(async () => {
  // each test starts with an empty quota and every mode offered
  await t.db.submission.deleteMany();
  await t.db.rateEvent.deleteMany();
  await t.db.datasetVersion.update({ where: { version: "v1" }, data: { modes: '["oracle","seq","seq_mem"]' } });
});

type Fields = { system?: string; dataset_version?: string; mode?: string; metadata?: string; chains?: string };

function upload(file: string | Blob | null, fields: Fields = {}, headers: Record<string, string> = {}): Request {
  const form = new FormData();
  const all: Fields = { system: acmeSystem, dataset_version: "v1", mode: "seq", ...fields };
  for (const [k, v] of Object.entries(all)) if (v !== undefined) form.append(k, v);
  if (file !== null) form.append("predictions", typeof file === "string" ? new Blob([file]) : file, "preds.jsonl");
  return new Request("http://localhost/api/v1/submissions", { method: "POST", body: form, headers });
}

const lines = (ls: string[]) => ls.join("\n") + "\n";

/** goldLines with line `i` (0-based) changed. */
function withLine(i: number, change: (rec: Record<string, unknown>) => Record<string, unknown> | string): string {
  return lines(goldLines.map((l, j) => (j === i ? ((c) => (typeof c === "string" ? c : JSON.stringify(c)))(change(JSON.parse(l) as Record<string, unknown>)) : l)));
}

async function rowCounts() {
  const [submissions, predictions, jobs, systems] = await Promise.all([
    t.db.submission.count(),
    t.db.prediction.count(),
    t.db.evaluationJob.count(),
    t.db.system.count(),
  ]);
  return { submissions, predictions, jobs, systems };
}

async function uploadTempFiles(): Promise<string[]> {
  return (await readdir(tmpdir())).filter((f) => f.startsWith("chainswe-upload-"));
}

/** Runs the upload, expecting it to be refused with `type`; checks nothing was stored and no temp file was left. */
async function refused<E extends Error>(req: Request, type: new (...a: never[]) => E, viewer: Viewer | null = alice, limits = LIMITS): Promise<E> {
  const before = await rowCounts();
  const tempBefore = await uploadTempFiles();
  const err = await intake.receiveSubmission(viewer, req, { limits }).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(type);
  expect(await rowCounts()).toEqual(before);
  expect((await uploadTempFiles()).filter((f) => !tempBefore.includes(f))).toEqual([]);
  return err as E;
}

async function cancelAndDelete(id: string, del: (v: Viewer, id: string) => Promise<void>): Promise<void> {
  const { cancelSubmissionFor } = await import("@/lib/submissions/review");
  await cancelSubmissionFor(alice, id);
  await del(alice, id);
}

const texts = (e: InputError) => e.issues.map((i) => `line ${i.line}, field ${i.field}: ${i.message}`);

describe("receiveSubmission: accepted", () => {
  it("stores the submission with its predictions, a queued job per chain, the metadata and the submitter", async () => {
    const tempBefore = await uploadTempFiles();
    const got = await intake.receiveSubmission(alice, upload(lines(goldLines), { metadata: '{"scaffold_version":"1.2","notes":null,"temperature":0}' }), { limits: LIMITS });
    expect(got).toMatchObject({ chains: 5, predictions: 16, warnings: [], url: `/submissions/${got.id}` });
    const row = await t.db.submission.findUniqueOrThrow({ where: { id: got.id }, include: { jobs: true, predictions: true } });
    expect(row).toMatchObject({ systemId: acmeSystem, mode: "seq", status: "queued", visibility: "private", submittedById: alice.id });
    expect(JSON.parse(row.metadata)).toEqual({ scaffold_version: "1.2", notes: null, temperature: 0 });
    expect(row.jobs.map((j) => j.status)).toEqual(Array(5).fill("queued"));
    expect(row.predictions).toHaveLength(16);
    expect((await uploadTempFiles()).filter((f) => !tempBefore.includes(f))).toEqual([]);
  });

  it("queues only the chains asked for, and names the uploaded file in warnings", async () => {
    const file = withLine(0, (r) => ({ ...r, trajectory: "…" }));
    const got = await intake.receiveSubmission(alice, upload(file, { chains: "dateranges-chain-1, inikit-chain-1" }), { limits: LIMITS });
    expect(got).toMatchObject({ chains: 2, predictions: 7, warnings: ["preds.jsonl: ignored unknown field(s): trajectory"] });
  });
});

describe("receiveSubmission: bad lines are named, nothing is stored", () => {
  it("malformed JSON", async () => {
    const err = await refused(upload(withLine(1, () => '{"continuous_id": ')), InputError);
    expect(texts(err)).toEqual([expect.stringMatching(/^line 2, field : malformed JSON/)]);
    expect(err.message.split("\n")[0]).toBe("preds.jsonl: 1 problem(s)");
  });

  it("an archive or compressed file is refused by name and never unpacked (a gzip bomb included)", async () => {
    const gz = await refused(upload(new Blob([gzipSync(lines(goldLines))])), FieldError);
    expect(gz).toMatchObject({
      field: "predictions",
      message:
        "predictions: preds.jsonl is a gzip file; archives and compressed files are not accepted: upload the JSON Lines file itself, one prediction per line",
    });
    // 64 MB of zeros in about 64 KB: refused from its first bytes, over no limit and without a line read
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024), { level: 9 });
    expect(bomb.length).toBeLessThan(LIMITS.maxUploadBytes);
    expect(await refused(upload(new Blob([bomb])), FieldError)).toMatchObject({ message: expect.stringMatching(/is a gzip file/) });
    const zip = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.from(lines(goldLines))]);
    expect(await refused(upload(new Blob([zip])), FieldError)).toMatchObject({ message: expect.stringMatching(/is a zip file/) });
  });

  it("an unknown chain, an unknown instance and a duplicate, all listed", async () => {
    const file = lines([
      ...goldLines.slice(0, 3),
      JSON.stringify({ ...JSON.parse(goldLines[3]!), continuous_id: "nope-chain" }),
      JSON.stringify({ ...JSON.parse(goldLines[4]!), swebench_instance_id: "no-such-instance" }),
      goldLines[0]!,
    ]);
    const err = await refused(upload(file), InputError);
    expect(texts(err)).toEqual([
      "line 4, field continuous_id: unknown chain nope-chain",
      expect.stringMatching(/^line 5, field swebench_instance_id: unknown instance no-such-instance in chain /),
      expect.stringMatching(/^line 6, field swebench_instance_id: duplicate prediction for \S+ \(first on line 1\)$/),
    ]);
  });

  it("a patch over the per-patch limit", async () => {
    const file = withLine(2, (r) => ({ ...r, model_patch: `${r.model_patch as string}+${"x".repeat(70 * 1024)}\n` }));
    const err = await refused(upload(file), InputError);
    expect(texts(err)).toEqual([expect.stringMatching(/^line 3, field model_patch: is 70\.\d KB, over the 64 KB limit per patch$/)]);
  });
});

describe("receiveSubmission: fields, ownership and limits", () => {
  it("a mode the dataset version does not offer", async () => {
    await t.db.datasetVersion.update({ where: { version: "v1" }, data: { modes: '["oracle","seq"]' } });
    const err = await refused(upload(lines(goldLines), { mode: "seq_mem" }), FieldError);
    expect(err).toMatchObject({ field: "mode", message: "mode: dataset version v1 takes submissions in oracle, seq, not seq_mem" });
  });

  it("bad or missing fields name the field", async () => {
    expect(await refused(upload(lines(goldLines), { mode: "sequential" }), FieldError)).toMatchObject({ field: "mode", message: "mode: must be one of oracle, seq, seq_mem" });
    expect(await refused(upload(lines(goldLines), { dataset_version: "v9" }), FieldError)).toMatchObject({ field: "dataset_version" });
    expect(await refused(upload(lines(goldLines), { metadata: "{not json" }), FieldError)).toMatchObject({ field: "metadata" });
    expect(await refused(upload(lines(goldLines), { metadata: '{"nested":{"a":1}}' }), FieldError)).toMatchObject({ field: "metadata" });
    expect(await refused(upload(lines(goldLines), { chains: "nope" }), FieldError)).toMatchObject({ field: "chains", message: "chains: dataset version v1 has no chain(s) nope" });
    expect(await refused(upload(null), FieldError)).toMatchObject({ field: "predictions" });
    const noMode = new FormData();
    noMode.append("system", acmeSystem);
    noMode.append("dataset_version", "v1");
    noMode.append("predictions", new Blob([lines(goldLines)]), "p.jsonl");
    expect(await refused(new Request("http://x/", { method: "POST", body: noMode }), FieldError)).toMatchObject({ field: "mode", message: "mode: required" });
    const notMultipart = new Request("http://x/", { method: "POST", body: "{}", headers: { "content-type": "application/json" } });
    expect(await refused(notMultipart, FieldError)).toMatchObject({ field: "predictions" });
  });

  it("another team's system, or one that does not exist, is not found", async () => {
    await refused(upload(lines(goldLines), { system: otherSystem }), NotFoundError);
    await refused(upload(lines(goldLines), { system: "no-such-system" }), NotFoundError);
    await refused(upload(lines(goldLines), { system: "other/Other agent" }), NotFoundError);
    await refused(upload(lines(goldLines), { system: "acme/no such agent" }), NotFoundError);
    // bob, of the owning team, may
    await expect(intake.receiveSubmission(bob, upload(lines(goldLines), { system: otherSystem }), { limits: LIMITS })).resolves.toMatchObject({ chains: 5 });
  });

  it("names a system by <team slug>/<system name> as well as by id", async () => {
    const got = await intake.receiveSubmission(alice, upload(lines(goldLines), { system: "acme/Acme agent" }), { limits: LIMITS });
    expect((await t.db.submission.findUniqueOrThrow({ where: { id: got.id } })).systemId).toBe(acmeSystem);
  });

  it("a visitor is refused before anything is read", async () => {
    await refused(upload(lines(goldLines)), UnauthorizedError, null);
  });

  it("an upload over the size limit is refused with 413 while streaming, and nothing is stored", async () => {
    // far over the limit, with no declared length: refused by counting bytes as they stream
    let pulled = 0;
    const chunk = new TextEncoder().encode(`${goldLines[0]}\n`.repeat(64)); // ~100 KB
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const head = new TextEncoder().encode(
      `--B\r\nContent-Disposition: form-data; name="system"\r\n\r\n${acmeSystem}\r\n` +
        `--B\r\nContent-Disposition: form-data; name="dataset_version"\r\n\r\nv1\r\n` +
        `--B\r\nContent-Disposition: form-data; name="mode"\r\n\r\nseq\r\n` +
        `--B\r\nContent-Disposition: form-data; name="predictions"; filename="big.jsonl"\r\nContent-Type: application/x-ndjson\r\n\r\n`,
    );
    const reader = endless.getReader();
    let sentHead = false;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (!sentHead) {
          sentHead = true;
          controller.enqueue(head);
          return;
        }
        const { value } = await reader.read();
        controller.enqueue(value!);
      },
    });
    const req = new Request("http://x/", { method: "POST", body, headers: { "content-type": "multipart/form-data; boundary=B" }, duplex: "half" } as RequestInit);
    const err = await refused(req, LimitError);
    expect(err).toMatchObject({ status: 413, field: "predictions", message: "the file is larger than the 1 MB limit" });
    expect(pulled).toBeLessThan(4 * 1024 * 1024); // stopped reading soon after the limit

    // a declared length far over the limit is refused before a byte is read
    let read = false;
    const unread = new ReadableStream<Uint8Array>(
      {
        pull() {
          read = true;
        },
      },
      { highWaterMark: 0 }, // no pull until someone reads
    );
    const declared = new Request("http://x/", {
      method: "POST",
      body: unread,
      headers: { "content-type": "multipart/form-data; boundary=B", "content-length": String(50 * 1024 * 1024) },
      duplex: "half",
    } as RequestInit);
    expect(await refused(declared, LimitError)).toMatchObject({ status: 413 });
    expect(read).toBe(false);
  });

  it("accepts a file of exactly the limit", async () => {
    const file = lines(goldLines);
    const size = new Blob([file]).size;
    await expect(intake.receiveSubmission(alice, upload(file), { limits: { ...LIMITS, maxUploadBytes: size } })).resolves.toMatchObject({ predictions: 16 });
    await refused(upload(file), LimitError, alice, { ...LIMITS, maxUploadBytes: size - 1 });
  });

  it("the team's daily quota: 429 naming the quota and when it frees up; uploads count on arrival, older ones do not", async () => {
    const limits = { ...LIMITS, dailyQuota: 2 };
    const at = (iso: string) => () => intake.receiveSubmission(alice, upload(lines(goldLines)), { limits, now: new Date(iso) });
    await at("2026-12-02T09:30:00Z")();
    await at("2026-12-02T11:00:00Z")();
    const now = "2026-12-02T12:00:00Z";
    const before = await rowCounts();
    const fixed = await at(now)().catch((e: unknown) => e);
    expect(await rowCounts()).toEqual(before);
    expect(fixed).toBeInstanceOf(LimitError);
    expect(fixed).toMatchObject({
      status: 429,
      message:
        "team Acme has used its daily quota of 2 submission(s) in the last 24 hours (counted on arrival: cancelled, failed and deleted ones count too); " +
        "the next one frees up at 2026-12-03 09:30 UTC (in 21 h 30 min)",
    });
    // another team's quota is its own
    await expect(intake.receiveSubmission(bob, upload(lines(goldLines), { system: otherSystem }), { limits, now: new Date(now) })).resolves.toBeTruthy();
    // a day later the oldest one no longer counts
    await expect(at("2026-12-03T09:30:01Z")()).resolves.toBeTruthy();
  });

  it("a cancelled, failed or deleted submission keeps counting: upload, cancel, repeat stops at the quota", async () => {
    const limits = { ...LIMITS, dailyQuota: 3 };
    const { cancelSubmissionFor } = await import("@/lib/submissions/review");
    const outcomes: unknown[] = [];
    for (let i = 0; i < 5; i++) {
      const sent = await intake.receiveSubmission(alice, upload(lines(goldLines)), { limits }).catch((e: unknown) => (e instanceof Error ? e : new Error(String(e))));
      outcomes.push(sent);
      if (sent instanceof Error) continue;
      if (i === 0) await cancelSubmissionFor(alice, sent.id);
      if (i === 1) await t.db.submission.update({ where: { id: sent.id }, data: { status: "failed" } });
      if (i === 2) await t.db.submission.delete({ where: { id: sent.id } });
    }
    expect(outcomes.map((o) => (o instanceof LimitError ? o.status : "stored"))).toEqual(["stored", "stored", "stored", 429, 429]);
  });

  it("the quota counts per user as well: a second team of one's own does not buy more uploads", async () => {
    const limits = { ...LIMITS, dailyQuota: 2 };
    const team = await t.db.team.create({ data: { name: "Acme Two", slug: "acme-two" } });
    await t.db.teamMember.create({ data: { teamId: team.id, userId: alice.id } });
    const system = await t.db.system.create({ data: { teamId: team.id, name: "two agent", model: "m", scaffold: "s", contextConfig: "Baseline" } });
    const { viewerById } = await import("@/lib/accounts/users");
    const alice2 = (await viewerById(alice.id))!;
    await intake.receiveSubmission(alice2, upload(lines(goldLines)), { limits });
    await intake.receiveSubmission(alice2, upload(lines(goldLines)), { limits });
    const before = await rowCounts();
    const refusal = await intake.receiveSubmission(alice2, upload(lines(goldLines), { system: system.id }), { limits }).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(LimitError);
    expect(refusal).toMatchObject({ status: 429, message: expect.stringMatching(/^you have used your daily quota of 2 submission\(s\)/) });
    expect(await rowCounts()).toEqual(before);
  });

  it("refused uploads count against the user's quota at a quarter each: refusals are not free to repeat", async () => {
    const limits = { ...LIMITS, dailyQuota: 2 };
    const bad = () => intake.receiveSubmission(alice, upload("{not json\n"), { limits }).catch((e: unknown) => e);
    for (let i = 0; i < 4; i++) expect(await bad()).toBeInstanceOf(InputError);
    // four refusals are one submission: one slot is left
    await expect(intake.receiveSubmission(alice, upload(lines(goldLines)), { limits })).resolves.toMatchObject({ chains: 5 });
    const refusal = await intake.receiveSubmission(alice, upload(lines(goldLines)), { limits }).catch((e: unknown) => e);
    expect(refusal).toMatchObject({ status: 429, message: expect.stringMatching(/^you have used your daily quota of 2 submission\(s\) in the last 24 hours \(counted on arrival: cancelled, failed and deleted ones count too; 4 refused uploads count as one\)/) });
  });

  it("a team's and a user's stored bytes are capped: 413 naming the limit once an upload would pass it; deleting frees it", async () => {
    const first = await intake.receiveSubmission(alice, upload(lines(goldLines)), { limits: LIMITS });
    const { uploadBytes } = await t.db.submission.findUniqueOrThrow({ where: { id: first.id }, select: { uploadBytes: true } });
    // the predictions' text, as stored
    expect(Number(uploadBytes)).toBeGreaterThan(new Blob([goldLines.map((l) => (JSON.parse(l) as { model_patch: string }).model_patch).join("")]).size);
    const limits = { ...LIMITS, storageBytes: Number(uploadBytes) * 2 - 1 };
    const full = await refused(upload(lines(goldLines)), LimitError, alice, limits);
    expect(full.status).toBe(413);
    expect(full.message).toMatch(/^team Acme stores [\d.]+ KB of submissions; this upload would add [\d.]+ KB, past its storage limit of [\d.]+ KB \(CHAINSWE_TEAM_STORAGE_MB\): delete private submissions it no longer needs/);
    // the same bytes in another of one's teams count against one's own limit
    const team = await t.db.team.create({ data: { name: "Acme Three", slug: "acme-three" } });
    await t.db.teamMember.create({ data: { teamId: team.id, userId: alice.id } });
    const system = await t.db.system.create({ data: { teamId: team.id, name: "three agent", model: "m", scaffold: "s", contextConfig: "Baseline" } });
    const { viewerById } = await import("@/lib/accounts/users");
    const mine = await refused(upload(lines(goldLines), { system: system.id }), LimitError, (await viewerById(alice.id))!, limits);
    expect(mine.message).toMatch(/^you store [\d.]+ KB of submissions and chain proposals; this upload would add/);
    // a team at its limit is told before its upload is checked
    await expect(intake.receiveSubmission(alice, upload("{not json\n"), { limits: { ...limits, storageBytes: Number(uploadBytes) } })).rejects.toMatchObject({ status: 413 });
    await intake.receiveSubmission(bob, upload(lines(goldLines), { system: otherSystem }), { limits });
    const { deleteSubmissionFor } = await import("@/lib/submissions/removal");
    await intake.receiveSubmission(alice, upload(lines(goldLines)), { limits: LIMITS }).then((s) => cancelAndDelete(s.id, deleteSubmissionFor));
    await cancelAndDelete(first.id, deleteSubmissionFor);
    await expect(intake.receiveSubmission(alice, upload(lines(goldLines)), { limits })).resolves.toBeTruthy();
  });

  it("two uploads racing for the team's last slot: exactly one is stored", async () => {
    const limits = { ...LIMITS, dailyQuota: 1 };
    const outcomes = await Promise.allSettled([1, 2, 3].map(() => intake.receiveSubmission(alice, upload(lines(goldLines)), { limits })));
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
    for (const o of outcomes) if (o.status === "rejected") expect(o.reason).toBeInstanceOf(LimitError);
    expect(await t.db.submission.count()).toBe(1);
  });
});

describe("receiveSubmission: trajectories", () => {
  /** A tar (gzipped unless `plain`) of the given entries, as `tar czf` of a rollout's trajectories directory makes it. */
  async function archive(entries: Record<string, string>, plain = false): Promise<Blob> {
    const tar = await import("tar-stream");
    const pack = tar.pack();
    for (const [name, text] of Object.entries(entries)) pack.entry({ name }, text);
    pack.finalize();
    const chunks: Buffer[] = [];
    for await (const c of pack) chunks.push(c as Buffer);
    const bytes = Buffer.concat(chunks);
    return new Blob([plain ? bytes : gzipSync(bytes)]);
  }
  const outcome = (order: number, more: Record<string, unknown> = {}) =>
    JSON.stringify({ continuous_id: "dateranges-chain-1", swebench_instance_id: `chainswe-demo__dateranges-${order}`, order, mode: "seq", timed_out: false, exit_code: 0, wall_seconds: 3.2, patch_empty: false, patch_source: "tree", metrics: { turns: 2 }, warnings: [], ...more });
  const call = (command: string, out = "") => `##[chainswe] $ ${command}\n${out}##[chainswe] exit 0 5ms\n`;
  async function trajectoryUpload(blob: Blob, fields: Record<string, string> = {}, predictions = lines(goldLines)): Promise<Request> {
    const form = new FormData();
    for (const [k, v] of Object.entries({ system: acmeSystem, dataset_version: "v1", mode: "seq", ...fields })) form.append(k, v);
    form.append("predictions", new Blob([predictions]), "preds.jsonl");
    form.append("trajectories", blob, "traj.tgz");
    return new Request("http://localhost/api/v1/submissions", { method: "POST", body: form });
  }
  it("stores each bug's log, outcome, steps and shortcut hits, the public choice and the row's flags; memory and strays are left out", async () => {
    const log1 = `##[chainswe] step Look around\nchecking history\n${call("git log --all --oneline", "abc fix\n")}##[chainswe] step Fix\n${call("ls")}`;
    const blob = await archive({
      "./dateranges-chain-1/1.log": log1,
      "./dateranges-chain-1/1.json": outcome(1),
      "./dateranges-chain-1/2.log": call("curl -s https://pypi.org/simple/") + call("ls"),
      "./dateranges-chain-1/memory/notes.md": "kept across bugs",
      "./README.txt": "made by chainswe rollout",
    });
    const got = await intake.receiveSubmission(alice, await trajectoryUpload(blob, { trajectories_public: "on" }), { limits: LIMITS });
    expect(got.warnings).toEqual(["traj.tgz: README.txt left out (not <chain>/<order>.log or .json)"]);
    const row = await t.db.submission.findUniqueOrThrow({ where: { id: got.id }, include: { trajectories: { orderBy: { order: "asc" } } } });
    expect(row.trajectoriesPublic).toBe(true);
    expect(JSON.parse(row.shortcuts)).toEqual({ future_history: 1, network: 1 });
    expect(row.trajectories.map((r) => [r.continuousId, r.order, r.steps, r.calls, r.outcome === null])).toEqual([
      ["dateranges-chain-1", 1, 2, 2, false],
      ["dateranges-chain-1", 2, 2, 2, true],
    ]);
    expect(row.trajectories[0]!.log).toBe(log1);
    expect(JSON.parse(row.trajectories[0]!.shortcuts)).toEqual([{ kind: "future_history", call: 1, command: "git log --all --oneline", why: expect.stringContaining("--all") }]);
    expect(JSON.parse(row.trajectories[0]!.outcome!)).toMatchObject({ wall_seconds: 3.2, metrics: { turns: 2 } });
  });

  it("large patches and logs are written by the checking thread and named by their rows, never copied: read whole by every reader; a refused upload leaves none; a deleted submission takes them", async () => {
    const big = `--- /dev/null\n+++ b/big.py\n@@ -0,0 +1,1000 @@\n${"+x = 1  # padding padding padding\n".repeat(1000)}`;
    const predictions = withLine(0, (r) => ({ ...r, model_patch: big }));
    const log = call("ls", "z".repeat(40_000) + "\n");
    const got = await intake.receiveSubmission(alice, await trajectoryUpload(await archive({ "dateranges-chain-1/1.log": log }), {}, predictions), { limits: LIMITS });
    const { STORED_LOG, STORED_PATCH, storedLog, storedPatch } = await import("@/lib/submissions/staged-texts");
    const stored = await t.db.prediction.findFirstOrThrow({ where: { submissionId: got.id, continuousId: "dateranges-chain-1", order: 1 }, select: { ...STORED_PATCH, patchTextId: true } });
    expect(stored.modelPatch).toBe("");
    expect(storedPatch(stored)).toBe(big);
    const trajectory = await t.db.trajectory.findFirstOrThrow({ where: { submissionId: got.id }, select: { ...STORED_LOG, logTextId: true } });
    expect(trajectory.log).toBe("");
    expect(storedLog(trajectory)).toBe(log);
    // what stays staged is what the rows name
    expect((await t.db.stagedText.findMany({ select: { id: true } })).map((r) => r.id).sort()).toEqual([stored.patchTextId, trajectory.logTextId].sort());
    // every reader of a patch reads the named text: the evaluation's, the download's, the failure page's
    const { getChainPredictions } = await import("@/lib/submissions/data");
    expect((await getChainPredictions(got.id, "dateranges-chain-1")).get(1)?.model_patch).toBe(big);
    const { bugTrajectoryLog, predictionsJsonl } = await import("@/lib/submissions/downloads");
    expect(JSON.parse((await predictionsJsonl(alice, got.id)).split("\n").find((l) => l.includes('"order":1'))!).model_patch).toBe(big);
    const { getFailurePage } = await import("@/lib/submissions/failure");
    const page = await getFailurePage(alice, got.id, "dateranges-chain-1", 1);
    expect(page.agentPatch).toMatchObject({ visible: true, empty: false, files: [expect.objectContaining({ path: "big.py" })] });
    await expect(bugTrajectoryLog(alice, got.id, "dateranges-chain-1", 1)).resolves.toMatchObject({ text: log });
    // the staged texts count in what the submission stores (the storage limit), though they never crossed this thread
    const { uploadBytes } = await t.db.submission.findUniqueOrThrow({ where: { id: got.id }, select: { uploadBytes: true } });
    expect(Number(uploadBytes)).toBeGreaterThan(Buffer.byteLength(big) + Buffer.byteLength(log));
    // the patch is staged, then the archive refused: nothing of that upload stays
    await expect(intake.receiveSubmission(alice, await trajectoryUpload(await archive({ "dateranges-chain-1/9.log": log }), {}, predictions), { limits: LIMITS })).rejects.toBeInstanceOf(FieldError);
    expect(await t.db.stagedText.count()).toBe(2);
    const { deleteSubmissionFor } = await import("@/lib/submissions/removal");
    await cancelAndDelete(got.id, deleteSubmissionFor);
    expect(await t.db.stagedText.count()).toBe(0);
  });

  it("a day-old staged text goes with the next upload's staging unless a prediction or a trajectory names it", async () => {
    const big = `--- /dev/null\n+++ b/big.py\n@@ -0,0 +1,1000 @@\n${"+y = 2  # padding padding padding\n".repeat(1000)}`;
    const log = call("ls", "q".repeat(40_000) + "\n");
    const got = await intake.receiveSubmission(alice, await trajectoryUpload(await archive({ "dateranges-chain-1/1.log": log }), {}, withLine(0, (r) => ({ ...r, model_patch: big }))), { limits: LIMITS });
    const named = (await t.db.stagedText.findMany({ select: { id: true } })).map((r) => r.id).sort();
    expect(named).toHaveLength(2);
    await t.db.stagedText.create({ data: { id: "left-by-a-crash", text: "x".repeat(20_000) } });
    await t.db.stagedText.updateMany({ data: { createdAt: new Date(Date.now() - 2 * 24 * 3600_000) } });
    const { stageTexts } = await import("@/lib/submissions/staged-texts");
    const [fresh] = await stageTexts(t.url, ["z".repeat(20_000)]);
    const left = (await t.db.stagedText.findMany({ select: { id: true } })).map((r) => r.id);
    expect(left.sort()).toEqual([...named, (fresh as { staged: string }).staged].sort());
    const { deleteSubmissionFor } = await import("@/lib/submissions/removal");
    await cancelAndDelete(got.id, deleteSubmissionFor);
    await t.db.stagedText.deleteMany();
  });

  it("the checking thread hands back a trajectory's log as where it staged it, not as a copy of the log", async () => {
    const { uploadedTrajectories } = await import("@/lib/submissions/trajectories");
    const { getChain } = await import("@/lib/dataset/data");
    const dir = await mkdtemp(join(tmpdir(), "chainswe-traj-"));
    const path = join(dir, "t.tgz");
    await writeFile(path, Buffer.from(await (await archive({ "dateranges-chain-1/1.log": call("ls", "z".repeat(40_000) + "\n") })).arrayBuffer()));
    const chain = (await getChain("v1", "dateranges-chain-1"))!;
    const checked = await uploadedTrajectories({ path, name: "t.tgz" }, 1 << 20, process.env.DATABASE_URL)([chain], [chain.continuous_id], "v1");
    expect(checked.rows[0]!.log).toEqual({ staged: expect.any(String) });
    expect(await t.db.stagedText.count()).toBe(1);
    await t.db.stagedText.deleteMany();
    await rm(dir, { recursive: true, force: true });
  });

  it("a bug's effort the prediction line does not report is taken from its trajectory: steps, wall time; the line's own figures come first", async () => {
    // line 0 is dateranges-chain-1 #1: without its turns; the shipped lines carry no wall_seconds
    const predictions = withLine(0, ({ turns: _turns, ...rest }) => rest);
    const log = `##[chainswe] step One\n${call("ls")}##[chainswe] step Two\n##[chainswe] step Three\n`;
    const blob = await archive({ "dateranges-chain-1/1.log": log, "dateranges-chain-1/1.json": outcome(1, { metrics: { turns: 9, input_tokens: 5 } }), "dateranges-chain-1/2.log": log });
    const got = await intake.receiveSubmission(alice, await trajectoryUpload(blob, {}, predictions), { limits: LIMITS });
    const meta = async (order: number) => JSON.parse((await t.db.prediction.findFirstOrThrow({ where: { submissionId: got.id, continuousId: "dateranges-chain-1", order }, select: { meta: true } })).meta);
    const line = (order: number) => JSON.parse(goldLines.find((l) => JSON.parse(l).swebench_instance_id === `chainswe-demo__dateranges-${order}`)!);
    // bug 1: the outcome's metrics fill the missing turns (its reported 9 before the log's 3 steps), its wall time is added; the line's tokens stay
    expect(await meta(1)).toMatchObject({ turns: 9, wall_seconds: 3.2, input_tokens: line(1).input_tokens });
    // bug 2: no outcome; the line's own turns stay
    expect(await meta(2)).toEqual({ cost_usd: line(2).cost_usd, input_tokens: line(2).input_tokens, output_tokens: line(2).output_tokens, peak_context_tokens: line(2).peak_context_tokens, turns: line(2).turns });
    // without turns in the line or an outcome, the log's declared steps count
    const again = await intake.receiveSubmission(alice, await trajectoryUpload(await archive({ "dateranges-chain-1/1.log": log }), {}, predictions), { limits: LIMITS });
    expect(JSON.parse((await t.db.prediction.findFirstOrThrow({ where: { submissionId: again.id, continuousId: "dateranges-chain-1", order: 1 }, select: { meta: true } })).meta).turns).toBe(3);
  });

  it("a plain tar is read too, and trajectories are private unless the team says otherwise", async () => {
    const got = await intake.receiveSubmission(alice, await trajectoryUpload(await archive({ "dateranges-chain-1/3.log": "thinking\n" }, true)), { limits: LIMITS });
    const row = await t.db.submission.findUniqueOrThrow({ where: { id: got.id }, include: { trajectories: true } });
    expect([row.trajectoriesPublic, row.shortcuts, row.trajectories.map((r) => [r.order, r.steps, r.calls])]).toEqual([false, "{}", [[3, 0, 0]]]);
  });

  it.each([
    ["a chain the version does not have", { "x/no-such-chain/1.log": "" }, "trajectories: x/no-such-chain/1.log: dataset version v1 has no chain stored in a directory named no-such-chain"],
    ["a position the chain does not have", { "dateranges-chain-1/9.log": "" }, "trajectories: dateranges-chain-1/9.log: chain dateranges-chain-1 has 4 bugs, no position 9"],
    ["an outcome that is not JSON", { "dateranges-chain-1/1.log": "", "dateranges-chain-1/1.json": "{" }, "trajectories: dateranges-chain-1/1.json: not JSON"],
    ["an outcome with a bad field", { "dateranges-chain-1/1.log": "", "dateranges-chain-1/1.json": outcome(1, { timed_out: "no" }) }, "trajectories: dateranges-chain-1/1.json: field timed_out:"],
    ["an outcome of another bug", { "dateranges-chain-1/1.log": "", "dateranges-chain-1/1.json": outcome(2) }, "says it is bug 2 of dateranges-chain-1, but its path is bug 1"],
    ["an outcome without its log", { "dateranges-chain-1/2.json": outcome(2) }, "trajectories: dateranges-chain-1/2.json: no 2.log beside it"],
  ])("refuses %s, naming the entry, and stores nothing", async (_what, entries, message) => {
    const err = await refused(await trajectoryUpload(await archive(entries)), FieldError);
    expect(err.message).toContain(message);
  });

  it("refuses what is not a tar archive, and an archive that unpacks past the limit (413), storing nothing", async () => {
    expect((await refused(await trajectoryUpload(new Blob(["PK\u0003\u0004zip"])), FieldError)).message).toBe(
      "trajectories: traj.tgz is a zip file: send the rollout's trajectories directory as a .tar or .tar.gz (tar czf t.tgz -C preds.trajectories .)",
    );
    // 3 MB of one repeated line gzips to a few KB: a small bomb
    const bomb = await archive({ "dateranges-chain-1/1.log": "x".repeat(3 * 1024 * 1024) });
    expect(bomb.size).toBeLessThan(64 * 1024);
    const err = await refused(await trajectoryUpload(bomb), LimitError);
    expect([err.status, err.message]).toEqual([413, "traj.tgz: unpacks to more than the 1 MB limit for trajectories"]);
    // a bomb of empty entries: their headers count too
    const empties = await archive(Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`stray/${i}.txt`, ""])));
    expect((await refused(await trajectoryUpload(empties), LimitError)).message).toBe("traj.tgz: unpacks to more than the 1 MB limit for trajectories");
  });

  it("the archive counts with the predictions against the upload's limit (413 naming trajectories), storing nothing", async () => {
    const predictionBytes = Buffer.byteLength(lines(goldLines));
    // incompressible bytes that, with the predictions, pass the 1 MB limit: what they unpack to does not matter
    const filler = new Blob([randomBytes(LIMITS.maxUploadBytes - predictionBytes + 1024)]);
    const err = await refused(await trajectoryUpload(filler), LimitError);
    expect([err.status, err.field, err.message]).toEqual([413, "trajectories", "the predictions file and the trajectories archive together are larger than the 1 MB limit"]);
  });

  it("names a few stray entries and counts the rest, rather than a warning each", async () => {
    const strays = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`notes/${i}.txt`, "x"]));
    const got = await intake.receiveSubmission(alice, await trajectoryUpload(await archive({ ...strays, "dateranges-chain-1/1.log": "" })), { limits: LIMITS });
    expect(got.warnings).toHaveLength(11);
    expect(got.warnings[0]).toBe("traj.tgz: notes/0.txt left out (not <chain>/<order>.log or .json)");
    expect(got.warnings[10]).toBe("traj.tgz: 2 more entries left out");
  });
});
