/**
 * Password guessing (issue 5, item 4) against the real site: after 5 failed
 * sign-ins a username is locked for 15 minutes, the right password included,
 * and the form says so; an address with 30 failures in 15 minutes is locked
 * for every username, while another address is not. Each test comes from
 * addresses of its own (X-Forwarded-For), so the rest of the suite, signing in
 * from 127.0.0.1, is never locked. The window itself is unit-tested
 * (lib/auth/login-limit.test.ts).
 */
import { expect, test } from "@playwright/test";
import { PASSWORD, signUp } from "./steps";

const run = Date.now().toString(36);

test("password guessing is locked out per username and per address, and the right password is refused while locked", async ({ browser, playwright, baseURL }) => {
  const username = `hw-lock-${run}`;
  const made = await browser.newContext({ baseURL });
  await signUp(await made.newPage(), username);
  await made.close();

  // in the browser, from an address of its own (the rest of the suite signs in from 127.0.0.1, and the site
  // keeps its counts while it runs, so a repeated test needs fresh addresses)
  const address = () => `2001:db8::${Math.floor(Math.random() * 0xffff).toString(16)}:${Math.floor(Math.random() * 0xffff).toString(16)}`;
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
  await expect(page.locator("form [role=alert]")).toHaveText("Too many failed sign-ins for this username: try again in 15 min.");
  await expect(page).toHaveURL(/\/signin/);
  expect(await (await page.request.get("/api/auth/session")).json()).toEqual({});
  await page.screenshot({ path: test.info().outputPath("signin-locked.png") });
  await context.close();

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
