/**
 * Password guessing against the real site: after 5 failed sign-ins from one
 * address a username backs off there (30 s, doubling per failure), the right
 * password included, and the form says so — while its owner, from another
 * address, signs in at once (no lockout switch). An address with 30 failures
 * in 15 minutes is locked for every username, while another address is not.
 * Each test comes from addresses of its own (X-Forwarded-For), so the rest of
 * the suite, signing in from 127.0.0.1, is never slowed. The rules themselves
 * are unit-tested (lib/auth/login-limit.test.ts), against the database that
 * every site process shares.
 */
import { expect, test } from "@playwright/test";
import { PASSWORD, shot, signUp } from "./steps";

const run = Date.now().toString(36);
// the site keeps its counts while it runs, so a repeated test needs fresh addresses
const address = () => `2001:db8::${Math.floor(Math.random() * 0xffff).toString(16)}:${Math.floor(Math.random() * 0xffff).toString(16)}`;

test("password guessing backs off per username and address; the owner elsewhere signs in, and an address guessing many usernames is locked", async ({ browser, playwright, baseURL }) => {
  const username = `hw-lock-${run}`;
  const made = await browser.newContext({ baseURL });
  await signUp(await made.newPage(), username);
  await made.close();

  // in the browser, from an address of its own
  const context = await browser.newContext({ baseURL, extraHTTPHeaders: { "x-forwarded-for": address() } });
  const page = await context.newPage();
  await page.goto("/signin");
  const attempt = async (password: string) => {
    await page.getByLabel("Username").fill(username);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
  };
  for (let i = 1; i <= 5; i++) {
    await attempt(`wrong password ${i}`);
    await expect(page.locator("form [role=alert]")).toHaveText("wrong username or password");
  }
  await attempt(PASSWORD);
  await expect(page.locator("form [role=alert]")).toHaveText(/^Too many failed sign-ins for this username: try again in \d+ s\.$/);
  await expect(page).toHaveURL(/\/signin/);
  expect(await (await page.request.get("/api/auth/session")).json()).toEqual({});
  await shot(page, "signin-backoff", { fullPage: false });
  await context.close();

  // the owner, from another address, is not locked out by the guesser
  const owner = await browser.newContext({ baseURL, extraHTTPHeaders: { "x-forwarded-for": address() } });
  const ownerPage = await owner.newPage();
  await ownerPage.goto("/signin");
  await ownerPage.getByLabel("Username").fill(username);
  await ownerPage.getByLabel("Password").fill(PASSWORD);
  await ownerPage.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(ownerPage.getByRole("link", { name: username })).toBeVisible();
  await owner.close();

  // over HTTP, one address guessing many usernames is locked for all of them (30 failures in 15 min)
  const other = `hw-lock-b-${run}`;
  const second = await browser.newContext({ baseURL });
  await signUp(await second.newPage(), other);
  await second.close();
  const from = async (address: string) => {
    const http = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { "x-forwarded-for": address, origin: baseURL! } });
    const { csrfToken } = (await (await http.get("/api/auth/csrf")).json()) as { csrfToken: string };
    const signIn = async (u: string, password: string) => {
      const res = await http.post("/api/auth/callback/credentials", { form: { username: u, password, csrfToken, json: "true" }, maxRedirects: 0 });
      return { status: res.status(), error: new URL(((await res.json()) as { url: string }).url).searchParams.get("error") };
    };
    return { http, signIn };
  };
  const guesser = await from(address());
  for (let i = 0; i < 30; i++) expect(await guesser.signIn(`nobody-${i}-${run}`, "not the password")).toEqual({ status: 401, error: "CredentialsSignin" });
  expect(await guesser.signIn(other, PASSWORD)).toEqual({ status: 401, error: "Too many failed sign-ins from your network address: try again in 15 min." });
  const elsewhere = await from(address());
  expect(await elsewhere.signIn(other, PASSWORD)).toEqual({ status: 200, error: null });
  expect(((await (await elsewhere.http.get("/api/auth/session")).json()) as { userId?: string }).userId).toBeTruthy();
  await guesser.http.dispose();
  await elsewhere.http.dispose();
});
