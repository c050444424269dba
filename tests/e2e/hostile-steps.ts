/**
 * Steps the hostile-input specs share: people with a team, a system and a
 * token; uploads through the API and waiting for their evaluation; reading
 * the shared test database to see that a refused request changed nothing;
 * and capturing a server action's real request in the browser to replay it
 * forged.
 */
import { readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import * as tarStream from "tar-stream";
import Database from "better-sqlite3";
import { expect, type APIRequestContext, type APIResponse, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { DEMO_VERSION, ROOT } from "./site";
import { createTeamWithSystem, createToken, signInAsReviewer, signUp } from "./steps";

export const GOLD_ORACLE = join(ROOT, "demo", "predictions", "demo-gold.oracle.jsonl");
/** the chain the short evaluations here grade (3 bugs) */
export const CHAIN = "moneyx-chain-1";

export type Actor = {
  username: string;
  /** a signed-in browser context of this person */
  context: BrowserContext;
  page: Page;
  /** a token with both scopes */
  token: string;
  slug: string;
  /** `<team slug>/<system name>` */
  system: string;
};

/** Someone who signed up, made a team with one system, and a token with both scopes. */
export async function teamMember(browser: Browser, username: string, team: string, system = "hw-agent"): Promise<Actor> {
  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  const page = await context.newPage();
  await signUp(page, username);
  const teamPath = await createTeamWithSystem(page, team, { name: system, model: `${username}-model` });
  const slug = teamPath.split("/").pop()!;
  const token = await createToken(page, "hostile", ["submit", "read"]);
  return { username, context, page, token, slug, system: `${slug}/${system}` };
}

/** A site admin (and so a reviewer) made on the command line, signed in, with a token. */
export async function reviewer(browser: Browser, username: string): Promise<Omit<Actor, "slug" | "system">> {
  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  const page = await context.newPage();
  await signInAsReviewer(page, username);
  const token = await createToken(page, "hostile", ["submit", "read"]);
  return { username, context, page, token };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Uploads the demo's gold Oracle predictions through the API (by default for one chain; `runOf`: as the next run of that entry); answers the new submission's id. */
export async function upload(
  request: APIRequestContext,
  actor: { token: string; system: string },
  opts: { chains?: string | null; metadata?: object; predictions?: Buffer; trajectories?: Buffer; runOf?: string } = {},
): Promise<string> {
  const chains = opts.chains === undefined ? CHAIN : opts.chains;
  const res = await request.post("/api/v1/submissions", {
    headers: bearer(actor.token),
    multipart: {
      system: actor.system,
      dataset_version: DEMO_VERSION,
      mode: "oracle",
      ...(chains ? { chains } : {}),
      ...(opts.metadata ? { metadata: JSON.stringify(opts.metadata) } : {}),
      ...(opts.runOf ? { run_of: opts.runOf } : {}),
      ...(opts.trajectories ? { trajectories: { name: "trajectories.tar.gz", mimeType: "application/gzip", buffer: opts.trajectories } } : {}),
      predictions: { name: "gold.oracle.jsonl", mimeType: "application/x-ndjson", buffer: opts.predictions ?? readFileSync(GOLD_ORACLE) },
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

/** A trajectories archive (.tar.gz) with one bug's log per entry of `logs` (`<chain>/<order>.log` → text), as `tar czf` of a rollout's directory. */
export async function trajectoriesArchive(logs: Record<string, string>): Promise<Buffer> {
  const pack = tarStream.pack();
  for (const [name, text] of Object.entries(logs)) pack.entry({ name }, text);
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of pack) chunks.push(chunk as Buffer);
  return gzipSync(Buffer.concat(chunks));
}

/** Polls the API until the submission's status is `status`. */
export async function waitForStatus(request: APIRequestContext, token: string, id: string, status: string, timeout = 5 * 60_000): Promise<void> {
  await expect
    .poll(async () => ((await (await request.get(`/api/v1/submissions/${id}`, { headers: bearer(token) })).json()) as { status: string }).status, {
      timeout,
      intervals: [1000],
    })
    .toBe(status);
}

/** One query on the shared test database (read-only), to check what a refused request left unchanged. */
export function dbGet<T = Record<string, unknown>>(sql: string, ...params: unknown[]): T | undefined {
  const db = new Database(new URL(process.env.E2E_DATABASE_URL!).pathname, { readonly: true, fileMustExist: true });
  try {
    return db.prepare(sql).get(...params) as T | undefined;
  } finally {
    db.close();
  }
}

/** One write on the shared test database (for a change a test undoes itself). */
export function dbRun(sql: string, ...params: unknown[]): void {
  const db = new Database(new URL(process.env.E2E_DATABASE_URL!).pathname);
  try {
    db.prepare(sql).run(...params);
  } finally {
    db.close();
  }
}

/** How a cross-site request arrives: from another site, with no Origin at all (the cookie still sent), or from an opaque origin. */
export const FORGED_ORIGINS: { name: string; headers: Record<string, string> }[] = [
  { name: "Origin of another site", headers: { origin: "https://evil.example", referer: "https://evil.example/csrf.html" } },
  { name: "no Origin, cookie session", headers: {} },
  { name: "opaque Origin (null)", headers: { origin: "null" } },
];

/**
 * For pages and server actions, which never read a token: an Authorization
 * header must not switch the origin check off. (The API's routes answer such
 * a request by its token alone, 401 for a forged one, its cookie never read.)
 */
export const FORGED_WITH_AUTHORIZATION: { name: string; headers: Record<string, string> }[] = [
  { name: "an Authorization header, no Origin", headers: { authorization: "Bearer csw_forged" } },
  { name: "an Authorization header, Origin of another site", headers: { authorization: "Basic eDp5", origin: "https://evil.example" } },
];

export type CapturedAction = { url: string; headers: Record<string, string>; body: Buffer };

/**
 * The request a server action sends when `trigger` submits its form, caught
 * in the browser and never delivered (so it changes nothing).
 */
export async function captureAction(page: Page, trigger: () => Promise<void>): Promise<CapturedAction> {
  let resolve!: (c: CapturedAction) => void;
  const captured = new Promise<CapturedAction>((r) => (resolve = r));
  await page.route("**/*", async (route) => {
    const req = route.request();
    if (req.method() !== "POST" || !req.headers()["next-action"]) return route.continue();
    resolve({ url: req.url(), headers: await req.allHeaders(), body: req.postDataBuffer() ?? Buffer.alloc(0) });
    await route.abort();
  });
  try {
    await trigger();
    return await captured;
  } finally {
    await page.unrouteAll({ behavior: "ignoreErrors" });
  }
}

/** Sends a captured action again from the same browser context (its cookies), with `origin` headers in place of the browser's own. */
export function replayAction(context: BrowserContext, action: CapturedAction, origin: Record<string, string>): Promise<APIResponse> {
  const drop = new Set(["origin", "referer", "cookie", "host", "content-length"]);
  const headers = Object.fromEntries(Object.entries(action.headers).filter(([k]) => !drop.has(k) && !k.startsWith(":")));
  return context.request.post(action.url, { headers: { ...headers, ...origin }, data: action.body, maxRedirects: 0 });
}

/** A made-up id shaped like a real one (cuid: "c" and 24 lowercase letters or digits). */
export function randomCuid(): string {
  let s = "c";
  while (s.length < 25) s += Math.floor(Math.random() * 36).toString(36);
  return s;
}

/**
 * Streams a predictions upload of `megabytes` MB with Node's HTTP client, the
 * way curl or the CLI would: with its length declared up front, or chunked
 * with none. Answers the status and body the server sent (as soon as it sent
 * them) and how much had been written by then.
 */
export function rawUpload(opts: { token: string; system: string; megabytes: number; declareLength: boolean }): Promise<{ status?: number; body: string; sentMB: number }> {
  const url = new URL("/api/v1/submissions", process.env.E2E_BASE_URL);
  const fields = { system: opts.system, dataset_version: DEMO_VERSION, mode: "oracle" };
  const head = Buffer.from(
    Object.entries(fields)
      .map(([k, v]) => `--B\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
      .join("") + `--B\r\nContent-Disposition: form-data; name="predictions"; filename="big.jsonl"\r\nContent-Type: application/x-ndjson\r\n\r\n`,
  );
  const headers: Record<string, string> = { ...bearer(opts.token), "content-type": "multipart/form-data; boundary=B" };
  if (opts.declareLength) headers["content-length"] = String(head.length + opts.megabytes * 1024 * 1024 + 6);
  return new Promise((resolve) => {
    const req = httpRequest(url, { method: "POST", headers });
    const line = Buffer.from(`${readFileSync(GOLD_ORACLE, "utf8").split("\n")[0]}\n`);
    const chunk = Buffer.concat(Array.from({ length: Math.ceil((1024 * 1024) / line.length) }, () => line)).subarray(0, 1024 * 1024);
    let sent = 0;
    let done = false;
    const finish = (r: { status?: number; body: string }) => {
      if (done) return;
      done = true;
      req.destroy();
      resolve({ ...r, sentMB: Math.round(sent / (1024 * 1024)) });
    };
    req.on("response", (res) => {
      let body = "";
      res.on("data", (c: Buffer) => (body += c.toString()));
      res.on("end", () => finish({ status: res.statusCode, body }));
    });
    req.on("error", (e) => finish({ body: `connection error: ${e.message}` }));
    req.write(head);
    const pump = () => {
      while (!done && sent < opts.megabytes * 1024 * 1024) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
      if (!done) req.end("\r\n--B--");
    };
    pump();
  });
}

// ---------------------------------------------------------------- HTML shown as text

/** The gold Oracle predictions, with bug 1 of CHAIN's patch also adding `file` holding `line`. */
export function goldWithHostileFile(file: string, line: string): Buffer {
  const lines = readFileSync(GOLD_ORACLE, "utf8").trim().split("\n").map((l) => JSON.parse(l) as { continuous_id: string; order?: number; swebench_instance_id: string; model_patch: string });
  const bug = lines.find((l) => l.continuous_id === CHAIN && l.swebench_instance_id.endsWith("-1"))!;
  const patch = bug.model_patch.endsWith("\n") ? bug.model_patch : `${bug.model_patch}\n`;
  bug.model_patch = `${patch}diff --git a/${file} b/${file}\nnew file mode 100644\n--- /dev/null\n+++ b/${file}\n@@ -0,0 +1 @@\n+${line}\n`;
  return Buffer.from(`${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
}

/** SQL naming bug 1 of CHAIN in the demo version (parameters: CHAIN, DEMO_VERSION) */
export const BUG_WHERE = `"order" = 1 AND chainId = (SELECT c.id FROM Chain c JOIN DatasetVersion v ON v.id = c.datasetVersionId WHERE c.continuousId = ? AND v.version = ?)`;
/** what a name or text written as HTML would have become, had it been rendered as HTML */
const INJECTED = "[onerror],[onload],[onmouseover],iframe,img[src='x'],svg[onload]";

/**
 * Opens `path` and checks that nothing written as HTML there became an element
 * or ran (window.__hw stays unset), and that each literal shows as text.
 */
export async function shownAsText(page: Page, path: string, literals: string[]): Promise<void> {
  const res = await page.goto(path);
  expect(res?.status(), path).toBe(200);
  for (const literal of literals) await expect(page.getByText(literal, { exact: false }).filter({ visible: true }).first(), `${path}: ${literal}`).toBeVisible();
  await expect(page.locator(INJECTED), path).toHaveCount(0);
  expect(await page.evaluate(() => [...document.scripts].filter((s) => /^\s*window\.__hw/.test(s.textContent ?? "")).length), path).toBe(0);
  expect(await page.locator("b, i").evaluateAll((els) => els.filter((e) => ["not bold", "sys"].includes(e.textContent ?? "")).length), path).toBe(0);
  expect(await page.evaluate(() => (window as { __hw?: number }).__hw), path).toBeUndefined();
}
