/**
 * Per-position view, chain-error analysis and comparison
 * on the demo benchmark really evaluated and published by the global setup:
 * real tables with headers, charts with a title and a text alternative, state
 * in the URL, exports that download the table's rows, and links down to the
 * failure pages.
 */
import { readFile } from "node:fs/promises";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { shot } from "./steps";


/** The text of a table cell (its link's, when it has one) found by its row header and column header. */
async function cell(table: Locator, row: string | RegExp, column: string): Promise<string> {
  const headers = (await table.locator("thead th").allInnerTexts()).map((h) => h.trim());
  const col = headers.indexOf(column);
  expect(col, `column ${column} in ${headers.join(" | ")}`).toBeGreaterThan(0);
  const tr = table.locator("tbody tr").filter({ has: table.page().getByRole("rowheader", { name: row, exact: true }) });
  // the row header is cell 0; data cells follow
  const target = tr.locator("th, td").nth(col);
  const link = target.getByRole("link");
  return ((await link.count()) > 0 ? await link.first().innerText() : await target.innerText()).trim();
}

const count = (text: string) => Number(text);

/** Clicks a download link and answers the file's lines. */
async function download(page: Page, link: Locator): Promise<string[]> {
  const [file] = await Promise.all([page.waitForEvent("download"), link.click()]);
  const text = await readFile((await file.path())!, "utf8");
  return text.trim().split("\n");
}

async function expectChart(figure: Locator, title: RegExp, tableId: string) {
  await expect(figure.locator("figcaption")).toHaveText(title);
  await expect(figure.getByRole("link").first()).toHaveAttribute("href", `#${tableId}`);
  await expect(figure.page().locator(`table#${tableId}`)).toBeVisible();
  await expect(figure.locator("svg.recharts-surface").first()).toBeVisible();
}

test("per position: Table 3 and 4 layouts, one chart line per mode, the chain toggle in the URL, CSV export", async ({ page }) => {
  await page.goto("/positions");
  await expect(page.getByRole("heading", { name: "Resolution by position" })).toBeVisible();
  const byConfig = page.locator("table#by-config");
  for (const h of ["Configuration", "Mode", "Systems"]) await expect(byConfig.getByRole("columnheader", { name: h })).toBeVisible();
  await expect(byConfig.getByRole("columnheader", { name: /^Pos\. 3/ })).toBeVisible();
  await expect(byConfig.getByRole("columnheader", { name: /^Pos\. 4/ })).toHaveCount(0);
  await expect(byConfig.getByRole("rowheader", { name: "Baseline" })).toBeVisible();
  await expect(byConfig.locator("tbody tr")).toHaveCount(2);
  // every demo system is a model of its own: Oracle and Seq rows for each of the eight
  const byModel = page.locator("table#by-model");
  await expect(byModel.locator("tbody tr")).toHaveCount(16);
  // demo-gold resolves everything; its Seq row links to its submission
  const goldSeq = byModel.locator("tbody").filter({ has: page.getByRole("rowheader", { name: "demo-gold" }) }).locator("tr").nth(1);
  await expect(goldSeq.getByRole("rowheader")).toHaveText("Seq");
  await expect(goldSeq.locator("td").nth(1)).toHaveText(/^100\.0/);
  await expect(goldSeq.locator("td").nth(1).getByRole("link")).toHaveAttribute("href", /^\/submissions\/\w+$/);

  const chart = page.getByTestId("chart").first();
  await expectChart(chart, /Resolution by position — Baseline/, "by-config");
  // one line per mode row of the table, each named in the legend
  await expect(chart.locator(".recharts-line")).toHaveCount(2);
  await expect(chart.locator(".chart-legend li")).toHaveText(["Oracle", "Seq"]);
  await expect(chart.locator(".chart-line-seq .recharts-line-curve")).toHaveAttribute("stroke-dasharray", /7/);
  await shot(page, "positions");

  await page.getByLabel("All chains").check();
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/positions=all/);
  await expect(byConfig.getByRole("columnheader", { name: /^Pos\. 4/ })).toBeVisible();
  await expect(page.getByLabel("All chains")).toBeChecked();

  // the paper's tables: off by default, labelled, apart from the evaluated ones
  await expect(page.getByRole("heading", { name: /Reported in the paper/ })).toHaveCount(0);
  await page.getByLabel(/the paper's Tables 3–4/).check();
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/paper=1/);
  await expect(page.getByRole("heading", { name: "Reported in the paper, not re-evaluated here" })).toBeVisible();
  const reported = page.locator("table#reported-by-config");
  await expect(reported.locator("tbody")).toHaveCount(3);
  await expect(reported.locator("tbody").first().locator("tr").nth(1).locator("td").last()).toHaveText(/^27\.7\s*−59%$/);
  await expect(byConfig.locator("tbody tr")).toHaveCount(2);
  await shot(page, "positions-with-paper");

  const lines = await download(page, page.locator("section", { has: page.locator("#by-config") }).getByRole("link", { name: "CSV" }));
  expect(lines[0]).toBe("configuration,mode,systems,position,chains,resolved_pct,vs_oracle,runs_min_pct,runs_max_pct");
  // Baseline × (Oracle, Seq) × positions 1–4
  expect(lines).toHaveLength(1 + 2 * 4);
  expect(lines.filter((l) => l.startsWith("Baseline,seq,8,4,"))).toHaveLength(1);
});

