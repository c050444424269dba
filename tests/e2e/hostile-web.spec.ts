/**
 * Hostile web input against the real site: uploads over the
 * size limit and archives, malformed JSON bodies, HTML and script in every
 * name a team chooses and in a problem statement (shown as text on every page
 * that shows them), ids of another team's private submission answered exactly
 * like made-up ones. CSRF on every state-changing route is
 * tests/e2e/hostile-csrf.spec.ts, password guessing tests/e2e/signin-limit.spec.ts.
 */
import { readFileSync, truncateSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { expect, test, type APIRequestContext, type APIResponse } from "@playwright/test";
import { DEMO_VERSION } from "./site";
import { PASSWORD, createToken, shot, signUp } from "./steps";
import {
  CHAIN,
  GOLD_ORACLE,
  BUG_WHERE,
  bearer,
  captureAction,
  dbGet,
  dbRun,
  goldWithHostileFile,
  randomCuid,
  rawUpload,
  replayAction,
  reviewer,
  shownAsText,
  teamMember,
  trajectoriesArchive,
  upload,
  waitForStatus,
  type Actor,
} from "./hostile-steps";

const run = Date.now().toString(36);
let owner: Actor;
let stranger: Actor;
/** owner's completed, private Oracle submission of CHAIN */
let privateId: string;

test.beforeAll(async ({ browser }) => {
  test.setTimeout(8 * 60_000);
  owner = await teamMember(browser, `hw-owner-${run}`, `HW owners ${run}`);
  stranger = await teamMember(browser, `hw-stranger-${run}`, `HW strangers ${run}`);
  // with a trajectory, so the trajectory route is among those asked with a real id
  privateId = await upload(owner.page.request, owner, { trajectories: await trajectoriesArchive({ [`${CHAIN}/1.log`]: "##[chainswe] step Look\n" }) });
  await waitForStatus(owner.page.request, owner.token, privateId, "completed");
});

test.afterAll(async () => {
  await owner?.context.close();
  await stranger?.context.close();
});

/** How many submissions the owner's team has (as the API lists them). */
async function ownerSubmissions(): Promise<number> {
  const res = await owner.page.request.get(`/api/v1/submissions?team=${owner.slug}&limit=200`, { headers: bearer(owner.token) });
  return ((await res.json()) as { items: unknown[] }).items.length;
}

const visibilityOf = async (id: string) =>
  ((await (await owner.page.request.get(`/api/v1/submissions/${id}`, { headers: bearer(owner.token) })).json()) as { visibility: string }).visibility;

test("an upload over the size limit is refused with 413 and a clear message, through the API and the web form, storing nothing", async ({}, info) => {
  const before = await ownerSubmissions();
  const refusal = { error: "the file is larger than the 100 MB limit", field: "predictions" };
  // its length declared up front: refused before the body is read
  const declared = await rawUpload({ token: owner.token, system: owner.system, megabytes: 150, declareLength: true });
  expect(declared.status).toBe(413);
  expect(JSON.parse(declared.body)).toEqual(refusal);
  expect(declared.sentMB).toBeLessThan(50);
  // chunked, no length: refused as soon as the count crosses the limit, and the client still reads why
  const streamed = await rawUpload({ token: owner.token, system: owner.system, megabytes: 150, declareLength: false });
  expect(streamed.status).toBe(413);
  expect(JSON.parse(streamed.body)).toEqual(refusal);
  expect(streamed.sentMB).toBeLessThan(130);

  // the web form refuses the file before sending it, saying by how much
  const big = info.outputPath("big.jsonl");
  writeFileSync(big, "");
  truncateSync(big, 101 * 1024 * 1024); // sparse: nothing is written to disk
  const page = owner.page;
  await page.goto("/submit");
  const uploads: string[] = [];
  page.on("request", (r) => r.url().includes("/api/v1/submissions") && r.method() === "POST" && uploads.push(r.url()));
  await page.getByLabel("Predictions file").setInputFiles(big);
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page.getByText("The file is 101 MB, over the 100 MB limit.")).toBeVisible();
  expect(uploads).toEqual([]);
  // the page's session posting the file anyway (same origin, as the form does) gets the server's 413
  const answer = await page.evaluate(async (system) => {
    const body = new FormData();
    for (const [k, v] of Object.entries({ system, dataset_version: "demo", mode: "oracle" })) body.append(k, v);
    body.append("predictions", new Blob([new Uint8Array(101 * 1024 * 1024)]), "big.jsonl");
    const res = await fetch("/api/v1/submissions", { method: "POST", body });
    return { status: res.status, body: (await res.json()) as unknown };
  }, owner.system);
  expect(answer).toEqual({ status: 413, body: refusal });
  expect(await ownerSubmissions()).toBe(before);
});

