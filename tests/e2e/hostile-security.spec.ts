/**
 * Issue 15 against the real site: the open redirect after sign-in, the
 * security headers, and the full-origin CSRF check. Separation of duties and
 * the upload stall are covered where they are decided (lib/visibility.test.ts,
 * lib/data/visibility.test.ts, evaluator/dataset/predictions-off-thread.test.ts).
 */
import { expect, test } from "@playwright/test";
import { PASSWORD, signUp } from "./steps";

const run = Date.now().toString(36);
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

test("sign-up refuses the username and common passwords as the password, and asks for no email", async ({ page }) => {
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
  await attempt("qwertyuiop");
  await expect(page.getByText("is one of the most common passwords; choose another")).toBeVisible();
  await expect(page).toHaveURL(/\/signup/);
  await attempt(PASSWORD);
  await expect(page).toHaveURL(/\/teams$/);
});