test("chain errors: Figure 4 charts, filtering by system changes the causes, rows link to failure pages, export", async ({ page }) => {
  await page.goto("/analysis");
  await expect(page.getByRole("heading", { name: "Chain errors", level: 1 })).toBeVisible();
  const byPosition = page.locator("table#by-position");
  for (const h of ["Position", "Chain errors", "Rate %", "Overshoot", "Undershoot", "Both", "Unattributed", "Broke working code", "No usable patch"]) {
    await expect(byPosition.getByRole("columnheader", { name: h, exact: true })).toBeVisible();
  }
  const figures = page.getByTestId("chart");
  await expect(figures).toHaveCount(2);
  await expectChart(figures.nth(0), /chain errors by cause/, "by-position");
  await expectChart(figures.nth(1), /by position and fingerprint/, "by-position");
  await expect(figures.nth(0).locator(".chart-legend li")).toContainText(["Overshoot", "Undershoot", "Both", "Unattributed", "Not a chain error"]);
  await expect(page.locator("table#by-system tbody tr")).toHaveCount(8);
  await shot(page, "analysis");

  // one system at a time: demo-overshoot's chain errors are overshoots, demo-undershoot's undershoots
  // a choice applies at once (a navigation); the tables are read once they show that system alone
  const bySystem = page.locator("table#by-system tbody tr");
  await page.getByRole("checkbox", { name: /demo-overshoot/ }).check();
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/system=/);
  await expect(bySystem).toHaveCount(1);
  await expect(bySystem.first()).toContainText("demo-overshoot");
  expect(count(await cell(byPosition, "All", "Overshoot"))).toBeGreaterThan(0);
  expect(count(await cell(byPosition, "All", "Undershoot"))).toBe(0);
  await expect(page.locator("table#by-system tbody tr")).toHaveCount(1);
  await expect(page.getByRole("checkbox", { name: /demo-overshoot/ })).toBeChecked();

  await page.getByRole("checkbox", { name: /demo-overshoot/ }).uncheck();
  await page.getByRole("checkbox", { name: /demo-undershoot/ }).check();
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByRole("checkbox", { name: /demo-undershoot/ })).toBeChecked();
  await expect(bySystem).toHaveCount(1);
  await expect(bySystem.first()).toContainText("demo-undershoot");
  expect(count(await cell(byPosition, "All", "Overshoot"))).toBe(0);
  expect(count(await cell(byPosition, "All", "Undershoot"))).toBeGreaterThan(0);
  await shot(page, "analysis-undershoot");

  // each chain error opens its failure page; its evidence links the prior bug's
  const rows = page.getByTestId("chain-error-row");
  expect(await rows.count()).toBeGreaterThan(0);
  const first = rows.first();
  await expect(first.getByRole("cell").nth(4)).toHaveText(/Undershoot/);
  const link = first.getByRole("rowheader").getByRole("link");
  await expect(link).toHaveAttribute("href", /^\/submissions\/\w+\/chains\/inikit-chain-1\/bugs\/[2-9]$/);
  await expect(first.locator(".evidence a").first()).toHaveAttribute("href", /^\/submissions\/\w+\/chains\/inikit-chain-1\/bugs\/1$/);

  // a count narrows the list to the chain errors behind it
  await byPosition.locator("tbody tr").first().getByRole("cell").nth(4).getByRole("link").click();
  await expect(page).toHaveURL(/position=2.*cause=undershoot|cause=undershoot.*position=2/);
  await expect(page.getByText(/narrowed to position 2 cause undershoot/)).toBeVisible();

  await page.goto("/analysis");
  const errorRows = await page.getByTestId("chain-error-row").count();
  const lines = await download(page, page.locator("section#errors").getByRole("link", { name: "CSV" }));
  expect(lines[0]).toMatch(/^system,team,mode,continuous_id,order,swebench_instance_id,fingerprint,cause,evidence,seq_submission,failure_page$/);
  expect(lines).toHaveLength(1 + errorRows);
  const json = await page.request.get((await page.locator("section#errors").getByRole("link", { name: "JSON" }).getAttribute("href"))!);
  expect((await json.json()).rows).toHaveLength(errorRows);
});