test("an archive (gzip, zip) is refused by name and never unpacked; nothing is stored", async ({ request }) => {
  const before = await ownerSubmissions();
  const gold = readFileSync(GOLD_ORACLE);
  const files = [
    { name: "preds.jsonl.gz", buffer: gzipSync(gold), kind: "gzip" },
    { name: "preds.zip", buffer: Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), gold]), kind: "zip" },
  ];
  for (const f of files) {
    const res = await request.post("/api/v1/submissions", {
      headers: bearer(owner.token),
      multipart: { system: owner.system, dataset_version: DEMO_VERSION, mode: "oracle", predictions: { name: f.name, mimeType: "application/octet-stream", buffer: f.buffer } },
    });
    expect(res.status()).toBe(400);
    expect(await res.json()).toEqual({
      field: "predictions",
      error: `predictions: ${f.name} is a ${f.kind} file; archives and compressed files are not accepted: upload the JSON Lines file itself, one prediction per line`,
    });
  }
  // the web form shows the refusal beside the file field
  await owner.page.goto("/submit");
  await owner.page.getByLabel("Mode").selectOption("oracle");
  await owner.page.getByLabel("Predictions file").setInputFiles({ name: "preds.jsonl.gz", mimeType: "application/gzip", buffer: files[0]!.buffer });
  await owner.page.getByRole("button", { name: "Submit" }).click();
  await expect(owner.page.getByText("preds.jsonl.gz is a gzip file; archives and compressed files are not accepted")).toBeVisible();
  expect(await ownerSubmissions()).toBe(before);
});

