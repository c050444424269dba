/**
 * Held-out chains on the demo (SPEC §8), on a site of its own: a copy of the
 * evaluated demo database with two chains held out (`chainswe dataset held-out`
 * refuses, naming the version, since its submissions are published: set in the
 * database instead; the shared site's figures stay as they are). Hostile: every page
 * and route of tests/e2e/held-out-routes.ts is fetched as a visitor, a member
 * of the submitting team and a member of another team, and no answer may hold
 * a held-out chain's id, instance ids, problem statements, gold patches or
 * test names; a reviewer sees them. The audited download gives the team's
 * members the problem statements; the board shows each row's held-out chain %
 * beside its public chain %, its interval and the gap.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import Database from "better-sqlite3";
import { expect, test, type APIRequestContext, type Browser } from "@playwright/test";
import { chainSchema, type Chain } from "@/core/schemas/dataset";
import { DEMO_VERSION, ROOT, chainswe, evaluatedDemoDatabase, startSite, type Site } from "./site";
import { HELD_OUT_ROUTES } from "./held-out-routes";
import { PASSWORD, shot, signIn, signUp } from "./steps";

const PORT = Number(process.env.CHAINSWE_E2E_PORT ?? 3210) + 8;
const HELD = ["semverkit-chain-1", "dateranges-chain-1"];
const SYSTEM = "demo-breaker";

const chains = readFileSync(join(ROOT, "demo", "dataset.jsonl"), "utf8")
  .trim()
  .split("\n")
  .map((l) => chainSchema.parse(JSON.parse(l)));
const held = chains.filter((c) => HELD.includes(c.continuous_id));

/** The longest run of letters, digits and spaces in `text` (what HTML and CSV print unescaped). */
const plainRun = (text: string) =>
  (text.match(/[A-Za-z0-9 ]{16,}/g) ?? [])
    .map((s) => s.trim())
    .filter((s) => s.length >= 16)
    .sort((a, b) => b.length - a.length)[0] ?? "";
/** Every text of a held-out chain that must reach no one but reviewers. */
function secrets(c: Chain): string[] {
  return [
    c.continuous_id,
    ...c.bug_fixes.flatMap((b) => [
      b.swebench_instance_id,
      plainRun(b.problem_statement),
      plainRun(b.patch.split("\n").filter((l) => l.startsWith("+") && !l.startsWith("+++")).join("\n")),
      plainRun(b.test_patch.split("\n").filter((l) => l.startsWith("+") && !l.startsWith("+++")).join("\n")),
      ...b.FAIL_TO_PASS.map((t) => t.split("::").pop()!),
    ]),
  ].filter((s) => s.length >= 8);
}
/** the public chains' records: a text they hold too (a common line of test code) is no secret */
const publicText = JSON.stringify(chains.filter((c) => !HELD.includes(c.continuous_id)));
const SECRETS = held.flatMap(secrets).filter((s) => !publicText.includes(s));

let site: Site;
let dbUrl: string;
let sub: string;
let sub2: string;
const sql = () => new Database(new URL(dbUrl).pathname);

test.beforeAll(async () => {
  const db = evaluatedDemoDatabase("held-out");
  dbUrl = db.url;
  // the demo's submissions are published: its held-out chains are fixed, and the CLI says so, naming the version (SPEC §8)
  expect(() => chainswe(dbUrl, ["dataset", "held-out", DEMO_VERSION, "--chains", ...HELD])).toThrow(`dataset ${DEMO_VERSION}'s held-out chains are fixed: 18 submission(s) on it are published`);
  const s = sql();
  try {
    // so they are set as they would stand had the version been imported with them
    s.prepare(`UPDATE DatasetVersion SET rules = json_set(rules, '$.held_out', json(?)) WHERE version = ?`).run(JSON.stringify(HELD), DEMO_VERSION);
    const id = (mode: string) => (s.prepare(`SELECT s.id FROM Submission s JOIN System y ON y.id = s.systemId WHERE y.name = ? AND s.mode = ? AND s.visibility = 'public'`).get(SYSTEM, mode) as { id: string }).id;
    sub = id("seq");
    sub2 = id("oracle");
  } finally {
    s.close();
  }
  site = await startSite({ dbUrl, port: PORT });
});
test.afterAll(async () => site?.stop());

