/**
 * Against the real site: the open redirect after sign-in, the security
 * headers, the full-origin CSRF check, sessions, sign-up rules, and the
 * requests that must get a 4xx rather than a 500. Separation of duties and
 * the upload stall are covered where they are decided (lib/submissions/visibility.test.ts,
 * lib/submissions/review.test.ts, lib/submissions/predictions-off-thread.test.ts).
 */
import { expect, test, type APIResponse } from "@playwright/test";
import { request as httpRequest } from "node:http";
import { captureAction, dbGet } from "./hostile-steps";
import { freshDatabase, startSite } from "./site";
import { PASSWORD, signIn, signUp } from "./steps";

const run = Date.now().toString(36);

/**
 * A request sent as written: Playwright's client resolves "." and ".." in a
 * path before sending, as browsers do; a hostile client does not.
 */
function rawRequest(baseURL: string, method: string, path: string, headers: Record<string, string>, body = ""): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(baseURL);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: hostname, port, method, path, headers: { ...headers, "content-length": String(Buffer.byteLength(body)) } }, (res) => {
      let text = "";
      res.on("data", (c: Buffer) => (text += c.toString()));
      res.on("end", () => resolve({ status: res.statusCode!, body: text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}
const EVIL = ["/%09/evil.example:3000/pwned", "/%0A/evil.example/pwned", "/%0D%0A/evil.example", "//evil.example", "/%5Cevil.example"];

test("a sign-in link cannot send the browser to another site, however the path is disguised", async ({ page, baseURL }) => {
  const username = `sec-redirect-${run}`;
  await signUp(page, username);
  // signed in: the page answers a redirect at once, and only to this site
  for (const callback of EVIL) {
    const res = await page.request.get(`/signin?callbackUrl=${callback}`, { maxRedirects: 0 });
    expect(res.status(), callback).toBe(307);
    const location = new URL(res.headers()["location"]!, baseURL);
    expect(location.origin, callback).toBe(new URL(baseURL!).origin);
  }
  // signed out: the form's redirect after signing in stays on the site too
  await page.context().clearCookies();
  await page.goto(`/signin?callbackUrl=${EVIL[0]}`);
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByRole("link", { name: username })).toBeVisible();
  expect(new URL(page.url()).origin).toBe(new URL(baseURL!).origin);
});

test("every page carries the security headers and no X-Powered-By", async ({ request }) => {
  for (const path of ["/", "/signin", "/api/v1/leaderboard"]) {
    const headers = (await request.get(path)).headers();
    expect(headers["content-security-policy"], path).toContain("frame-ancestors 'none'");
    expect(headers["x-content-type-options"], path).toBe("nosniff");
    expect(headers["referrer-policy"], path).toBe("strict-origin-when-cross-origin");
    expect(headers["x-powered-by"], path).toBeUndefined();
  }
});

test("a POST whose Origin differs in scheme or comes through a forged X-Forwarded-Host is refused", async ({ request, baseURL }) => {
  const site = new URL(baseURL!);
  const forged: Record<string, string>[] = [
    { origin: `https://${site.host}` },
    { origin: "http://evil.example", "x-forwarded-host": "evil.example" },
  ];
  for (const headers of forged) {
    const res = await request.post("/teams", { headers, data: "x" });
    expect(res.status(), JSON.stringify(headers)).toBe(403);
  }
});

test("an Authorization header switches no origin check off: a page post or a sign-in with one and no Origin, or another scheme, is refused", async ({ request, baseURL }) => {
  const site = new URL(baseURL!);
  const forged: Record<string, string>[] = [
    { authorization: "Bearer csw_anything" },
    { authorization: "Basic eDp5", origin: `https://${site.host}` },
    { authorization: "Bearer csw_anything", origin: "https://evil.example" },
  ];
  for (const headers of forged) {
    for (const path of ["/teams", "/api/auth/signin/credentials", "/api/auth/signout"]) {
      const res = await request.post(path, { headers, form: { x: "1" }, maxRedirects: 0 });
      expect(res.status(), `${path} ${JSON.stringify(headers)}`).toBe(403);
      expect(((await res.json()) as { error: string }).error).toMatch(/^cross-site request refused/);
    }
  }
});

test("a path through /api/.. or /_next/.. is the page it reaches, behind the same gate: refused cross-site, a bad body 400, never 500", async ({ baseURL }) => {
  for (const path of ["/api/../teams", "/_next/../teams", "/api/%2e%2e/signup", "/_next/static/../../teams"]) {
    const crossSite = await rawRequest(baseURL!, "POST", path, { "content-type": "text/plain", "next-action": "0".repeat(42) }, "x");
    expect(crossSite.status, `${path} without an Origin`).toBe(403);
    const badBody = await rawRequest(baseURL!, "POST", path, { origin: baseURL!, "content-type": "text/plain", "next-action": "0".repeat(42) }, "[{");
    expect(badBody.status, `${path} with a bad body: ${badBody.body.slice(0, 200)}`).toBe(400);
    expect(JSON.parse(badBody.body)).toEqual({ error: "malformed form submission: expected a form (multipart/form-data or application/x-www-form-urlencoded), got text/plain" });
  }
  // a request naming a server action is a page post wherever it is sent: Next.js finds the action by the header
  for (const path of ["/api/v1/dataset", "/_next/static/x.js", "/api/auth/session"]) {
    for (const method of ["POST", "PUT"]) {
      const crossSite = await rawRequest(baseURL!, method, path, { "content-type": "text/plain", "next-action": "0".repeat(42) }, "x");
      expect(crossSite.status, `${method} ${path} naming an action without an Origin`).toBe(403);
      const badBody = await rawRequest(baseURL!, method, path, { origin: baseURL!, "content-type": "text/plain", "next-action": "0".repeat(42) }, "[{");
      expect(badBody.status, `${method} ${path} naming an action, with a bad body`).toBe(400);
    }
  }
  // and a read there is the page, as a browser would have asked for it
  const page = await rawRequest(baseURL!, "GET", "/api/../signup", {});
  expect(page.status).toBe(200);
  expect(page.body).toContain("Create account");
});

test("a callbackUrl next-auth cannot read is a 400 naming it, on every method, never a 500", async ({ request, baseURL }) => {
  const bad = encodeURIComponent("http://localhost:3000.evil.example/");
  const sent: [string, Promise<APIResponse>, string][] = [
    ["session, query", request.get(`/api/auth/session?callbackUrl=${bad}`), "callbackUrl: not a path on this site nor an http(s) URL"],
    ["providers, query", request.get(`/api/auth/providers?callbackUrl=javascript:alert(1)`), "callbackUrl: not a path on this site nor an http(s) URL"],
    ["session, repeated", request.get(`/api/auth/session?callbackUrl=/teams&callbackUrl=/admin`), "callbackUrl: given more than once"],
    ["sign-in page, query", request.get(`/api/auth/signin?callbackUrl=${bad}`, { maxRedirects: 0 }), "callbackUrl: not a path on this site nor an http(s) URL"],
    ["sign-in post, query", request.post(`/api/auth/signin/credentials?callbackUrl=${bad}`, { headers: { origin: baseURL! }, form: { username: "x", password: "y" } }), "callbackUrl: not a path on this site nor an http(s) URL"],
    ["session, cookie", request.get("/api/auth/session", { headers: { cookie: `next-auth.callback-url=${bad}` } }), "cookie next-auth.callback-url: not a path on this site nor an http(s) URL"],
  ];
  for (const [what, res, error] of sent) {
    const answer = await res;
    expect(answer.status(), what).toBe(400);
    expect(((await answer.json()) as { error: string }).error, what).toBe(error);
  }
  // a readable one still works (and is kept on the site by the redirect callback)
  expect((await request.get("/api/auth/session?callbackUrl=/teams")).status()).toBe(200);
});

test("changing the password signs out the user's other sessions, keeps this one, and the new password signs in", async ({ browser, baseURL }) => {
  const username = `hs-pwchange-${run}`;
  const here = await browser.newContext({ baseURL });
  const page = await here.newPage();
  await signUp(page, username);
  const elsewhere = await browser.newContext({ baseURL });
  const other = await elsewhere.newPage();
  await signIn(other, username);
  const signedIn = async (p: typeof page) => !!((await (await p.request.get("/api/auth/session")).json()) as { userId?: string }).userId;
  expect(await signedIn(other)).toBe(true);

  await page.goto("/account");
  const change = async (current: string, next: string) => {
    await page.getByLabel("Current password").fill(current);
    await page.getByLabel("New password").fill(next);
    await page.getByRole("button", { name: "Change password" }).click();
  };
  await change(PASSWORD, "Summer2024!");
  await expect(page.getByText(/^is too easy to guess/)).toBeVisible();
  await change("not my password", `${PASSWORD} staple`);
  await expect(page.getByText("is not your current password")).toBeVisible();
  expect(await signedIn(other)).toBe(true);

  await change(PASSWORD, `${PASSWORD} staple`);
  await expect(page.getByRole("status")).toHaveText("Password changed; 1 other session was signed out.");
  expect(await signedIn(page)).toBe(true);
  expect(await signedIn(other)).toBe(false);
  await elsewhere.close();

  const later = await browser.newContext({ baseURL });
  const again = await later.newPage();
  await again.goto("/signin");
  await again.getByLabel("Username").fill(username);
  await again.getByLabel("Password").fill(`${PASSWORD} staple`);
  await again.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(again.getByRole("link", { name: username })).toBeVisible();
  await later.close();
  await here.close();
});

test("HSTS: sent on every answer when the site says it is served over https (CHAINSWE_HSTS=1), and not otherwise", async ({ request }) => {
  for (const path of ["/", "/api/v1/leaderboard"]) expect((await request.get(path)).headers()["strict-transport-security"], path).toBeUndefined();
  const { url: dbUrl } = freshDatabase("hsts");
  const site = await startSite({ dbUrl, port: Number(process.env.CHAINSWE_E2E_PORT ?? 3210) + 7, env: { CHAINSWE_HSTS: "1" } });
  try {
    const answers = [
      await fetch(`${site.url}/`),
      await fetch(`${site.url}/api/v1/leaderboard`),
      // refused by the site's own gate
      await fetch(`${site.url}/teams/%ff`),
      await fetch(`${site.url}/teams`, { method: "POST", body: "x" }),
    ];
    for (const res of answers) expect(res.headers.get("strict-transport-security"), res.url).toBe("max-age=31536000");
  } finally {
    await site.stop();
  }
});

test("sign-out ends the session on the server: the old cookie no longer signs anyone in", async ({ browser, baseURL }) => {
  const username = `hs-out-${run}`;
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await signUp(page, username);
  const cookies = await context.cookies();
  expect(((await (await page.request.get("/api/auth/session")).json()) as { userId?: string }).userId).toBeTruthy();
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("link", { name: "Sign in" })).toBeVisible();
  await context.close();

  // a copy of the cookie taken before sign-out, replayed from elsewhere
  const replay = await browser.newContext({ baseURL });
  await replay.addCookies(cookies);
  const again = await replay.newPage();
  expect(((await (await again.request.get("/api/auth/session")).json()) as { userId?: string }).userId).toBeUndefined();
  await again.goto("/teams");
  await expect(again.getByRole("link", { name: username })).toHaveCount(0);
  await replay.close();
});

test("sign-up refuses the username and guessable passwords as the password, and asks for no email", async ({ page }) => {
  const username = `hs-pw-${run}`;
  await page.goto("/signup");
  await expect(page.getByLabel(/email/i)).toHaveCount(0);
  const attempt = async (password: string) => {
    await page.getByLabel("Username").fill(username);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Create account" }).click();
  };
  await attempt(`${username}-2026`);
  await expect(page.getByText("must not contain the username")).toBeVisible();
  for (const guessable of ["qwertyuiop", "zzzzzzzzzz", "abcdefghij", "P@ssw0rd123", "Summer2024!"]) {
    await page.goto("/signup");
    await attempt(guessable);
    await expect(page.getByText(/^is too easy to guess/), guessable).toBeVisible();
  }
  await expect(page).toHaveURL(/\/signup/);
  await attempt(PASSWORD);
  await expect(page).toHaveURL(/\/teams$/);
});

test("no bad address or form body answers 500: each gets a 4xx naming the problem, and nothing is created", async ({ page, request, baseURL }) => {
  for (const path of ["/api/v1/submissions/%ff%fe", "/submissions/%ff", "/teams/%c0%af", "/api/auth/%ff", "/dataset/%e2%82"]) {
    const res = await request.get(path);
    expect(res.status(), path).toBe(400);
    expect(await res.json(), path).toEqual({ error: "the address has a %-escape that is not UTF-8" });
  }

  // the browser's own sign-up request, caught before delivery, then sent again altered
  const username = `sec-body-${run}`;
  await page.goto("/signup");
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill(`${PASSWORD}-body`);
  const action = await captureAction(page, () => page.getByRole("button", { name: "Create account" }).click());
  const boundary = /boundary=(.+)$/.exec(action.headers["content-type"]!)![1]!;
  const field = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const form = (args: string, username: string) => Buffer.from(`${field("0", args)}${field("1_username", username)}${field("1_password", `${PASSWORD}-body`)}--${boundary}--\r\n`);
  const send = (body: Buffer, contentType = action.headers["content-type"]!) =>
    request.post("/signup", { headers: { "next-action": action.headers["next-action"]!, "content-type": contentType, origin: baseURL! }, data: body, maxRedirects: 0 });
  const users = () => dbGet<{ n: number }>(`SELECT count(*) AS n FROM User WHERE username LIKE ?`, `sec-body-${run}%`)!.n;

  const forged: [string, Promise<APIResponse>, number, string][] = [
    ["a 3 MB username", send(form('[{"status":"idle"},"$K1"]', "u".repeat(3 * 1024 * 1024))), 413, "the form is larger than the 1 MB limit"],
    ["a body that is not a form", send(Buffer.from('[{"status":"idle"},"$K1"]'), "text/plain;charset=UTF-8"), 400, "malformed form submission: expected a form"],
    ["a broken multipart body", send(Buffer.from("--nothing-here")), 400, "malformed form submission: the body is not valid multipart/form-data"],
    ["an argument list that is not JSON", send(form("[{", username)), 400, "malformed form submission: the argument list is not JSON"],
    ["no form among the arguments", send(form('[{"status":"idle"},"x"]', username)), 400, "malformed form submission: the last argument is not the form"],
    ["more arguments than the action takes", send(form('["a","b",{"status":"idle"},"$K1"]', username)), 400, "malformed form submission: expected 2 arguments, got 4"],
  ];
  for (const [what, sent, status, error] of forged) {
    const res = await sent;
    expect(res.status(), what).toBe(status);
    expect(((await res.json()) as { error: string }).error, what).toContain(error);
  }
  expect(users()).toBe(0);
  // the same request unaltered signs the user up: the refusals above were the gate's, not a broken action
  const genuine = await send(action.body);
  expect(genuine.status()).toBeLessThan(400);
  expect(users()).toBe(1);
});