test("malformed and hostile bodies on the JSON routes: 400 or 413 naming the problem, and nothing changes", async ({ request, baseURL }) => {
  const before = await ownerSubmissions();
  const raw = (body: string, type = "application/json") => ({ headers: { ...bearer(owner.token), "content-type": type }, data: Buffer.from(body) });
  const publication = `/api/v1/submissions/${privateId}/publication`;
  const cases: { body: string; type?: string; status: number; field: string; error: RegExp }[] = [
    { body: '{"action": "request_publication"', status: 400, field: "body", error: /^body: malformed JSON \(.+\); send JSON such as \{"action": "request_publication"\}$/ },
    { body: "", status: 400, field: "body", error: /^body: empty;/ },
    { body: "[]", status: 400, field: "body", error: /^body: .*send an object/ },
    { body: '"request_publication"', status: 400, field: "body", error: /send an object/ },
    { body: "null", status: 400, field: "body", error: /send an object/ },
    { body: '{"action": "explode"}', status: 400, field: "action", error: /^action: / },
    { body: '{"action": {"$ne": null}}', status: 400, field: "action", error: /^action: / },
    { body: `{"action": "reject", "reason": "${"x".repeat(3000)}"}`, status: 400, field: "reason", error: /at most 2000 characters/ },
    { body: "{<script>}", type: "text/plain", status: 400, field: "body", error: /malformed JSON/ },
    { body: `{"action": "request_publication", "pad": "${"x".repeat(20_000)}"}`, status: 413, field: "body", error: /^body: larger than the 16 KB limit$/ },
  ];
  for (const c of cases) {
    const res = await request.post(publication, raw(c.body, c.type));
    expect(res.status(), c.body.slice(0, 40)).toBe(c.status);
    const answer = (await res.json()) as { error: string; field: string };
    expect(answer.field, c.body.slice(0, 40)).toBe(c.field);
    expect(answer.error).toMatch(c.error);
  }
  expect(await visibilityOf(privateId)).toBe("private");

  // the upload route: not multipart, bad metadata JSON, an unknown field, a broken multipart body
  const form = (fields: Record<string, string>) => ({
    headers: bearer(owner.token),
    multipart: { system: owner.system, dataset_version: DEMO_VERSION, mode: "oracle", ...fields, predictions: { name: "p.jsonl", mimeType: "application/x-ndjson", buffer: Buffer.from("{}\n") } },
  });
  const uploads: [Promise<APIResponse>, string, RegExp][] = [
    [request.post("/api/v1/submissions", raw(`{"system": "${owner.system}", "mode": "oracle"}`)), "predictions", /send multipart\/form-data/],
    [request.post("/api/v1/submissions", form({ metadata: "{oops" })), "metadata", /not JSON/],
    [request.post("/api/v1/submissions", form({ metadata: '["a"]' })), "metadata", /^metadata: /],
    [request.post("/api/v1/submissions", form({ metadata: '{"nested": {"a": 1}}' })), "metadata", /^metadata: /],
    [request.post("/api/v1/submissions", form({ evil: "<script>" })), "evil", /unknown field/],
    [request.post("/api/v1/submissions", raw("--B\r\nnot a part at all", "multipart/form-data; boundary=B")), "", /./],
  ];
  for (const [pending, field, error] of uploads) {
    const res = await pending;
    expect(res.status()).toBe(400);
    const answer = (await res.json()) as { error: string; field?: string };
    if (field) expect(answer.field).toBe(field);
    expect(answer.error).toMatch(error);
  }
  expect(await ownerSubmissions()).toBe(before);

  // next-auth's credentials callback, sent malformed JSON from this site: 400, not next-auth's 500
  const signInRes = await request.post("/api/auth/callback/credentials", { headers: { origin: baseURL!, "content-type": "application/json" }, data: Buffer.from("{oops") });
  expect(signInRes.status()).toBe(400);
  expect(((await signInRes.json()) as { error: string }).error).toMatch(/^body: malformed JSON/);
});

// ---------------------------------------------------------------- HTML in names