/** A signed-in browser context on this test's site. */
async function signedUp(browser: Browser, username: string, demoTeam: boolean) {
  const context = await browser.newContext({ baseURL: site.url });
  const page = await context.newPage();
  await signUp(page, username);
  if (demoTeam) {
    const s = sql();
    try {
      // the demo's team has no members to invite anyone: joined in the database, as the team's admin would have
      const joined = s.prepare(`INSERT INTO TeamMember (id, teamId, userId, role, createdAt) SELECT ?, t.id, u.id, 'member', u.createdAt FROM Team t, User u WHERE t.slug = 'chainswe-demo' AND u.username = ?`).run(`tm-${username}`, username);
      expect(joined.changes).toBe(1);
    } finally {
      s.close();
    }
  }
  return { context, page };
}

const fill = (url: string) => url.replaceAll("{version}", DEMO_VERSION).replaceAll("{chain}", HELD[0]!).replaceAll("{sub2}", sub2).replaceAll("{sub}", sub).replaceAll("{team}", "chainswe-demo");

/** An answer's text: a gzipped bundle unpacked (tar headers and all: a plain search finds any file's text). */
async function bodyOf(request: APIRequestContext, url: string): Promise<{ status: number; text: string }> {
  const res = await request.get(url, { maxRedirects: 0 });
  const body = await res.body();
  const gz = body.length > 2 && body[0] === 0x1f && body[1] === 0x8b;
  return { status: res.status(), text: (gz ? gunzipSync(body) : body).toString("utf8") };
}

test("no page or route shows a held-out chain to a visitor, the submitting team or another team; a reviewer sees it", async ({ browser }) => {
  expect(SECRETS.length).toBeGreaterThan(20);
  const visitor = await browser.newContext({ baseURL: site.url });
  const team = await signedUp(browser, "held-team-member", true);
  const other = await signedUp(browser, "held-outsider", false);
  const urls = HELD_OUT_ROUTES.flatMap((r) => ("fetch" in r ? r.fetch.map(fill) : []));
  for (const [who, request] of [
    ["a visitor", visitor.request],
    ["the submitting team", team.context.request],
    ["another team", other.context.request],
  ] as const) {
    for (const url of urls) {
      const { status, text } = await bodyOf(request, url);
      expect(status, `${who}: ${url}`).toBeLessThan(500);
      // an address naming the chain is echoed back by its 404 page: the chain's id there is the asker's own
      const secret = (s: string) => !(url.includes(s) && status === 404);
      expect(SECRETS.filter((s) => secret(s) && text.includes(s)), `${who}: ${url} (${status})`).toEqual([]);
    }
  }
  // the same addresses give a reviewer the held-out chain: the search above looks for what is there
  const reviewer = await browser.newContext({ baseURL: site.url });
  const page = await reviewer.newPage();
  chainswe(dbUrl, ["admin", "create", "held-reviewer", "--password-stdin"], `${PASSWORD}\n`);
  await signIn(page, "held-reviewer");
  for (const url of ["/dataset/{version}/chains/{chain}", "/submissions/{sub}", "/api/v1/submissions/{sub}/results.jsonl", "/api/v1/dataset/{version}/records"].map(fill)) {
    const { status, text } = await bodyOf(reviewer.request, url);
    expect(status, url).toBe(200);
    expect(SECRETS.filter((s) => text.includes(s)).length, url).toBeGreaterThan(0);
  }
  await page.goto(fill("/dataset/{version}/chains/{chain}"));
  await expect(page.getByRole("heading", { name: HELD[0] })).toBeVisible();
  expect((await team.page.goto(fill("/dataset/{version}/chains/{chain}")))!.status()).toBe(404);
  await shot(team.page, "held-out-chain-not-found");
});

