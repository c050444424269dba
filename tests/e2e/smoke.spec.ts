/** The site answers and its header names the dataset version (every page shows it). */
import { expect, test } from "@playwright/test";

test("the home page renders with the dataset version in the header", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("link", { name: "ChainSWE" })).toBeVisible();
  await expect(page.locator("header")).toContainText("newest dataset demo-2");
});