test("a bug-date window narrows the per-position and chain-error views, says what it keeps, and goes into their exports", async ({ page }) => {
  // only inikit's bugs are dated before April 2023
  await page.goto("/analysis");
  const allErrors = await page.getByTestId("chain-error-row").count();
  await page.getByLabel("until", { exact: true }).fill("2023-03-31");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/[?&]bug_until=2023-03-31\b/);
  await expect(page.getByTestId("window-note")).toContainText("the window keeps 1 of 5 chains (3 of 16 bugs)");
  // each row's first link is its bug
  const bugs = await page.getByTestId("chain-error-row").evaluateAll((trs) => trs.map((tr) => tr.querySelector("a")?.textContent?.trim() ?? ""));
  expect(bugs.length).toBeLessThan(allErrors);
  expect(bugs.length).toBeGreaterThan(0);
  expect(bugs.every((b) => b.startsWith("inikit-chain-1 #")), bugs.join(", ")).toBe(true);
  const doc = (await (await page.request.get("/api/v1/analysis?table=errors&bug_until=2023-03-31")).json()) as { window_chains: number; bug_until: string; rows: unknown[] };
  expect(doc).toMatchObject({ window_chains: 1, bug_until: "2023-03-31" });
  expect(doc.rows).toHaveLength(bugs.length);

  await page.goto("/positions?bug_until=2023-03-31");
  await expect(page.getByTestId("window-note")).toContainText("keeps 1 of 5 chains");
  await expect(page.getByLabel("until", { exact: true })).toHaveValue("2023-03-31");
  await expect(page.locator("table#by-config")).toBeVisible();
  const csv = await download(page, page.getByRole("link", { name: "CSV" }).first());
  const chainsAt = csv[0]!.split(",").indexOf("chains");
  expect(csv.slice(1).every((l) => l.split(",")[chainsAt] === "1")).toBe(true);
  await page.getByRole("link", { name: "Every chain" }).click();
  await expect(page.getByTestId("window-note")).toHaveCount(0);
});

