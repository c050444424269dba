/**
 * The leaderboard at /: sorting, filters, the
 * strict/lenient toggle, state in the URL (reload and Back), CSV and JSON
 * downloads of the current view, the paper's reported rows, the table before
 * JavaScript, and the path from a row to its submission and a bug's log.
 *
 * The demo systems all run Baseline and never resolve a Seq bug after an
 * unresolved one, so strict and lenient agree on them. Setup adds one system of
 * another configuration, through the real path (team, token, CLI upload, Docker
 * evaluation, publication, review), whose Seq run skips inikit bug 2 and fixes
 * bugs 2 and 3 together in bug 3: resolved under lenient scoring only.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { DEMO_VERSION, ROOT, chainswe } from "./site";
import { createToken, shot, signInAsReviewer, signUp } from "./steps";

const run = Date.now().toString(36);
const SYSTEM = `late-fixer-${run}`;
const TEAM = `Leaderboard team ${run}`;

/** demo-gold's Seq predictions, except inikit bug 2 is left empty and bug 3 carries the fixes of bugs 2 and 3. */
function lateFixerPredictions(path: string): void {
  const lines = readFileSync(join(ROOT, "demo", "predictions", "demo-gold.seq.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { swebench_instance_id: string; model_patch: string });
  const bug = (n: number) => lines.find((l) => l.swebench_instance_id === `chainswe-demo__inikit-${n}`)!;
  const two = bug(2).model_patch;
  bug(3).model_patch = `${two}${two.endsWith("\n") ? "" : "\n"}${bug(3).model_patch}`;
  bug(2).model_patch = "";
  writeFileSync(path, `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
}

test.beforeAll(async ({ browser }, info) => {
  test.setTimeout(8 * 60_000);
  const baseURL = process.env.E2E_BASE_URL!;
  const page = await (await browser.newContext({ baseURL })).newPage();
  await signUp(page, `lb-${run}`);
  await page.getByLabel("Team name").fill(TEAM);
  await page.getByRole("button", { name: "Create team" }).click();
  await expect(page.getByRole("heading", { name: TEAM })).toBeVisible();
  const slug = new URL(page.url()).pathname.split("/").pop()!;
  await page.getByLabel("System name").fill(SYSTEM);
  await page.getByLabel("Model").fill("late-model-1");
  await page.getByLabel("Scaffold").fill("scripted: late fixes");
  await page.getByLabel("Context configuration").fill("Summarize");
  await page.getByRole("checkbox", { name: "Open weights" }).check();
  // inikit's bugs (the chain the late fixer breaks under strict scoring) are all dated before this cutoff
  await page.getByLabel("Training-data cutoff").fill("2023-03-31");
  await page.getByRole("button", { name: "Create system" }).click();
  await expect(page.getByRole("cell", { name: "late-model-1" })).toBeVisible();
  await expect(page.getByRole("cell", { name: "2023-03-31" })).toBeVisible();
  const token = await createToken(page, "cli", ["submit", "read"]);
  const file = info.outputPath("late-fixer.seq.jsonl");
  lateFixerPredictions(file);
  const out = chainswe(process.env.E2E_DATABASE_URL!, ["submit", "--server", baseURL, "--token", token, "--system", `${slug}/${SYSTEM}`, "--mode", "seq", "--dataset-version", DEMO_VERSION, file]);
  const id = /submission (\S+)/.exec(out)![1]!;
  await page.goto(`/submissions/${id}`);
  await expect(page.getByTestId("submission-status")).toHaveText(/completed/i, { timeout: 5 * 60_000 });
  await page.reload();
  await page.getByRole("button", { name: "Request publication" }).click();
  await expect(page.getByTestId("submission-visibility")).toContainText(/pending/i);
  const rita = await (await browser.newContext({ baseURL })).newPage();
  await signInAsReviewer(rita, `lb-rev-${run}`);
  await rita.goto(`/submissions/${id}`);
  await rita.getByRole("button", { name: "Approve" }).click();
  await expect(rita.getByTestId("submission-visibility")).toContainText(/public/i);
});

const board = (page: Page) => page.locator("table#leaderboard");
const bodyRows = (table: Locator) => table.locator("tbody tr:not(.lb-group)");
/** "system · mode" of each evaluated row, in order */
async function rowKeys(page: Page): Promise<string[]> {
  return bodyRows(board(page)).evaluateAll((trs) =>
    trs.map((tr) => `${tr.querySelector("th .lb-system a")?.textContent ?? ""} · ${tr.querySelectorAll("td")[2]?.textContent?.trim() ?? ""}`),
  );
}
const header = (page: Page, name: RegExp) => board(page).getByRole("columnheader", { name });

test("sorting by a column reorders the rows under a header that stays, with aria-sort", async ({ page }) => {
  await page.goto("/");
  await expect(header(page, /Per-bug %/)).toHaveAttribute("aria-sort", "descending");
  const before = await rowKeys(page);
  expect(before.length).toBeGreaterThanOrEqual(17);
  await header(page, /Cost \/ chain/).getByRole("link").click();
  await expect(page).toHaveURL(/[?&]sort=cost\.asc\b/);
  await expect(header(page, /Cost \/ chain/)).toHaveAttribute("aria-sort", "ascending");
  await expect(header(page, /Per-bug %/)).not.toHaveAttribute("aria-sort", /.*/);
  // the cost cell by its header's place (the row header is a th; the other cells are tds)
  const costColumn = (await board(page).locator("thead th").evaluateAll((ths) => ths.findIndex((th) => /Cost \/ chain/.test(th.textContent ?? "")))) - 1;
  const costs = await bodyRows(board(page)).evaluateAll((trs, i) => trs.map((tr) => tr.querySelectorAll("td")[i]?.textContent ?? ""), costColumn);
  const numbers = costs.filter((c) => c.startsWith("$")).map((c) => Number(c.slice(1)));
  expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
  expect(await rowKeys(page)).not.toEqual(before);
  await shot(page, "sorted-by-cost");
  await header(page, /Cost \/ chain/).getByRole("link").click();
  await expect(header(page, /Cost \/ chain/)).toHaveAttribute("aria-sort", "descending");
});

test("filters by mode and by configuration change the rows; an empty result says why", async ({ page }) => {
  await page.goto("/");
  const all = (await rowKeys(page)).length;
  await page.getByLabel("Mode", { exact: true }).selectOption("seq");
  await expect(page).toHaveURL(/[?&]mode=seq\b/);
  await expect(board(page).getByRole("caption")).toContainText(/\d+ rows?/);
  const seq = await rowKeys(page);
  expect(seq.length).toBeLessThan(all);
  expect(seq.every((k) => k.endsWith("· Seq"))).toBe(true);
  expect(seq).toContain(`${SYSTEM} · Seq`);
  await page.getByLabel("Configuration", { exact: true }).selectOption("Summarize");
  await expect(page).toHaveURL(/[?&]config=Summarize\b/);
  await expect.poll(() => rowKeys(page)).toEqual([`${SYSTEM} · Seq`]);
  await page.getByLabel("Weights", { exact: true }).selectOption("0");
  await expect(page.getByTestId("leaderboard-empty")).toContainText("No row matches these filters (mode Seq; configuration Summarize; weights closed)");
  await page.getByRole("link", { name: "Clear the filters" }).click();
  await expect.poll(async () => (await rowKeys(page)).length).toBe(all);
});

test("strict and lenient: the late fixer's Seq row changes, and the toggle says what each means", async ({ page }) => {
  await page.goto("/?config=Summarize");
  const row = bodyRows(board(page)).filter({ hasText: SYSTEM });
  const perBug = row.locator("td").nth(3);
  await expect(perBug).toContainText("87.5");
  await expect(page.getByText(/Strict \(as the paper's Table 2\): a Seq or Seq\+Mem bug counts only if every earlier bug/)).toBeVisible();
  await page.getByRole("radio", { name: "Lenient" }).check();
  await expect(page).toHaveURL(/[?&]scoring=lenient\b/);
  await expect(perBug).toContainText("93.8");
  await expect(board(page).getByRole("caption")).toContainText("lenient scoring");
  await shot(page, "lenient");
});

test("the URL holds the view: reload and Back keep it", async ({ page }) => {
  await page.goto(`/?version=${DEMO_VERSION}&mode=seq&sort=chain.asc&group=config`);
  const view = await rowKeys(page);
  await expect(board(page).locator("tr.lb-group th[scope=rowgroup]").first()).toHaveText("Baseline");
  await page.reload();
  expect(await rowKeys(page)).toEqual(view);
  await expect(page.getByLabel("Mode", { exact: true })).toHaveValue("seq");
  await expect(page.getByRole("checkbox", { name: "grouped by configuration" })).toBeChecked();
  await expect(header(page, /Chain %/)).toHaveAttribute("aria-sort", "ascending");
  await page.getByLabel("Mode", { exact: true }).selectOption("oracle");
  await expect(page).toHaveURL(/[?&]mode=oracle\b/);
  await expect.poll(() => rowKeys(page)).not.toEqual(view);
  await page.goBack();
  await expect(page).toHaveURL(/[?&]mode=seq\b/);
  await expect.poll(() => rowKeys(page)).toEqual(view);
  await expect(page.getByLabel("Mode", { exact: true })).toHaveValue("seq");
});

test("CSV and JSON downloads hold the view's rows, in its order", async ({ page }) => {
  await page.goto("/?mode=seq&sort=per_bug.asc");
  const view = await rowKeys(page);
  const [csv] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "CSV", exact: true }).click()]);
  expect(csv.suggestedFilename()).toMatch(/^chainswe-leaderboard-demo-strict\.csv$/);
  const lines = readFileSync((await csv.path())!, "utf8").trim().split("\n");
  expect(lines[0]).toMatch(/^kind,model,system,team,scaffold,config,mode,per_bug_pct,/);
  expect(lines.slice(1).map((l) => l.split(",")[2])).toEqual(view.map((k) => k.split(" · ")[0]));
  const [jsonDownload] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "JSON", exact: true }).click()]);
  const doc = JSON.parse(readFileSync((await jsonDownload.path())!, "utf8")) as { version: string; scoring: string; rows: { system: string; mode: string; per_bug: { value: number; ci: number[] } }[] };
  expect(doc).toMatchObject({ version: DEMO_VERSION, scoring: "strict" });
  expect(doc.rows.map((r) => r.system)).toEqual(view.map((k) => k.split(" · ")[0]));
  expect(doc.rows.every((r) => r.mode === "seq" && r.per_bug.ci.length === 2)).toBe(true);
  // the API refuses a bad parameter by name
  const bad = await page.request.get("/api/v1/leaderboard?mode=turbo");
  expect(bad.status()).toBe(400);
  expect(((await bad.json()) as { field: string }).field).toBe("mode");
});

test("rank tiers: a Tier column with the tests against the row above and against the tier's leader and rank stability on hover, carried by the JSON and CSV", async ({ page }) => {
  await page.goto("/?mode=seq");
  const tiers = bodyRows(board(page)).locator(".lb-tier");
  const rows = await rowKeys(page);
  await expect(tiers).toHaveCount(rows.length);
  // five chains cannot separate two rows: the smallest sign-test p-value over them is 2/2^5 = 0.0625 > 0.05
  expect(new Set(await tiers.allTextContents())).toEqual(new Set(["1"]));
  await tiers.first().hover();
  await expect(tiers.first()).toHaveAttribute("title", /^Tier 1 of the Seq rows\. The first Seq row\. Keeps its rank in \d+% of resamples of chains\.$/);
  await expect(tiers.nth(1)).toHaveAttribute("title", /Against the Seq row above: p = \d\.\d{3} \(Holm-corrected \d\.\d{3}\)/);
  // one tier: every later row was tested against its leader, the first row
  await expect(tiers.nth(1)).toHaveAttribute("title", /Against its tier's leader \(its first row\): p = \d\.\d{3} \(Holm-corrected \d\.\d{3}\)/);

  type TierRow = { system: string; submission_id: string; tier: number; p_vs_above: number | null; p_vs_above_holm: number | null; tier_leader: string; p_vs_tier_leader: number | null; p_vs_tier_leader_adjusted: number | null; rank_stability: number };
  const doc = (await (await page.request.get("/api/v1/leaderboard?mode=seq")).json()) as { rows: TierRow[] };
  expect(doc.rows.map((r) => r.system)).toEqual(rows.map((k) => k.split(" · ")[0]));
  expect(doc.rows[0]).toMatchObject({ system: "demo-gold", tier: 1, p_vs_above: null, p_vs_above_holm: null });
  const leader = doc.rows[0]!.submission_id;
  expect(doc.rows[0]).toMatchObject({ tier_leader: leader, p_vs_tier_leader: null, p_vs_tier_leader_adjusted: null });
  for (const r of doc.rows.slice(1)) {
    expect(r.p_vs_above, r.system).toBeGreaterThanOrEqual(0.0625);
    expect(r.p_vs_above_holm!, r.system).toBeGreaterThanOrEqual(r.p_vs_above!);
    expect(r.tier_leader, r.system).toBe(leader);
    expect(r.p_vs_tier_leader_adjusted!, r.system).toBeCloseTo(Math.min(1, r.p_vs_tier_leader! * (doc.rows.length - 1)), 12);
  }
  expect(doc.rows.every((r) => r.rank_stability >= 0 && r.rank_stability <= 1)).toBe(true);
  const csv = (await (await page.request.get("/api/v1/leaderboard?mode=seq&format=csv")).text()).trim().split("\n");
  const head = csv[0]!.split(",");
  const col = (name: string) => csv.slice(1).map((l) => l.split(",")[head.indexOf(name)]);
  expect(col("tier")).toEqual(doc.rows.map(() => "1"));
  expect(col("rank_stability").map(Number)).toEqual(doc.rows.map((r) => Math.round(r.rank_stability * 1e4) / 1e4));
  expect(col("p_vs_above")[0]).toBe("");
  expect(col("tier_leader")).toEqual(doc.rows.map(() => leader));
  expect(col("p_vs_tier_leader")[0]).toBe("");

  // a bug-date window ranks other chains: no tiers there
  await page.goto("/?mode=seq&bug_from=2024-01-01");
  await expect(bodyRows(board(page)).locator(".lb-tier")).toHaveCount(0);
  await shot(page, "tiers");
});

test("the bug-date window: one click to the bugs after a system's cutoff, rescored, held in the URL and the downloads", async ({ page }) => {
  await page.goto("/?config=Summarize");
  const row = bodyRows(board(page)).filter({ hasText: SYSTEM });
  const perBug = row.locator("td").nth(3);
  await expect(perBug).toContainText("87.5");
  await expect(page.getByTestId("window-note")).toHaveCount(0);
  await row.getByRole("link", { name: "after its cutoff" }).click();
  await expect(page).toHaveURL(/[?&]bug_from=2023-04-01\b/);
  await expect(page).toHaveURL(/[?&]config=Summarize\b/);
  // inikit is left out, and with it the bug the late fixer skipped
  await expect(page.getByTestId("window-note")).toContainText("Bugs dated 2023-04-01 to any date: the window keeps 4 of 5 chains (13 of 16 bugs)");
  await expect(perBug).toContainText("100.0");
  await expect(page.getByLabel("from", { exact: true })).toHaveValue("2023-04-01");
  await shot(page, "after-cutoff");
  await page.reload();
  await expect(perBug).toContainText("100.0");
  const [csv] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "CSV", exact: true }).click()]);
  const lines = readFileSync((await csv.path())!, "utf8").trim().split("\n");
  const chainsAt = lines[0]!.split(",").indexOf("chains");
  expect(chainsAt).toBeGreaterThan(0);
  expect(lines.slice(1).map((l) => l.split(",")[chainsAt])).toEqual(lines.slice(1).map(() => "4"));
  const doc = (await (await page.request.get("/api/v1/leaderboard?config=Summarize&bug_from=2023-04-01")).json()) as { window: { chains: number; bugs: number }; rows: { per_bug: { value: number } }[] };
  expect(doc.window).toMatchObject({ chains: 4, bugs: 13 });
  expect(doc.rows[0]!.per_bug.value).toBe(100);
  // an end date too, typed into the form; then back to every chain
  await page.getByLabel("until", { exact: true }).fill("2023-09-30");
  await page.getByLabel("until", { exact: true }).dispatchEvent("change");
  await expect(page).toHaveURL(/[?&]bug_until=2023-09-30\b/);
  await expect(page.getByTestId("window-note")).toContainText("keeps 2 of 5 chains (6 of 16 bugs)");
  await page.getByRole("link", { name: "Every chain" }).click();
  await expect(page.getByTestId("window-note")).toHaveCount(0);
  await expect(perBug).toContainText("87.5");
  // a window that keeps nothing says so; a bad day is refused by name
  await page.goto("/?bug_from=2030-01-01");
  await expect(page.getByTestId("leaderboard-empty")).toContainText("The bug-date window keeps no chain");
  const bad = await page.request.get("/api/v1/leaderboard?bug_from=yesterday");
  expect(bad.status()).toBe(400);
  expect(((await bad.json()) as { field: string }).field).toBe("bug_from");
});

test("the paper's rows: off by default, shown as reported, never ranked with ours", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { name: /Reported in the paper/ })).toHaveCount(0);
  const ours = await rowKeys(page);
  await page.getByRole("checkbox", { name: /the paper's reported results/ }).check();
  await expect(page).toHaveURL(/[?&]paper=1\b/);
  await expect(page.getByRole("heading", { name: "Reported in the paper, not re-evaluated here" })).toBeVisible();
  const reported = page.locator("table#reported");
  await expect(reported.getByRole("caption")).toContainText("reported in the paper, not re-evaluated here");
  await expect(bodyRows(reported)).toHaveCount(63);
  await expect(reported.getByRole("link")).toHaveCount(0);
  await expect(reported.locator("th[aria-sort]")).toHaveCount(0);
  expect(await rowKeys(page)).toEqual(ours);
  const first = bodyRows(reported).first();
  await expect(first).toContainText("GPT-5.5");
  await expect(first).toContainText("69.1");
  await expect(bodyRows(reported).nth(1)).toContainText("−29%");
  await shot(page, "paper-rows");
  // sorting ours leaves the paper's order alone
  await header(page, /Per-bug %/).getByRole("link").click();
  await expect(page).toHaveURL(/[?&]sort=per_bug\.asc\b/);
  await expect(bodyRows(page.locator("table#reported")).first()).toContainText("69.1");
});

test("from a row to its submission, and from there to a bug's log", async ({ page }) => {
  await page.goto("/?mode=seq");
  const row = bodyRows(board(page)).filter({ has: page.getByRole("link", { name: "demo-drifter", exact: true }) });
  await row.getByRole("link", { name: "demo-drifter", exact: true }).click();
  await expect(page).toHaveURL(/\/submissions\/[a-z0-9]+$/);
  await expect(page.getByTestId("submission-status")).toHaveText(/completed/i);
  await shot(page, "submission");
  const log = page.getByRole("link", { name: "log", exact: true }).first();
  const href = await log.getAttribute("href");
  expect(href).toMatch(/\/chains\/[^/]+\/bugs\/\d+\/log$/);
  const res = await page.request.get(href!);
  expect(res.status()).toBe(200);
  expect(await res.text()).toMatch(/passed|failed|error/i);
});

test.describe("before JavaScript", () => {
  test.use({ javaScriptEnabled: false });
  test("the server-rendered table sorts and filters by plain links and forms", async ({ page }) => {
    await page.goto("/");
    await expect(bodyRows(board(page)).first()).toBeVisible();
    await header(page, /Date/).getByRole("link").click();
    await expect(page).toHaveURL(/[?&]sort=date\.desc\b/);
    await expect(header(page, /Date/)).toHaveAttribute("aria-sort", "descending");
    await page.getByLabel("Mode", { exact: true }).selectOption("oracle");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(/[?&]mode=oracle\b/);
    expect((await rowKeys(page)).every((k) => k.endsWith("· Oracle"))).toBe(true);
  });
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 360, height: 740 } });
  test("the table scrolls sideways inside the page", async ({ page }) => {
    await page.goto("/");
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(360 + 1);
    await shot(page, "phone");
  });
});