test("HTML and script in team, system, model, scaffold, configuration, display name, metadata and problem statement are shown as text on every page", async ({ browser }) => {
  test.setTimeout(8 * 60_000);
  const N = {
    display: `<img src=x onerror="window.__hw=1">Hostile ${run}`,
    team: `<script>window.__hw=2</script><b>T ${run}</b>`,
    system: `<img src=x onerror="window.__hw=3"><i>sys</i>`,
    model: `</script><script>window.__hw=4</script>m-${run}`,
    /** also a spreadsheet formula, for the CSV export */
    scaffold: `=HYPERLINK("https://evil.example/","x")<svg onload="window.__hw=5">scaffold</svg>`,
    config: `"><iframe src="javascript:window.__hw=6"></iframe>`,
    notes: `<script>window.__hw=7</script>notes`,
    link: `<a href="javascript:window.__hw=8">docs</a>`,
    statement: `Crash on <script>window.__hw=9</script> and <b>not bold</b> & "quoted"`,
    /** a file the agent's patch adds (its name shows in the test log) and its one line */
    file: `<img src=x onerror=window.__hw=11>.txt`,
    line: `<script>window.__hw=12</script>`,
  };
  const dialogs: string[] = [];
  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  const page = await context.newPage();
  page.on("dialog", (d) => void (dialogs.push(d.message()), d.dismiss()));

  // a username is letters, digits, - and _ only: HTML there is refused at sign-up
  await page.goto("/signup");
  await page.getByLabel("Username").fill("<b>x</b>");
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText("3 to 32 letters, digits, - or _, starting with a letter or digit").last()).toBeVisible();
  await expect(page).toHaveURL(/\/signup$/);

  await page.getByLabel("Username").fill(`hw-html-${run}`);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByLabel("Display name (optional)").fill(N.display);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/teams$/);
  await page.getByLabel("Team name").fill(N.team);
  await page.getByRole("button", { name: "Create team" }).click();
  await expect(page.getByRole("heading", { name: N.team })).toBeVisible();
  const teamPath = new URL(page.url()).pathname;
  await page.getByLabel("System name").fill(N.system);
  await page.getByLabel("Model").fill(N.model);
  await page.getByLabel("Scaffold").fill(N.scaffold);
  await page.getByLabel("Context configuration").fill(N.config);
  await page.getByLabel("Links").fill(`javascript:window.__hw=10`);
  await page.getByRole("button", { name: "Create system" }).click();
  await expect(page.getByText("not an http(s) URL")).toBeVisible(); // a javascript: link is refused
  await page.getByLabel("Links").fill(`${N.link} https://example.org/?q=%3Cscript%3E`);
  await page.getByRole("button", { name: "Create system" }).click();
  await expect(page.getByRole("cell", { name: N.model })).toBeVisible();
  await shownAsText(page, teamPath, [N.team, N.system, N.model, N.scaffold, N.config, N.link, N.display]);

  const token = await createToken(page, "html", ["submit", "read"]);
  const slug = teamPath.split("/").pop()!;
  const actor = { token, system: `${slug}/${N.system}` };
  const id = await upload(page.request, actor, { metadata: { notes: N.notes, "<b>key</b>": "v" }, predictions: goldWithHostileFile(N.file, N.line) });
  await waitForStatus(page.request, token, id, "completed");
  const rev = await reviewer(browser, `hw-rev-${run}`);
  const restore: { statement?: string } = {};
  try {
    expect((await page.request.post(`/api/v1/submissions/${id}/publication`, { headers: bearer(token), data: { action: "request_publication" } })).status()).toBe(200);
    await shownAsText(rev.page, "/review", [N.system, N.team]);
    await shownAsText(rev.page, "/admin", [N.display]);
    expect((await rev.page.request.post(`/api/v1/submissions/${id}/publication`, { headers: bearer(rev.token), data: { action: "approve" } })).status()).toBe(200);

    // the problem statement of the graded bug, for the failure page (put back afterwards)
    restore.statement = dbGet<{ problemStatement: string }>(`SELECT problemStatement FROM Bug WHERE ${BUG_WHERE}`, CHAIN, DEMO_VERSION)!.problemStatement;
    dbRun(`UPDATE Bug SET problemStatement = ? WHERE ${BUG_WHERE}`, N.statement, CHAIN, DEMO_VERSION);

    const visitor = await (await browser.newContext({ baseURL: process.env.E2E_BASE_URL })).newPage();
    visitor.on("dialog", (d) => void (dialogs.push(d.message()), d.dismiss()));
    // the Scaffold column is chosen (it is not among the default columns)
    await shownAsText(visitor, `/?version=${DEMO_VERSION}&mode=oracle&cols=scaffold,config,cost,peak_context,date,badges`, [N.system, N.model, N.scaffold, N.config, N.team]);
    const csv = await (await visitor.request.get(`/api/v1/leaderboard?version=${DEMO_VERSION}&mode=oracle&format=csv`)).text();
    expect(csv).toContain(`"'=HYPERLINK(""https://evil.example/"",""x"")<svg onload=""window.__hw=5"">scaffold</svg>"`);
    await shownAsText(visitor, "/submissions", [N.system, N.team]);
    await shownAsText(visitor, `/submissions/${id}`, [N.system, N.model, N.scaffold, N.config, N.notes, "<b>key</b>"]);
    await shownAsText(visitor, `/submissions/${id}/chains/${CHAIN}/bugs/1`, [N.system, N.model, N.team]);
    await visitor.getByText("Problem statement").first().click();
    await expect(visitor.getByTestId("problem-statement")).toContainText(N.statement);
    await expect(visitor.getByTestId("problem-statement").locator("script, b")).toHaveCount(0);
    await shownAsText(visitor, `/submissions/${id}/chains/${CHAIN}/bugs/1/log`, [`Checking patch ${N.file}`]);
    // the agent's patch, shown to the team
    await shownAsText(page, `/submissions/${id}/chains/${CHAIN}/bugs/1`, [N.file, N.line]);
    await shownAsText(visitor, `/dataset/${DEMO_VERSION}/chains/${CHAIN}`, []);
    await shownAsText(visitor, teamPath, [N.team, N.system, N.model, N.link]);
    await shownAsText(visitor, `/positions?version=${DEMO_VERSION}`, []);
    await shownAsText(visitor, `/compare?version=${DEMO_VERSION}&a=${id}`, [N.system]);
    await shot(visitor, "hostile-names-compare");
    await shownAsText(page, "/submit", [N.system]);
    expect(dialogs).toEqual([]);
  } finally {
    // off the leaderboard again, and the demo's statement back: the other specs share this database
    await page.request.post(`/api/v1/submissions/${id}/publication`, { headers: bearer(token), data: { action: "withdraw" } });
    if (restore.statement !== undefined) dbRun(`UPDATE Bug SET problemStatement = ? WHERE ${BUG_WHERE}`, restore.statement, CHAIN, DEMO_VERSION);
    await rev.context.close();
    await context.close();
  }
});