test("compare: demo-gold Seq against demo-breaker Seq, paired difference, win/loss per chain, cost-score scatter with its Pareto frontier", async ({ page }) => {
  await page.goto("/compare");
  await expect(page.getByRole("heading", { name: "Compare two systems" })).toBeVisible();
  // before picking: the scatter of every system with its table
  await expectChart(page.locator("figure#scatter-chart"), /Cost per chain against per-bug %/, "systems-table");
  await expect(page.locator("table#systems-table tbody tr")).toHaveCount(16);

  await page.getByLabel("System A").selectOption({ label: "demo-gold · Seq (ChainSWE demo)" });
  await page.getByLabel("System B").selectOption({ label: "demo-breaker · Seq (ChainSWE demo)" });
  await page.getByRole("button", { name: "Compare" }).click();
  await expect(page).toHaveURL(/a=\w+.*b=\w+/);
  await expect(page.getByTestId("paired-difference")).toHaveText(/A − B: \+\d+\.\d points per bug \[−?\d+\.\d, \d+\.\d\]/);
  const difference = page.locator("table#difference");
  await expect(difference.getByRole("columnheader", { name: "Per-bug %" })).toBeVisible();
  await expect(difference.getByRole("rowheader", { name: /^A demo-gold/ })).toBeVisible();

  const chains = page.locator("table#chains-table");
  for (const h of ["Chain", "A resolved", "B resolved", "More resolved by"]) await expect(chains.getByRole("columnheader", { name: h })).toBeVisible();
  await expect(chains.locator("tbody tr")).toHaveCount(5);
  await expect(chains.locator("caption")).toHaveText(/A resolved more on [1-5], B on 0, tie on \d/);
  // the exact sign test over the chains: A ahead on w chains, B on none, p = 2/2^w
  const caption = (await chains.locator("caption").textContent())!;
  const wins = Number(/A resolved more on (\d)/.exec(caption)![1]);
  await expect(page.getByTestId("paired-p")).toHaveText(`Exact sign test over those chains (${wins} won by A, 0 by B, ties dropped): p = ${Math.min(1, 2 / 2 ** wins).toFixed(3)}.`);
  // beside it the per-bug test: the bugs only one side resolved are the flipped positions of the chain table, and p is exact McNemar's
  const flips = await chains.locator("tbody tr td:nth-of-type(4)").allInnerTexts();
  const only = (side: string) => flips.flatMap((t) => t.split("; ").filter((part) => part.endsWith(` by ${side}`)).flatMap((part) => part.split(" by ")[0]!.split(", "))).length;
  const [aOnly, bOnly] = [only("A"), only("B")];
  expect(aOnly).toBeGreaterThan(0);
  const choose = (n: number, k: number): number => (k === 0 ? 1 : (choose(n, k - 1) * (n - k + 1)) / k);
  const tail = Array.from({ length: Math.min(aOnly, bOnly) + 1 }, (_, k) => choose(aOnly + bOnly, k)).reduce((x, y) => x + y, 0) / 2 ** (aOnly + bOnly);
  const mcnemar = Math.min(1, 2 * tail);
  const bugText = mcnemar < 0.001 ? "< 0.001" : mcnemar.toFixed(3);
  await expect(page.getByTestId("paired-bug-p")).toHaveText(
    new RegExp(`^Exact McNemar test over their \\d+ bugs \\(${aOnly} resolved by A only, ${bOnly} by B only, the rest dropped\\): p = ${bugText.replace(/[.<]/g, "\\$&")}\\.$`),
  );
  const differenceJson = (await (await page.request.get(`/api/v1/compare?${new URL(page.url()).searchParams.toString()}&table=difference`)).json()) as { rows: Record<string, number>[] };
  expect(differenceJson.rows[0]).toMatchObject({ bugs_a_only: aOnly, bugs_b_only: bOnly });
  expect(differenceJson.rows[0]!.mcnemar_p).toBeCloseTo(mcnemar, 12);
  // the positions that flipped: each chain A won lists positions only A resolved
  await expect(chains.getByRole("columnheader", { name: "Flipped positions" })).toBeVisible();
  const flipped = await chains.locator("tbody tr").evaluateAll((trs) => trs.map((tr) => [tr.querySelectorAll("td")[2]?.textContent, tr.querySelectorAll("td")[3]?.textContent]));
  for (const [winner, positions] of flipped) expect(positions).toMatch(winner === "A" ? /^\d(, \d)* by A$/ : /^none$/);
  // breaker's first failure on tablefmt opens its failure page
  const tablefmt = chains.locator("tbody tr").filter({ has: page.getByRole("rowheader", { name: "tablefmt-chain-1" }) });
  await expect(tablefmt.locator("td").nth(2)).toHaveText("A");
  await expect(tablefmt.locator("td").nth(1).getByRole("link")).toHaveAttribute("href", /\/chains\/tablefmt-chain-1\/bugs\/1$/);

  const scatter = page.locator("figure#scatter-chart");
  await expectChart(scatter, /Cost per chain against per-bug %/, "systems-table");
  // Oracle, Seq and the Pareto frontier's line
  await expect(scatter.locator(".recharts-scatter")).toHaveCount(3);
  await expect(scatter.locator(".chart-legend li")).toHaveText(["Oracle", "Seq", "Pareto frontier"]);
  await expect(scatter.locator(".recharts-scatter-line")).toHaveCount(1);
  // the rows the table marks are exactly those no other row beats on both cost and per-bug %
  const systems = (await (await page.request.get("/api/v1/compare?table=systems")).json()) as { rows: { submission: string; cost_per_chain_usd: number | null; per_bug_pct: number; on_pareto_frontier: boolean | null }[] };
  const costed = systems.rows.filter((r) => r.cost_per_chain_usd !== null);
  expect(costed.length).toBeGreaterThan(1);
  for (const r of costed) {
    const beaten = costed.some((o) => o.cost_per_chain_usd! <= r.cost_per_chain_usd! && o.per_bug_pct >= r.per_bug_pct && (o.cost_per_chain_usd! < r.cost_per_chain_usd! || o.per_bug_pct > r.per_bug_pct));
    expect(r.on_pareto_frontier, r.submission).toBe(!beaten);
  }
  await expect(page.locator("table#systems-table tbody tr").filter({ hasText: "on it" })).toHaveCount(costed.filter((r) => r.on_pareto_frontier).length);
  await expect(page.locator("table#systems-table tbody tr").filter({ hasText: "demo-breaker" }).filter({ hasText: "Seq" }).locator("td").last()).toHaveText("B");
  await shot(page, "compare");

  const lines = await download(page, page.locator("section#chains").getByRole("link", { name: "CSV" }));
  expect(lines[0]).toBe("continuous_id,length,a_resolved,b_resolved,more_resolved_by,resolved_by_a_only,resolved_by_b_only");
  expect(lines).toHaveLength(6);

  // the view is in the URL: reloading reproduces it
  await page.reload();
  await expect(page.getByLabel("System A")).toHaveValue(new URL(page.url()).searchParams.get("a")!);
  await expect(page.getByTestId("paired-difference")).toBeVisible();
});

