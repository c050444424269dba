/**
 * Sign-ups are limited per client address (CHAINSWE_SIGNUPS_PER_HOUR), in the
 * database every site process shares: on a site of its own with a limit of 2,
 * a third account from one address is refused with a clear message, while
 * another address may still sign up; a "taken" answer uses no account.
 * Without a trusted proxy, the address is the connection's.
 */
import { expect, test } from "@playwright/test";
import { request as httpRequest } from "node:http";
import { captureAction } from "./hostile-steps";
import { freshDatabase, startSite } from "./site";
import { PASSWORD } from "./steps";

const PORT = Number(process.env.CHAINSWE_E2E_PORT ?? 3210) + 5;

test("a third account from one address within the hour is refused, 'taken' answers counting for none; another address signs up", async ({ browser }) => {
  const { url: dbUrl } = freshDatabase("signup-limit");
  const site = await startSite({ dbUrl, port: PORT, env: { CHAINSWE_SIGNUPS_PER_HOUR: "2" } });
  try {
    const from = async (address: string, username: string) => {
      const context = await browser.newContext({ baseURL: site.url, extraHTTPHeaders: { "x-forwarded-for": address } });
      const page = await context.newPage();
      await page.goto("/signup");
      await page.getByLabel("Username").fill(username);
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Create account" }).click();
      return { page, close: () => context.close() };
    };
    const first = await from("198.51.100.61", "sl-one");
    await expect(first.page).toHaveURL(/\/teams$/);
    await first.close();
    // a taken name creates nothing, so it uses none of the hour's accounts
    for (let i = 0; i < 2; i++) {
      const taken = await from("198.51.100.61", "sl-one");
      await expect(taken.page.getByText('"sl-one" is taken')).toBeVisible();
      await taken.close();
    }
    const second = await from("198.51.100.61", "sl-two");
    await expect(second.page).toHaveURL(/\/teams$/);
    await second.close();
    const third = await from("198.51.100.61", "sl-three");
    await expect(third.page.getByText(/^Too many accounts created from your network address: try again in \d+ min\.$/)).toBeVisible();
    await expect(third.page).toHaveURL(/\/signup/);
    await third.close();
    const elsewhere = await from("198.51.100.62", "sl-four");
    await expect(elsewhere.page).toHaveURL(/\/teams$/);
    await elsewhere.close();
  } finally {
    await site.stop();
  }
});

test("without a trusted proxy, clients are told apart by their connection, never by X-Forwarded-For", async ({ browser }) => {
  const { url: dbUrl } = freshDatabase("signup-peer");
  const site = await startSite({ dbUrl, port: PORT + 1, env: { CHAINSWE_TRUST_PROXY: "0", CHAINSWE_SIGNUPS_PER_HOUR: "1" } });
  const context = await browser.newContext({ baseURL: site.url });
  try {
    const page = await context.newPage();
    const fill = async (username: string) => {
      await page.goto("/signup");
      await page.getByLabel("Username").fill(username);
      await page.getByLabel("Password").fill(PASSWORD);
    };
    await fill("sp-one");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page).toHaveURL(/\/teams$/);

    // the next sign-up from 127.0.0.1, caught, then sent as is: with a made-up X-Forwarded-For, and from 127.0.0.2
    await context.clearCookies();
    await fill("sp-two");
    const action = await captureAction(page, () => page.getByRole("button", { name: "Create account" }).click());
    const headers = { "next-action": action.headers["next-action"]!, "content-type": action.headers["content-type"]!, origin: site.url };
    const forwarded = await context.request.post("/signup", { headers: { ...headers, "x-forwarded-for": "198.51.100.70" }, data: action.body });
    expect(await forwarded.text()).toContain("Too many accounts created from your network address");
    const fromElsewhere = await new Promise<string>((resolve, reject) => {
      const { port } = new URL(site.url);
      const req = httpRequest({ host: "127.0.0.1", port, localAddress: "127.0.0.2", method: "POST", path: "/signup", headers }, (res) => {
        let text = "";
        res.on("data", (c: Buffer) => (text += c.toString()));
        res.on("end", () => resolve(text));
      });
      req.on("error", reject);
      req.end(action.body);
    });
    expect(fromElsewhere).not.toContain("Too many accounts");
    expect(fromElsewhere).toContain('"status":"ok"');
  } finally {
    await context.close();
    await site.stop();
  }
});
