/**
 * The HTTP API and `chainswe submit` against the real site: a token made on
 * /account submits with the CLI and waits for the evaluation; a bad file is
 * refused with its lines named and stores nothing; scopes are enforced (a
 * read-only token changes nothing, a revoked one is refused); a
 * cookie-authenticated upload from another origin (CSRF) is refused.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { readBundle } from "@/evaluator/bundle/archive";
import { DEMO_VERSION, ROOT } from "./site";
import { createTeamWithSystem, createToken, signUp } from "./steps";

const run = Date.now().toString(36);
const GOLD_ORACLE = join(ROOT, "demo", "predictions", "demo-gold.oracle.jsonl");
const BAD = join(ROOT, "tests", "fixtures", "inputs", "bad-predictions.jsonl");

function submit(server: string, token: string, system: string, file: string, extra: string[] = []) {
  const args = ["bin/chainswe.mjs", "submit", "--server", server, "--token", token, "--system", system, "--mode", "oracle", "--dataset-version", DEMO_VERSION, "--poll-seconds", "1", ...extra, file];
  return spawnSync(process.execPath, args, { cwd: ROOT, encoding: "utf8", timeout: 5 * 60_000 });
}

test("chainswe submit with a token from /account: bad lines refused, good file evaluated to the end", async ({ page, baseURL }) => {
  await signUp(page, `carol-${run}`);
  const teamPath = await createTeamWithSystem(page, `CLI team ${run}`, { name: "cli-gold", model: "cli-model" });
  const slug = teamPath.split("/").pop()!;
  const system = `${slug}/cli-gold`;
  const token = await createToken(page, "laptop", ["submit", "read"]);
  const api = { authorization: `Bearer ${token}` };
  const listed = async () => ((await (await page.request.get(`/api/v1/submissions?team=${slug}`, { headers: api })).json()) as { items: unknown[] }).items.length;

  const bad = submit(baseURL!, token, system, BAD);
  expect(bad.status).toBe(1);
  expect(bad.stderr).toMatch(/refused \(422\)/);
  expect(bad.stderr).toMatch(/line 2\b.*malformed JSON/);
  expect(bad.stderr).toMatch(/line 3\b.*continuous_id/);
  expect(await listed()).toBe(0);

  const good = submit(baseURL!, token, system, GOLD_ORACLE, ["--wait"]);
  expect(good.stderr).toContain("queued 5 chain(s) with 16 prediction(s)");
  expect(good.stdout).toMatch(/completed: chains 5\/5 done; bugs 16\/16 graded, 16 resolved/);
  expect(good.status).toBe(0);
  const id = /submission (\S+)/.exec(good.stdout)![1]!;
  const detail = await page.request.get(`/api/v1/submissions/${id}`, { headers: api });
  expect(detail.status()).toBe(200);
  expect(await detail.json()).toMatchObject({ id, status: "completed", visibility: "private", mode: "oracle" });
  expect(await listed()).toBe(1);

  // the completed submission as a reproducibility bundle, with its patches (the team's token), checked offline
  const bundle = await page.request.get(`/api/v1/submissions/${id}/bundle`, { headers: api });
  expect(bundle.status()).toBe(200);
  expect(bundle.headers()["content-type"]).toBe("application/gzip");
  const file = join(mkdtempSync(join(tmpdir(), "chainswe-e2e-bundle-")), "bundle.tar.gz");
  writeFileSync(file, await bundle.body());
  const verified = spawnSync(process.execPath, ["bin/chainswe.mjs", "verify", file], { cwd: ROOT, encoding: "utf8", timeout: 60_000 });
  expect(verified.stdout).toContain("16/16 bug(s) re-graded from their logs");
  expect(verified.stdout).toContain("OK: the manifest, every verdict and every score agree");
  expect(verified.status).toBe(0);
  const files = await readBundle(file);
  expect(files.has("predictions.jsonl")).toBe(true);
  expect(JSON.parse(files.get("environment.json")!.toString())).toMatchObject({ patches_included: true, dataset: { name: `dataset version ${DEMO_VERSION}` } });
  await page.goto(`/submissions/${id}`);
  await expect(page.getByRole("link", { name: "reproducibility bundle" })).toHaveAttribute("href", `/api/v1/submissions/${id}/bundle`);
  // a private submission's bundle is no one else's
  expect((await fetch(new URL(`/api/v1/submissions/${id}/bundle`, baseURL))).status).toBe(404);
});

test("tokens: scopes are enforced and a bad token is 401, never a visitor", async ({ page, playwright, baseURL }) => {
  await signUp(page, `dave-${run}`);
  const teamPath = await createTeamWithSystem(page, `Scope team ${run}`, { name: "scoped", model: "scope-model" });
  const system = `${teamPath.split("/").pop()}/scoped`;
  const readOnly = await createToken(page, "read only", ["read"]);
  const refused = submit(baseURL!, readOnly, system, GOLD_ORACLE);
  expect(refused.status).toBe(1);
  expect(refused.stderr).toMatch(/refused \(401\)/);
  const anon = await playwright.request.newContext({ baseURL });
  expect((await anon.get("/api/v1/submissions", { headers: { authorization: "Bearer csw_not-a-token" } })).status()).toBe(401);
  expect((await anon.get("/api/v1/submissions")).status()).toBe(200);
  await anon.dispose();
});

test("a cookie-authenticated upload from another site is refused (CSRF) and stores nothing", async ({ page }) => {
  await signUp(page, `erin-${run}`);
  const teamPath = await createTeamWithSystem(page, `CSRF team ${run}`, { name: "csrf", model: "csrf-model" });
  const system = `${teamPath.split("/").pop()}/csrf`;
  const multipart = { system, dataset_version: DEMO_VERSION, mode: "oracle", predictions: { name: "p.jsonl", mimeType: "application/x-ndjson", buffer: Buffer.from("") } };
  const forged = await page.request.post("/api/v1/submissions", { multipart, headers: { origin: "https://evil.example" } });
  expect(forged.status()).toBe(403);
  const mine = ((await (await page.request.get("/api/v1/submissions?team=" + teamPath.split("/").pop())).json()) as { items: unknown[] }).items;
  expect(mine).toHaveLength(0);
});

test("a read-only token cannot submit, cancel, publish or re-run; a submit-only token cannot read; a revoked token is refused at once", async ({ page, playwright, baseURL }) => {
  await signUp(page, `gina-${run}`);
  const teamPath = await createTeamWithSystem(page, `Token team ${run}`, { name: "tok", model: "tok-model" });
  const system = `${teamPath.split("/").pop()}/tok`;
  const full = await createToken(page, "full", ["submit", "read"]);
  const readOnly = await createToken(page, "read only", ["read"]);
  const submitOnly = await createToken(page, "submit only", ["submit"]);
  const api = await playwright.request.newContext({ baseURL });
  const as = (token: string) => ({ authorization: `Bearer ${token}` });
  const multipart = {
    system,
    dataset_version: DEMO_VERSION,
    mode: "oracle",
    chains: "moneyx-chain-1",
    predictions: { name: "p.jsonl", mimeType: "application/x-ndjson", buffer: readFileSync(GOLD_ORACLE) },
  };
  const created = await api.post("/api/v1/submissions", { headers: as(full), multipart });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const state = async () => ((await (await api.get(`/api/v1/submissions/${id}`, { headers: as(readOnly) })).json()) as { visibility: string; status: string });

  const writes: [string, Parameters<typeof api.post>[1]][] = [
    ["/api/v1/submissions", { multipart }],
    [`/api/v1/submissions/${id}/cancel`, {}],
    [`/api/v1/submissions/${id}/publication`, { data: { action: "request_publication" } }],
    [`/api/v1/submissions/${id}/rerun`, {}],
  ];
  for (const [path, options] of writes) {
    const res = await api.post(path, { ...options, headers: as(readOnly) });
    expect(res.status(), `read-only token: ${path}`).toBe(401);
    expect(res.headers()["www-authenticate"]).toContain("Bearer");
  }
  for (const path of [`/api/v1/submissions/${id}`, `/api/v1/submissions/${id}/results.jsonl`, `/api/v1/submissions?team=${teamPath.split("/").pop()}`]) {
    expect((await api.get(path, { headers: as(submitOnly) })).status(), `submit-only token: ${path}`).toBe(401);
  }
  expect((await state()).status).not.toBe("cancelled");
  expect((await state()).visibility).toBe("private");

  // revoked on /account: refused from then on, for reading and for writing
  await page.goto("/account");
  await page.getByRole("button", { name: "Revoke token full" }).click();
  await expect(page.getByRole("button", { name: "Revoke token full" })).toHaveCount(0);
  expect((await api.get(`/api/v1/submissions/${id}`, { headers: as(full) })).status()).toBe(401);
  expect((await api.post(`/api/v1/submissions/${id}/cancel`, { headers: as(full) })).status()).toBe(401);
  expect((await api.post("/api/v1/submissions", { headers: as(full), multipart })).status()).toBe(401);
  expect((await state()).status).not.toBe("cancelled");
  // the team's session still may (and frees the worker)
  expect((await page.request.post(`/api/v1/submissions/${id}/cancel`, { headers: { origin: baseURL! } })).status()).toBe(200);
  await api.dispose();
});

test("a visitor's bundle of a public submission verifies, with the team's patches withheld", async ({ baseURL }) => {
  const board = (await (await fetch(new URL(`/api/v1/leaderboard?version=${DEMO_VERSION}`, baseURL))).json()) as { rows: { submission_id: string }[] };
  const id = board.rows[0]!.submission_id;
  const bundle = await fetch(new URL(`/api/v1/submissions/${id}/bundle`, baseURL));
  expect(bundle.status).toBe(200);
  const file = join(mkdtempSync(join(tmpdir(), "chainswe-e2e-bundle-")), "public.tar.gz");
  writeFileSync(file, Buffer.from(await bundle.arrayBuffer()));
  const files = await readBundle(file);
  expect([...files.keys()].filter((f) => f === "predictions.jsonl" || f.endsWith("model.patch"))).toEqual([]);
  expect(JSON.parse(files.get("environment.json")!.toString())).toMatchObject({ patches_included: false });
  const verified = spawnSync(process.execPath, ["bin/chainswe.mjs", "verify", file], { cwd: ROOT, encoding: "utf8", timeout: 60_000 });
  expect(verified.stdout).toContain("OK: the manifest, every verdict and every score agree");
  expect(verified.status).toBe(0);
});
