/**
 * `chainswe propose` over real HTTP: a small Node server hands the request to
 * the portal's own intake (receiveProposal on a test database) and answers
 * polls with the proposal as GET /api/v1/proposals/{id} does; between polls
 * the chain's validation is handed in through the queue's own calls.
 */
import { mkdtemp, writeFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorResponse, json } from "@/lib/http/requests";
import { openTestDb, testViewer, TEST_QUEUE_POLICY } from "@/lib/testing/test-db";
import { jsonl, proposedChain } from "@/lib/testing/proposed-chains";
import type { Viewer } from "@/lib/accounts/users";
import { runPropose } from "./propose";
import type { SubmitIo } from "./submit";

let t: Awaited<ReturnType<typeof openTestDb>>;
let server: Server;
let base: string;
let alice: Viewer;
let dir: string;

function toRequest(req: IncomingMessage): Request {
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
  const init = { method: req.method, headers, body: req.method === "POST" ? Readable.toWeb(req) : undefined, duplex: "half" };
  return new Request(`http://localhost${req.url}`, init as RequestInit);
}

beforeAll(async () => {
  t = await openTestDb();
  dir = await mkdtemp(join(tmpdir(), "chainswe-propose-cli-"));
  const { receiveProposal } = await import("@/lib/proposals/intake");
  const { getProposal } = await import("@/lib/proposals/data");
  const { proposalJson } = await import("@/lib/proposals/view");
  alice = await testViewer(t, "alice", null);
  const limits = { maxUploadBytes: 1024 * 1024, maxPatchBytes: 64 * 1024, dailyQuota: 100, maxTrajectoriesBytes: 1024 * 1024, storageBytes: 1024 ** 3 };
  server = createServer((req, res) => {
    const request = toRequest(req);
    const viewer = req.headers.authorization === "Bearer csw_good" ? alice : null;
    const answer = async (): Promise<Response> => {
      if (req.method === "POST") return receiveProposal(viewer, request, { limits, checks: { missingImages: async () => [] } }).then((b) => json(b, { status: 201 }), errorResponse);
      const id = req.url!.split("/").pop()!;
      return getProposal(viewer, id).then((p) => json(proposalJson(p)), errorResponse);
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

function io(onSleep: () => Promise<void> = async () => {}) {
  const out: string[] = [];
  const err: string[] = [];
  const sink: SubmitIo = { fetch, out: (s) => out.push(s), err: (s) => err.push(s), sleep: onSleep };
  return { sink, out, err };
}

const flags = (over: object = {}) => ({ server: base, token: "csw_good", datasetVersion: "v1", pollSeconds: "1", ...over });

describe("chainswe propose", () => {
  it("sends a select-format file as it is and, with --wait, follows the validation to its verdict", async () => {
    const file = join(dir, "v2.jsonl");
    await writeFile(file, jsonl([proposedChain("inikit", "cli")]));
    const validation = await import("@/jobs/validation");
    // the worker's part, done while the command waits between polls
    const handIn = async () => {
      const job = await validation.claimValidationJob({ workerId: "w", policy: TEST_QUEUE_POLICY, runs: 3 });
      if (!job) return;
      const bugs = job.chain.bug_fixes.map((b) => ({ order: b.order, swebench_instance_id: b.swebench_instance_id, runs: [], flaky: b.order === 1 ? ["tests/t.py::coin"] : [], problem: null }));
      await validation.completeValidation({ jobId: job.jobId, workerId: "w", verdict: { result: { runs: 3, rule: "drop", ok: true, bugs }, validated: job.chain, refusal: null, log: "" } });
    };
    const { sink, out, err } = io(handIn);
    expect(await runPropose(file, flags({ wait: true }), sink)).toBe(0);
    expect(err.join("")).toContain("proposed 1 chain(s)");
    expect(out.join("")).toMatch(/^proposal \w+\n/);
    expect(out.join("")).toContain("inikit-cli: queued for validation");
    expect(out.join("")).toContain("inikit-cli: valid, awaiting review (flaky, taken out: bug 1: tests/t.py::coin)");
  });

  it("prints every bad record the portal names and exits 1; a missing token is a usage error", async () => {
    const file = join(dir, "bad.jsonl");
    await writeFile(file, `{"continuous_id": 3}\nnot json\n`);
    const { sink, err } = io();
    expect(await runPropose(file, flags(), sink)).toBe(1);
    expect(err.join("")).toMatch(/refused \(422\)/);
    expect(err.join("")).toContain("line 1, field continuous_id:");
    expect(err.join("")).toMatch(/line 2: /);
    const none = io();
    expect(await runPropose(file, flags({ token: undefined }), none.sink)).toBe(2);
  });
});