// ---------------------------------------------------------------- ids

type Asker = { name: string; request: () => APIRequestContext; headers: Record<string, string> };
type IdRoute = { name: string; secret: () => string; send: (r: APIRequestContext, id: string, headers: Record<string, string>) => Promise<APIResponse> };

const get = (path: (id: string) => string) => (r: APIRequestContext, id: string, headers: Record<string, string>) => r.get(path(id), { headers, maxRedirects: 0 });
const post = (path: (id: string) => string, data?: object) => (r: APIRequestContext, id: string, headers: Record<string, string>) =>
  r.post(path(id), { headers, data, maxRedirects: 0 });
let ownerSystemId: string;
const sub = () => privateId;

/** Every route that takes an id of something private to a team. */
const ID_ROUTES: IdRoute[] = [
  { name: "page /submissions/[id]", secret: sub, send: get((id) => `/submissions/${id}`) },
  { name: "failure page", secret: sub, send: get((id) => `/submissions/${id}/chains/${CHAIN}/bugs/1`) },
  { name: "log page", secret: sub, send: get((id) => `/submissions/${id}/chains/${CHAIN}/bugs/1/log`) },
  { name: "GET /api/v1/submissions/[id]", secret: sub, send: get((id) => `/api/v1/submissions/${id}`) },
  { name: "results.jsonl", secret: sub, send: get((id) => `/api/v1/submissions/${id}/results.jsonl`) },
  { name: "predictions.jsonl", secret: sub, send: get((id) => `/api/v1/submissions/${id}/predictions.jsonl`) },
  { name: "API log", secret: sub, send: get((id) => `/api/v1/submissions/${id}/logs/${CHAIN}/1?download=1`) },
  { name: "API trajectory", secret: sub, send: get((id) => `/api/v1/submissions/${id}/trajectories/${CHAIN}/1`) },
  { name: "compare API", secret: sub, send: get((id) => `/api/v1/compare?a=${id}&b=${id}&table=difference`) },
  { name: "POST cancel", secret: sub, send: post((id) => `/api/v1/submissions/${id}/cancel`) },
  { name: "POST publication", secret: sub, send: post((id) => `/api/v1/submissions/${id}/publication`, { action: "request_publication" }) },
  { name: "POST rerun", secret: sub, send: post((id) => `/api/v1/submissions/${id}/rerun`) },
  { name: "list filtered by a system id", secret: () => ownerSystemId, send: get((id) => `/api/v1/submissions?system=${id}`) },
];

