/**
 * `chainswe submit` end to end over real HTTP: a small Node server hands the
 * request to the portal's own intake (receiveSubmission on a test database),
 * so the file really streams from disk through fetch, multipart and busboy.
 * Progress for --wait is scripted.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorResponse, json } from "@/lib/http/requests";
import { DEMO_GOLD_SEQ, openTestDb } from "@/lib/testing/test-db";
import type { Viewer } from "@/lib/accounts/users";
import { runSubmit, trajectoriesBlob, type SubmitFlags, type SubmitIo } from "./submit";

let t: Awaited<ReturnType<typeof openTestDb>>;
let server: Server;
let base: string;
let alice: Viewer;
let systemId: string;
/** statuses GET /api/v1/submissions/:id answers, one per poll */
let script: string[] = [];

function toRequest(req: IncomingMessage): Request {
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
  const init = { method: req.method, headers, body: req.method === "POST" ? Readable.toWeb(req) : undefined, duplex: "half" };
  return new Request(`http://localhost${req.url}`, init as RequestInit);
}

beforeAll(async () => {
  t = await openTestDb();
  const { receiveSubmission } = await import("@/lib/submissions/intake");
  const user = await t.db.user.create({ data: { username: "alice" } });
  const team = await t.db.team.create({ data: { name: "Acme", slug: "acme" } });
  await t.db.teamMember.create({ data: { teamId: team.id, userId: user.id } });
  systemId = (await t.db.system.create({ data: { teamId: team.id, name: "agent", model: "m", scaffold: "s", contextConfig: "Baseline" } })).id;
  alice = (await (await import("@/lib/accounts/users")).viewerById(user.id))!;
  const limits = { maxUploadBytes: 1024 * 1024, maxPatchBytes: 64 * 1024, dailyQuota: 100, maxTrajectoriesBytes: 1024 * 1024, storageBytes: 1024 ** 3 };
  server = createServer((req, res) => {
    const request = toRequest(req);
    const viewer = req.headers.authorization === "Bearer csw_good" ? alice : null;
    const answer = async (): Promise<Response> => {
      if (req.method === "POST") return receiveSubmission(viewer, request, { limits }).then((b) => json(b, { status: 201 }), errorResponse);
      const status = script.shift() ?? "completed";
      const done = status === "completed" ? 5 : status === "running" ? 2 : 0;
      return json({ status, progress: { chains: { total: 5, done, failed: status === "failed" ? 1 : 0, cancelled: 0 }, bugs: { total: 16, graded: done * 3, resolved: done * 2 } } });
    };
    void answer().then(async (r) => {
      res.writeHead(r.status, Object.fromEntries(r.headers));
      res.end(await r.text());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server?.close();
  await t?.close();
});

function io() {
  const out: string[] = [];
  const err: string[] = [];
  const sink: SubmitIo = { fetch, out: (s) => out.push(s), err: (s) => err.push(s), sleep: async () => {} };
  return { sink, out: () => out.join(""), err: () => err.join("") };
}

const flags = (over: Partial<SubmitFlags> = {}): SubmitFlags => ({
  server: `${base}/`,
  token: "csw_good",
  system: systemId,
  mode: "seq",
  datasetVersion: "v1",
  meta: [],
  pollSeconds: "2",
  ...over,
});

describe("chainswe submit", () => {
  it("uploads the file and prints the submission id and URL", async () => {
    const o = io();
    const code = await runSubmit(DEMO_GOLD_SEQ, flags({ meta: ["scaffold_version=1.2", "note=a=b"] }), o.sink);
    expect(code).toBe(0);
    const id = /^submission (\S+)\n/.exec(o.out())?.[1];
    expect(o.out()).toBe(`submission ${id}\n${base}/submissions/${id}\n`);
    expect(o.err()).toBe("queued 5 chain(s) with 16 prediction(s)\n");
    const row = await t.db.submission.findUniqueOrThrow({ where: { id }, include: { _count: { select: { predictions: true } } } });
    expect(JSON.parse(row.metadata)).toEqual({ scaffold_version: "1.2", note: "a=b" });
    expect(row._count.predictions).toBe(16);
  });

  it("--run-of sends the next run of an entry; a run of another mode is refused naming run_of", async () => {
    const first = io();
    expect(await runSubmit(DEMO_GOLD_SEQ, flags(), first.sink)).toBe(0);
    const id = /^submission (\S+)\n/.exec(first.out())![1]!;
    const second = io();
    expect(await runSubmit(DEMO_GOLD_SEQ, flags({ runOf: id }), second.sink)).toBe(0);
    expect(second.err()).toBe("queued 5 chain(s) with 16 prediction(s) as run 2 of its entry\n");
    const run2 = /^submission (\S+)\n/.exec(second.out())![1]!;
    expect(await t.db.submission.findUniqueOrThrow({ where: { id: run2 }, select: { run: true, runOfId: true } })).toEqual({ run: 2, runOfId: id });
    const wrong = io();
    expect(await runSubmit(DEMO_GOLD_SEQ, flags({ runOf: id, mode: "oracle" }), wrong.sink)).toBe(1);
    expect(wrong.err()).toMatch(/refused \(400\): run_of: submission \S+ is of another dataset version or mode/);
  });

  it("--manifest: a breach of a refusing rule is refused naming the field; a flagging one is stored with the submission", async () => {
    const { setVersionRules } = await import("@/lib/dataset/data");
    await setVersionRules("v1", { no_test_lists: { action: "refuse" }, max_time_limit_multiplier: { value: 1, action: "flag" } });
    const manifest = { agent: { name: "a", version: "1" }, model: "m", limits: { steps_per_bug: null, time_per_bug_s: 600, time_limit_multiplier: 2 }, context: "Baseline", memory: "none", visible: { hints: false, test_lists: true }, command: "run it" };
    const path = join(t.dir, "manifest.json");
    await writeFile(path, JSON.stringify(manifest));
    const refused = io();
    const before = await t.db.submission.count();
    expect(await runSubmit(DEMO_GOLD_SEQ, flags({ manifest: path }), refused.sink)).toBe(1);
    expect(refused.err()).toMatch(/refused \(400\): manifest: breaks dataset version v1's rules: visible\.test_lists: /);
    expect(await t.db.submission.count()).toBe(before);
    await writeFile(path, JSON.stringify({ ...manifest, visible: { hints: false, test_lists: false } }));
    const flagged = io();
    expect(await runSubmit(DEMO_GOLD_SEQ, flags({ manifest: path }), flagged.sink)).toBe(0);
    const id = /^submission (\S+)\n/.exec(flagged.out())![1]!;
    const row = await t.db.submission.findUniqueOrThrow({ where: { id }, select: { manifest: true, ruleBreaches: true } });
    expect(JSON.parse(row.manifest!)).toMatchObject({ agent: { name: "a" }, limits: { time_limit_multiplier: 2 } });
    expect(JSON.parse(row.ruleBreaches)).toEqual([{ field: "limits.time_limit_multiplier", rule: "max_time_limit_multiplier", action: "flag", message: "2 is over this version's 1" }]);
    const missing = io();
    expect(await runSubmit(DEMO_GOLD_SEQ, flags({ manifest: join(t.dir, "none.json") }), missing.sink)).toBe(2);
    await setVersionRules("v1", {});
  });

  it("--trajectories: packs the rollout's directory (leaving memory/ out) and the portal stores each bug's log and the public choice", async () => {
    const dir = join(t.dir, "preds.trajectories");
    await mkdir(join(dir, "dateranges-chain-1", "memory"), { recursive: true });
    await writeFile(join(dir, "dateranges-chain-1", "1.log"), "##[chainswe] $ git reflog\n##[chainswe] exit 0 3ms\n");
    await writeFile(join(dir, "dateranges-chain-1", "2.log"), "thinking\n");
    await writeFile(join(dir, "dateranges-chain-1", "memory", "notes.md"), "kept across bugs");
    const packed = await trajectoriesBlob(dir);
    const names: string[] = [];
    const extract = (await import("tar-stream")).extract();
    extract.on("entry", (h, stream, next) => (names.push(`${h.type} ${h.name}`), stream.resume(), stream.on("end", next)));
    await pipeline(Readable.from(Buffer.from(await packed.blob.arrayBuffer())), createGunzip(), extract);
    expect([packed.name, names.sort()]).toEqual(["preds.trajectories.tar.gz", ["directory .", "directory dateranges-chain-1", "file dateranges-chain-1/1.log", "file dateranges-chain-1/2.log"]]);
    const o = io();
    expect(await runSubmit(DEMO_GOLD_SEQ, flags({ trajectories: dir, trajectoriesPublic: true }), o.sink)).toBe(0);
    expect(o.err()).toBe("queued 5 chain(s) with 16 prediction(s)\n");
    const id = /^submission (\S+)\n/.exec(o.out())![1]!;
    const row = await t.db.submission.findUniqueOrThrow({ where: { id }, select: { trajectoriesPublic: true, shortcuts: true, trajectories: { select: { order: true, calls: true }, orderBy: { order: "asc" } } } });
    expect(row).toEqual({ trajectoriesPublic: true, shortcuts: '{"future_history":1}', trajectories: [{ order: 1, calls: 1 }, { order: 2, calls: 0 }] });
    const missing = io();
    expect(await runSubmit(DEMO_GOLD_SEQ, flags({ trajectories: join(t.dir, "nowhere") }), missing.sink)).toBe(2);
    expect(missing.err()).toMatch(/^chainswe submit: cannot read --trajectories .*nowhere: ENOENT/);
  });

  it("prints every bad line and exits 1 when the portal refuses the file", async () => {
    const path = join(t.dir, "bad.jsonl");
    await writeFile(path, `{"continuous_id": "nope", "swebench_instance_id": "x", "model_patch": ""}\n{oops\n`);
    const o = io();
    expect(await runSubmit(path, flags(), o.sink)).toBe(1);
    expect(o.err()).toMatch(/^chainswe submit: refused \(422\): bad\.jsonl: 2 problem\(s\)\n {2}line 1, field continuous_id: unknown chain nope\n {2}line 2: malformed JSON/);
    expect(o.out()).toBe("");
  });

  it("reports a refused token or field and exits 1; a missing token exits 2 before sending", async () => {
    const o = io();
    expect(await runSubmit(DEMO_GOLD_SEQ, flags({ token: "csw_bad" }), o.sink)).toBe(1);
    expect(o.err()).toMatch(/refused \(401\)/);
    const m = io();
    expect(await runSubmit(DEMO_GOLD_SEQ, flags({ mode: "fast" }), m.sink)).toBe(1);
    expect(m.err()).toMatch(/refused \(400\): mode: must be one of oracle, seq, seq_mem/);
    const n = io();
    expect(await runSubmit(DEMO_GOLD_SEQ, flags({ token: undefined }), n.sink)).toBe(2);
    expect(await runSubmit(join(t.dir, "missing.jsonl"), flags(), n.sink)).toBe(2);
    expect(n.err()).toMatch(/an API token is needed[\s\S]*cannot read/);
  });

  it("--wait prints progress as it changes and exits 0 once completed, 1 when failed", async () => {
    script = ["queued", "queued", "running", "completed"];
    const o = io();
    expect(await runSubmit(DEMO_GOLD_SEQ, flags({ wait: true }), o.sink)).toBe(0);
    expect(o.out().split("\n").slice(2)).toEqual([
      "queued: chains 0/5 done; bugs 0/16 graded, 0 resolved",
      "running: chains 2/5 done; bugs 6/16 graded, 4 resolved",
      "completed: chains 5/5 done; bugs 15/16 graded, 10 resolved",
      "",
    ]);
    script = ["running", "failed"];
    const f = io();
    expect(await runSubmit(DEMO_GOLD_SEQ, flags({ wait: true }), f.sink)).toBe(1);
    expect(f.out()).toMatch(/failed: chains 0\/5 done \(1 failed\)/);
  });
});