test("the held-out problem statements: downloaded by the team's members, each download audited; 401 and 403 otherwise", async ({ browser }) => {
  const url = `/api/v1/dataset/${DEMO_VERSION}/held-out?team=chainswe-demo`;
  const visitor = await browser.newContext({ baseURL: site.url });
  expect((await visitor.request.get(url)).status()).toBe(401);
  const other = await signedUp(browser, "held-dl-outsider", false);
  expect((await other.context.request.get(url)).status()).toBe(403);
  const audited = () => {
    const s = sql();
    try {
      return (s.prepare(`SELECT count(*) AS n FROM AuditLog WHERE action = 'held_out_downloaded'`).get() as { n: number }).n;
    } finally {
      s.close();
    }
  };
  expect(audited()).toBe(0);
  const team = await signedUp(browser, "held-dl-member", true);
  const res = await team.context.request.get(url);
  expect(res.status()).toBe(200);
  const lines = (await res.text()).trim().split("\n").map((l) => JSON.parse(l) as { continuous_id: string; bug_fixes: { problem_statement: string }[] });
  expect(lines.map((l) => l.continuous_id).sort()).toEqual([...HELD].sort());
  expect(lines.flatMap((l) => l.bug_fixes.map((b) => b.problem_statement))).toEqual(chains.filter((c) => HELD.includes(c.continuous_id)).flatMap((c) => c.bug_fixes.map((b) => b.problem_statement)));
  const text = await res.text();
  for (const c of held) for (const b of c.bug_fixes) expect(text).not.toContain(b.commit_hash);
  expect(audited()).toBe(1);
});

test("the board: each row's chain % over the public chains, its held-out chain % with its interval beside it, and the gap", async ({ browser }) => {
  const visitor = await browser.newContext({ baseURL: site.url });
  const doc = (await (await visitor.request.get(`/api/v1/leaderboard?version=${DEMO_VERSION}`)).json()) as {
    rows: { system: string; mode: string; chain: { value: number }; counts: { chains: number }; held_out: { chains: number; chain: { value: number; ci: [number, number] }; gap: { value: number; ci: [number, number] }; flagged: boolean } | null }[];
  };
  expect(doc.rows.length).toBeGreaterThan(0);
  for (const r of doc.rows) {
    expect(r.counts.chains, r.system).toBe(chains.length - HELD.length);
    expect(r.held_out?.chains, r.system).toBe(HELD.length);
    const h = r.held_out!;
    expect(h.chain.ci[0]).toBeLessThanOrEqual(h.chain.value);
    expect(h.chain.value).toBeLessThanOrEqual(h.chain.ci[1]);
    expect(h.gap.value).toBeCloseTo(r.chain.value - h.chain.value, 6);
    expect(h.flagged).toBe(h.gap.ci[0] > 0 || h.gap.ci[1] < 0);
  }
  const gold = doc.rows.find((r) => r.system === "demo-gold" && r.mode === "oracle")!;
  expect(gold.held_out).toEqual({ chains: 2, chain: { value: 100, ci: [100, 100] }, gap: { value: 0, ci: [0, 0] }, flagged: false });
  const csv = await (await visitor.request.get(`/api/v1/leaderboard?version=${DEMO_VERSION}&format=csv`)).text();
  expect(csv.split("\n")[0]).toContain("held_out_chain_pct,held_out_chain_ci_low,held_out_chain_ci_high,held_out_gap,held_out_gap_ci_low,held_out_gap_ci_high,held_out_gap_flagged");

  const page = await visitor.newPage();
  await page.goto(`/?version=${DEMO_VERSION}&cols=config,held_out,date,badges`);
  const header = page.getByRole("columnheader", { name: "Held-out chain %" });
  await expect(header).toBeVisible();
  const goldRow = page.locator("#leaderboard tbody tr").filter({ hasText: "demo-gold" }).first();
  await expect(goldRow).toContainText("gap ±0.0 [0.0, 0.0]");
  const flagged = doc.rows.filter((r) => r.held_out!.flagged).length;
  await expect(page.locator("#leaderboard .badge.lb-held_out_gap")).toHaveCount(flagged);
  await shot(page, "held-out-board");
});
