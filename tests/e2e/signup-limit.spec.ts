/**
 * Sign-ups are limited per client address (CHAINSWE_SIGNUPS_PER_HOUR), in the
 * database every site process shares: on a site of its own with a limit of 2,
 * a third account from one address is refused with a clear message, while
 * another address may still sign up.
 */
import { expect, test } from "@playwright/test";
import { freshDatabase, startSite } from "./site";
import { PASSWORD } from "./steps";

const PORT = Number(process.env.CHAINSWE_E2E_PORT ?? 3210) + 5;

test("a third account from one address within the hour is refused; another address signs up", async ({ browser }) => {
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
    for (const name of ["sl-one", "sl-two"]) {
      const { page, close } = await from("198.51.100.61", name);
      await expect(page).toHaveURL(/\/teams$/);
      await close();
    }
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
