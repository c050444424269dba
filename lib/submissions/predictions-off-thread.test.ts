/**
 * One hostile upload must not stall the site (docs/SECURITY.md). The check runs
 * on a worker thread while this thread keeps answering HTTP requests.
 */
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, get, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FieldError, InputError } from "@/core/errors";
import { loadPredictionsOffThread } from "./predictions-off-thread";

let dir: string;
let server: Server;
let port: number;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "chainswe-offthread-"));
  server = createServer((_req, res) => res.end("ok"));
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  port = (server.address() as { port: number }).port;
});

afterAll(async () => {
  server?.close();
  await rm(dir, { recursive: true, force: true });
});

const ask = () =>
  new Promise<string>((resolve, reject) => {
    get({ host: "127.0.0.1", port, path: "/", agent: false }, (res) => {
      let body = "";
      res.on("data", (c: Buffer) => (body += c));
      res.on("end", () => resolve(body));
    }).on("error", reject);
  });

/** A 100 MB JSON array of empty objects (the upload size limit): one parse of it held the site 51 s and 2.2 GB. */
async function hostileArray(bytes: number): Promise<string> {
  const path = join(dir, "hostile.json");
  const out = createWriteStream(path);
  const chunk = "{},".repeat(1 << 20); // 3 MB
  out.write("[");
  for (let written = 1; written + chunk.length < bytes; written += chunk.length) {
    if (!out.write(chunk)) await once(out, "drain");
  }
  out.end("{}]");
  await once(out, "finish");
  return path;
}

describe("loadPredictionsOffThread", () => {
  it("answers another client's requests while a 100 MB hostile upload is being checked, then refuses the upload", async () => {
    const path = await hostileArray(100 * 1024 * 1024);
    let checked = false;
    const check = loadPredictionsOffThread(path, [], { maxFileBytes: 100 * 1024 * 1024, maxPatchBytes: 2 << 20 }, { heapMb: 256 }).finally(() => (checked = true));
    check.catch(() => {}); // awaited below
    const answeredDuringCheck: boolean[] = [];
    for (let i = 0; i < 5; i++) {
      expect(await ask()).toBe("ok");
      answeredDuringCheck.push(!checked);
    }
    expect(answeredDuringCheck.every(Boolean)).toBe(true);
    const refusal = await check.then(
      () => null,
      (e: unknown) => e,
    );
    // refused either way: over the checking thread's memory, or every record fails the schema
    expect(refusal instanceof FieldError || refusal instanceof InputError).toBe(true);
  }, 180_000); // over the project's budget: 100 MB written, then checked on a thread of its own

  it("hands back the line-by-line problems of a bad file as an InputError", async () => {
    const path = join(dir, "bad.jsonl");
    await writeFile(path, "not json\n{}\n");
    const err = await loadPredictionsOffThread(path, []).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).issues[0]).toMatchObject({ line: 1, message: expect.stringMatching(/malformed JSON/) });
  });
});