test("compare: budget curves per system on a cap of steps or wall time, named on a tap, the choice in the URL, the curves as CSV; bad queries named", async ({ page, browser, baseURL }) => {
  await page.goto("/compare");
  await page.getByLabel("System A").selectOption({ label: "demo-gold · Seq (ChainSWE demo)" });
  await page.getByLabel("System B").selectOption({ label: "demo-breaker · Seq (ChainSWE demo)" });
  await page.getByRole("button", { name: "Compare" }).click();
  await expect(page).toHaveURL(/effort=cost_usd/);
  const choice = page.getByRole("navigation", { name: "Effort the cap is on" });
  await choice.getByRole("link", { name: "steps" }).click();
  await expect(page).toHaveURL(/effort=steps/);
  await expect(page).toHaveURL(/a=\w+.*b=\w+/);
  await expect(choice.getByRole("link", { name: "steps" })).toHaveAttribute("aria-current", "true");

  const perBug = page.locator("figure#budget-per_bug-chart");
  await expectChart(perBug, /^Per-bug % under a cap on steps per bug \(strict\)$/, "budget-table");
  await expectChart(page.locator("figure#budget-chain-chart"), /^Chain % under a cap on steps per bug \(strict\)$/, "budget-table");
  // every row of the demo reported its steps: one named line per row, the compared two lettered
  const legend = perBug.locator(".chart-legend li");
  await expect(legend).toHaveCount(16);
  await expect(legend.filter({ hasText: "A: demo-gold · Seq" })).toHaveCount(1);
  await expect(legend.filter({ hasText: "B: demo-breaker · Seq" })).toHaveCount(1);
  await expect(perBug.locator(".recharts-line")).toHaveCount(16);
  const table = page.locator("table#budget-table");
  await expect(table.locator("tbody tr")).toHaveCount(16);
  for (const h of ["System", "Mode", "Bugs on the curve", "No steps recorded"]) await expect(table.getByRole("columnheader", { name: h, exact: true })).toBeVisible();

  // a tap on a touch screen names the lines and the cap
  const touch = await browser.newContext({ baseURL, viewport: { width: 390, height: 900 }, hasTouch: true, isMobile: true });
  const phone = await touch.newPage();
  await phone.goto(page.url());
  const plot = phone.locator("figure#budget-per_bug-chart .recharts-surface").first();
  await expect(plot).toBeVisible();
  const box = (await plot.boundingBox())!;
  await phone.touchscreen.tap(box.x + box.width * 0.8, box.y + box.height * 0.5);
  const tip = phone.locator("figure#budget-per_bug-chart .recharts-tooltip-wrapper");
  await expect(tip).toContainText(/Cap: \d+ steps? per bug/);
  await expect(tip).toContainText("A: demo-gold · Seq");
  await expect(tip).toContainText(/\d+\.\d%/);
  await touch.close();

  // the CSV: one line per row and cap; at its largest cap a row with every step recorded scores as the leaderboard does
  const lines = await download(page, page.locator("section#budget").getByRole("link", { name: "CSV" }));
  const header = "submission,system,mode,cap,per_bug_pct,chain_pct,resolved_bugs,resolved_chains,bugs,chains,bugs_without_effort,compared";
  expect(lines[0]).toBe(header);
  const rows = lines.slice(1).map((l) => Object.fromEntries(l.split(",").map((v, i) => [header.split(",")[i]!, v])));
  const systems = (await (await page.request.get("/api/v1/compare?table=systems")).json()) as { rows: { submission: string; system: string; mode: string; per_bug_pct: number }[] };
  expect(new Set(rows.map((r) => r.submission))).toEqual(new Set(systems.rows.map((r) => r.submission)));
  const gold = rows.filter((r) => r.system === "demo-gold" && r.mode === "seq");
  expect(gold.length).toBeGreaterThan(1);
  expect(gold.every((r) => r.compared === "A" && r.bugs_without_effort === "0")).toBe(true);
  const caps = gold.map((r) => Number(r.cap));
  expect(caps).toEqual([...caps].sort((x, y) => x - y));
  const goldRow = systems.rows.find((r) => r.system === "demo-gold" && r.mode === "seq")!;
  expect(Number(gold.at(-1)!.per_bug_pct)).toBeCloseTo(goldRow.per_bug_pct, 6);

  // wall time: the demo's Oracle runs recorded none; they are named, not drawn, and counted
  await choice.getByRole("link", { name: "wall time" }).click();
  await expect(page).toHaveURL(/effort=wall_seconds/);
  await expect(page.locator("section#budget")).toContainText(/Not drawn, no wall time recorded: .*demo-gold \(oracle\)/);
  await expect(table.getByRole("columnheader", { name: "No wall time recorded" })).toBeVisible();
  const wall = (await (await page.request.get("/api/v1/compare?table=budget&effort=wall_seconds")).json()) as { effort: string; rows: { mode: string; cap: number | null; bugs_without_effort: number }[] };
  expect(wall.effort).toBe("wall_seconds");
  const oracle = wall.rows.filter((r) => r.mode === "oracle");
  expect(oracle.length).toBe(8);
  expect(oracle.every((r) => r.cap === null && r.bugs_without_effort > 0)).toBe(true);

  // bad queries: 4xx naming the field, never a 500
  const bad = async (query: string, status: number, field?: string) => {
    const res = await page.request.get(`/api/v1/compare?${query}`);
    expect(res.status(), query).toBe(status);
    const body = (await res.json()) as { error: string; field?: string };
    if (field) expect(body.field, query).toBe(field);
    return body;
  };
  expect((await bad("table=budget&effort=tokens", 400, "effort")).error).toMatch(/cost_usd|steps|wall_seconds/);
  await bad("table=budget&format=csv&effort=%00", 400, "effort");
  await bad("table=budget&scoring=loose", 400, "scoring");
  await bad(`table=budget&a=${"x".repeat(300)}`, 400, "a");
  await bad("table=budget&a=nope&b=nope2", 404);
  await bad("table=budgets", 400, "table");
});

