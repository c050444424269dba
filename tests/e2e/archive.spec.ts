/**
 * Archived boards (SPEC §6) in the browser: `as_of` shows the board as it stood
 * at a day's end, marked as archived with a link back to today's; a day before
 * anything was published shows none of today's rows; the version's page links
 * its board as of its release and as of today; the API and CSV take the same
 * parameter and refuse a day in the future, naming it.
 */
import { expect, test } from "@playwright/test";
import { DEMO_VERSION } from "./site";
import { shot } from "./steps";

const today = () => new Date().toISOString().slice(0, 10);
const rowsOf = (page: import("@playwright/test").Page) => page.locator("#leaderboard tbody tr");

test("the board as of a day: today's rows today, none before anything was published", async ({ page }) => {
  await page.goto(`/?version=${DEMO_VERSION}`);
  const live = await rowsOf(page).count();
  expect(live).toBeGreaterThan(0);

  await page.goto(`/?version=${DEMO_VERSION}&as_of=${today()}`);
  await expect(page.getByTestId("as-of-note")).toContainText(`as it stood at the end of ${today()}`);
  await expect(rowsOf(page)).toHaveCount(live);
  await expect(page.getByLabel("Board as of")).toHaveValue(today());
  await shot(page, "board-as-of-today");

  await page.goto(`/?version=${DEMO_VERSION}&as_of=2020-01-01`);
  await expect(page.getByTestId("as-of-note")).toContainText("2020-01-01");
  await expect(rowsOf(page)).toHaveCount(0);
  await page.getByTestId("as-of-note").getByRole("link", { name: "Today's board" }).click();
  await expect(page).not.toHaveURL(/as_of=/);
  await expect(rowsOf(page)).toHaveCount(live);
});

test("a version's page links its board as of its release and as of today", async ({ page }) => {
  await page.goto(`/dataset/${DEMO_VERSION}`);
  const links = page.getByTestId("version-boards");
  await links.getByRole("link", { name: "as of its release" }).click();
  await expect(page).toHaveURL(/as_of=\d{4}-\d{2}-\d{2}/);
  await expect(page.getByTestId("as-of-note")).toBeVisible();
  await page.goBack();
  await links.getByRole("link", { name: "today" }).click();
  await expect(page.getByTestId("as-of-note")).toHaveCount(0);
});

test("the API and CSV take as_of, say it back, and refuse a future or unparsable day", async ({ request }) => {
  const json = await request.get(`/api/v1/leaderboard?version=${DEMO_VERSION}&as_of=2020-01-01`);
  expect(json.status()).toBe(200);
  const doc = (await json.json()) as { as_of: string; rows: unknown[] };
  expect(doc).toMatchObject({ as_of: "2020-01-01", rows: [] });
  const todays = (await (await request.get(`/api/v1/leaderboard?version=${DEMO_VERSION}&as_of=${today()}`)).json()) as { rows: { grader_version: string | null }[] };
  expect(todays.rows.length).toBeGreaterThan(0);
  expect(todays.rows.every((r) => "grader_version" in r)).toBe(true);
  const csv = await request.get(`/api/v1/leaderboard?version=${DEMO_VERSION}&as_of=${today()}&format=csv`);
  expect(csv.headers()["content-disposition"]).toContain(`as-of-${today()}`);
  expect((await csv.text()).split("\n")[0]).toContain("grader_version");
  for (const [asOf, problem] of [
    ["2999-01-01", /as_of.*in the future/],
    ["last-week", /as_of.*YYYY-MM-DD/],
  ] as const) {
    const refused = await request.get(`/api/v1/leaderboard?version=${DEMO_VERSION}&as_of=${asOf}`);
    expect(refused.status(), asOf).toBe(400);
    expect(await refused.text(), asOf).toMatch(problem);
  }
});