test("another team's private submission (or system) id is answered exactly like a made-up one, on every route that takes an id", async ({ playwright, baseURL }) => {
  const listed = (await (await owner.page.request.get(`/api/v1/submissions?team=${owner.slug}`, { headers: bearer(owner.token) })).json()) as { items: { system: { id: string } }[] };
  ownerSystemId = listed.items[0]!.system.id;
  const visitor = await playwright.request.newContext({ baseURL });
  const askers: Asker[] = [
    { name: "another team (session)", request: () => stranger.page.request, headers: { origin: baseURL! } },
    { name: "another team (token)", request: () => visitor, headers: bearer(stranger.token) },
    { name: "a visitor", request: () => visitor, headers: { origin: baseURL! } },
  ];
  // the ids are real: the owner reads each GET route
  for (const route of ID_ROUTES.filter((r) => !r.name.startsWith("POST"))) {
    const res = await route.send(owner.page.request, route.secret(), {});
    expect(res.status(), `owner: ${route.name}`).toBe(200);
  }
  const made = randomCuid();
  for (const asker of askers) {
    for (const route of ID_ROUTES) {
      const secret = route.secret();
      const [real, fake] = [await route.send(asker.request(), secret, asker.headers), await route.send(asker.request(), made, asker.headers)];
      const what = `${asker.name}: ${route.name}`;
      expect(real.status(), what).toBe(fake.status());
      expect([404, 401, 200], what).toContain(real.status());
      if (route.name.startsWith("POST") && asker.name !== "a visitor") expect(real.status(), what).toBe(404);
      if (!route.name.startsWith("list") && !route.name.startsWith("POST")) expect(real.status(), what).toBe(404);
      // a page's 404 streams the same rows, but in an order that depends on timing: compared as a set of rows
      const normal = async (r: APIResponse, id: string) => {
        const text = (await r.text()).replaceAll(id, "<id>");
        return r.headers()["content-type"]?.startsWith("text/html") ? text.split("\\n").sort().join("\n") : text;
      };
      expect(await normal(real, secret), what).toBe(await normal(fake, made));
    }
  }

  // a server action takes its id from the page (bound in the browser): the owner's real request, replayed by
  // the other team with the id as it is or made up, is answered alike and does nothing
  await owner.page.goto(`/submissions/${privateId}`);
  const action = await captureAction(owner.page, () => owner.page.getByRole("button", { name: "Request publication" }).click());
  expect(action.body.toString("latin1")).toContain(privateId);
  const forged = { ...action, body: Buffer.from(action.body.toString("latin1").replaceAll(privateId, made), "latin1") };
  const [realAction, fakeAction] = [await replayAction(stranger.context, action, { origin: baseURL! }), await replayAction(stranger.context, forged, { origin: baseURL! })];
  expect(realAction.status()).toBe(200);
  const actionText = (await realAction.text()).replaceAll(privateId, "<id>");
  expect(actionText).toContain('"status":"error","message":"submission not found"');
  expect(actionText).toBe((await fakeAction.text()).replaceAll(made, "<id>"));

  // public by design: a team's page (its systems, not its members) and the dataset; an unknown slug or chain is 404
  await stranger.page.goto(`/teams/${owner.slug}`);
  await expect(stranger.page.getByText("The member list is shown to the team's members.")).toBeVisible();
  await expect(stranger.page.getByText(owner.username, { exact: true })).toHaveCount(0);
  expect((await visitor.get(`/teams/no-such-team-${run}`)).status()).toBe(404);
  expect((await visitor.get(`/dataset/${DEMO_VERSION}/chains/no-such-chain-${run}`)).status()).toBe(404);
  expect((await visitor.get(`/api/v1/dataset/${DEMO_VERSION}/chains/no-such-chain-${run}`)).status()).toBe(404);

  // nothing was changed by any of it
  expect(await visibilityOf(privateId)).toBe("private");
  await visitor.dispose();
});