test("a submission the visitor may not read is not compared, and the header links the analysis pages", async ({ page }) => {
  await page.goto("/compare?a=nope&b=nope2");
  await expect(page.getByText("One of the picked submissions was not found")).toBeVisible();
  expect((await page.request.get("/api/v1/compare?a=nope&b=nope2&table=difference")).status()).toBe(404);
  const nav = page.getByRole("navigation", { name: "Main" });
  const links: [string, string][] = [
    ["Positions", "/positions"],
    ["Chain errors", "/analysis"],
    ["Compare", "/compare"],
    ["Dataset", "/dataset"],
  ];
  for (const [name, href] of links) {
    await expect(nav.getByRole("link", { name, exact: true })).toHaveAttribute("href", href);
  }
});

test("at 360 px wide and without JavaScript the tables are there and only they scroll sideways", async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 360, height: 800 }, javaScriptEnabled: false });
  const page = await context.newPage();
  for (const [path, table] of [
    ["/positions", "by-config"],
    ["/analysis", "by-position"],
    ["/compare", "systems-table"],
  ] as const) {
    await page.goto(path);
    await expect(page.locator(`table#${table} th[scope="col"]`).first()).toBeVisible();
    // the page itself does not scroll sideways: wide tables scroll inside their .table-scroll box
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(362);
    await shot(page, `narrow-${path.slice(1)}`);
  }
  await context.close();
});
