/**
 * A version over time (SPEC §8) in the browser. Its Mini split: computed by
 * the demo's rules over the published rows as they were evaluated, shown on the
 * version's page with its size, τ and method, and its own board, never mixed
 * with the whole version's rows. Archived boards: `as_of` shows the board as it stood
 * at a day's end, marked as archived with a link back to today's; a day before
 * anything was published shows none of today's rows; the version's page links
 * its board as of its release and as of today; the API and CSV take the same
 * parameter and refuse a day in the future, naming it.
 */
import { createHash } from "node:crypto";
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

test("the version's Mini split: size, τ and method on its page, and a board of its own", async ({ page, request }) => {
  await page.goto(`/dataset/${DEMO_VERSION}`);
  await expect(page.getByTestId("version-mini")).toContainText(/3 chains, Kendall τ-b -?\d\.\d{3} against the full board over \d+ rows/);
  await expect(page.getByTestId("mini-chains").getByRole("listitem")).toHaveCount(3);
  await expect(page.getByRole("region", { name: "Mini split" })).toContainText("greedy forward selection maximising Kendall τ-b");
  await shot(page, "version-mini");
  await page.getByTestId("version-mini").getByRole("link", { name: "its board" }).click();
  await expect(page).toHaveURL(/split=mini/);
  await expect(page.getByTestId("mini-note")).toContainText("Mini split rows only: 3 of the version's chains");
  // no submission was made on the Mini: none of the whole version's rows shows here
  await expect(rowsOf(page)).toHaveCount(0);
  const doc = (await (await request.get(`/api/v1/leaderboard?version=${DEMO_VERSION}&split=mini`)).json()) as { split: string; rows: unknown[] };
  expect(doc).toMatchObject({ split: "mini", rows: [] });
  const refused = await request.get(`/api/v1/leaderboard?version=${DEMO_VERSION}&split=tiny`);
  expect(refused.status()).toBe(400);
  expect(await refused.text()).toContain("split");
});

test("a version's records download whole, each line's sha256 the frozen manifest's", async ({ page, request }) => {
  await page.goto(`/dataset/${DEMO_VERSION}`);
  await expect(page.getByTestId("version-parent")).toHaveText("imported whole");
  const href = await page.getByTestId("version-records").getByRole("link", { name: "JSONL" }).getAttribute("href");
  const records = await request.get(href!);
  expect(records.headers()["content-type"]).toContain("application/x-ndjson");
  const lines = (await records.text()).trim().split("\n");
  const manifest = (await (await request.get(`/api/v1/dataset/${DEMO_VERSION}/records?format=manifest`)).json()) as { parent: string | null; manifest: { records: { continuous_id: string; sha256: string }[] } | null };
  expect(manifest.parent).toBeNull();
  // a demo database made before manifests were kept has none: the test needs one made now
  expect(manifest.manifest, "the version's manifest").not.toBeNull();
  expect(lines.map((l) => ({ continuous_id: (JSON.parse(l) as { continuous_id: string }).continuous_id, sha256: createHash("sha256").update(l).digest("hex") }))).toEqual(manifest.manifest!.records);
  expect((await request.get(`/api/v1/dataset/no-such-version/records`)).status()).toBe(404);
});