test("no one is put in a team without consent: an admin's invitation waits until its invitee accepts, and can be declined or withdrawn", async ({ browser }) => {
  const invitee = `hw-invitee-${run}`;
  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  const page = await context.newPage();
  await signUp(page, invitee);
  const memberCount = () => dbGet<{ n: number }>(`SELECT count(*) AS n FROM TeamMember m JOIN User u ON u.id = m.userId WHERE u.username = ?`, invitee)!.n;
  const invite = async () => {
    await owner.page.goto(`/teams/${owner.slug}`);
    await owner.page.getByLabel("Username").fill(invitee);
    await owner.page.getByRole("button", { name: "Send invitation" }).click();
    await expect(owner.page.getByRole("status")).toHaveText(`${invitee} is invited: they join when they accept.`);
  };
  const accept = page.getByRole("button", { name: `Accept the invitation to HW owners ${run}` });
  try {
    await invite();
    // an open invitation, not a member: the admin sees it apart from the members, the invitee sees no member list yet
    const invitations = owner.page.locator("table", { has: owner.page.getByRole("columnheader", { name: "Role offered" }) });
    await expect(invitations.getByRole("rowheader", { name: invitee })).toBeVisible();
    expect(memberCount()).toBe(0);
    await page.goto(`/teams/${owner.slug}`);
    await expect(page.getByText("The member list is shown to the team's members.")).toBeVisible();

    // declined: gone, still not a member
    await page.goto("/teams");
    await page.getByRole("button", { name: `Decline the invitation to HW owners ${run}` }).click();
    await expect(accept).toHaveCount(0);
    expect(memberCount()).toBe(0);

    // withdrawn before the invitee answers: the invitee can no longer accept it
    await invite();
    await page.goto("/teams");
    await expect(accept).toBeVisible();
    await owner.page.getByRole("button", { name: `Withdraw the invitation of ${invitee}` }).click();
    await expect(owner.page.getByRole("button", { name: `Withdraw the invitation of ${invitee}` })).toHaveCount(0);
    await accept.click();
    await expect(page.getByRole("alert").filter({ hasText: "invitation not found" })).toBeVisible();
    expect(memberCount()).toBe(0);

    // accepted: a member, with the team's page open
    await invite();
    await page.goto("/teams");
    await accept.click();
    await expect(page).toHaveURL(new RegExp(`/teams/${owner.slug}$`));
    await expect(page.getByRole("rowheader", { name: `${invitee} (you)` })).toBeVisible();
    expect(memberCount()).toBe(1);
  } finally {
    await context.close();
  }
});

test("ids are cuids: not sequential, and a neighbour of a real id names nothing", async ({ request }) => {
  const ids = [await upload(request, owner), await upload(request, owner)];
  for (const id of ids) expect((await request.post(`/api/v1/submissions/${id}/cancel`, { headers: bearer(owner.token) })).status()).toBe(200);
  const [a, b] = ids as [string, string];
  for (const id of [...ids, privateId]) expect(id).toMatch(/^c[a-z0-9]{24}$/);
  // cuid: time, a counter, a host fingerprint, then 8 random characters, which differ between two ids made back to back
  expect(a.slice(-8)).not.toBe(b.slice(-8));
  const next = (id: string) => ([...id.slice(1)].reduce((n, c) => n * 36n + BigInt(parseInt(c, 36)), 0n) + 1n).toString(36).padStart(24, "0");
  expect(`c${next(a)}`).not.toBe(b);
  expect((await request.get(`/api/v1/submissions/c${next(a)}`, { headers: bearer(owner.token) })).status()).toBe(404);
});
