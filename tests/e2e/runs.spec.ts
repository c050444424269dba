/**
 * Repeated runs (SPEC §7) in the browser: the demo's demo-drifter Seq entry has
 * three runs (lib/demo-seed.ts DEMO_RUNS: chain % 60, 80 and 40; pass^3 40).
 * Its leaderboard row, its CSV and JSON, the per-position spread, the runs on
 * a submission page; and a team adding a run to its own entry through the form.
 */
import { join } from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { ROOT } from "./site";
import { createTeamWithSystem, signUp } from "./steps";

const run = Date.now().toString(36);
const GOLD_SEQ = join(ROOT, "demo", "predictions", "demo-gold.seq.jsonl");

const board = (page: Page) => page.locator("table#leaderboard");
const drifterSeq = (page: Page) => board(page).locator("tbody tr").filter({ has: page.getByRole("link", { name: "demo-drifter", exact: true }) }).filter({ hasText: "Seq" });

/** A cell of a row by its column's header. */
async function cellText(page: Page, row: ReturnType<typeof drifterSeq>, header: RegExp): Promise<string> {
  const column = await board(page).locator("thead th").evaluateAll((ths, source) => ths.findIndex((th) => new RegExp(source).test(th.textContent ?? "")), header.source);
  expect(column).toBeGreaterThan(0);
  return (await row.locator("th, td").nth(column).textContent()) ?? "";
}

test("a row of three runs: the mean, the spread, pass^k, and the same in its CSV and JSON", async ({ page, request }) => {
  // runs, pass^k and the cost per solved chain are shown when chosen (cols)
  await page.goto("/?mode=seq&cols=config,pass_k,runs,cost,cost_per_solved,peak_context,date,badges");
  const row = drifterSeq(page);
  await expect(row).toHaveCount(1);
  expect(await cellText(page, row, /^Runs/)).toBe("3");
  // chain %: the mean of 60, 80 and 40, and their spread under it
  const chain = await cellText(page, row, /^Chain %/);
  expect(chain).toMatch(/^60\.0/);
  expect(chain).toContain("runs 40.0–80.0");
  expect(await cellText(page, row, /^Chain pass\^k/)).toMatch(/^40\.0\s*\[/);
  // a single run has no pass^k and one run
  const gold = board(page).locator("tbody tr").filter({ has: page.getByRole("link", { name: "demo-gold", exact: true }) }).filter({ hasText: "Seq" });
  expect(await cellText(page, gold, /^Chain pass\^k/)).toBe("—");
  expect(await cellText(page, gold, /^Runs/)).toBe("1");

  const json = (await (await request.get("/api/v1/leaderboard?version=demo&mode=seq")).json()) as {
    rows: { system: string; chain: { value: number }; runs: { k: number; submission_ids: string[]; chain: { min: number; max: number }; pass_k: { value: number; ci: number[] }; by_run: { chain: number }[] } | null }[];
  };
  const drifter = json.rows.find((r) => r.system === "demo-drifter")!;
  expect(drifter.runs).toMatchObject({ k: 3, chain: { min: 40, max: 80 }, pass_k: { value: 40 }, by_run: [{ chain: 60 }, { chain: 80 }, { chain: 40 }] });
  expect(drifter.runs!.submission_ids).toHaveLength(3);
  expect(drifter.chain.value).toBeCloseTo(60, 9);
  expect(json.rows.find((r) => r.system === "demo-gold")!.runs).toBeNull();
  // what a solved chain cost: the cost per chain over the chain solve rate
  const costs = (await (await request.get("/api/v1/leaderboard?version=demo&mode=seq")).json()) as { rows: { system: string; cost_per_chain: number; cost_per_solved_chain: number; chain: { value: number } }[] };
  const drifterCost = costs.rows.find((r) => r.system === "demo-drifter")!;
  expect(drifterCost.cost_per_solved_chain).toBeCloseTo(drifterCost.cost_per_chain / (drifterCost.chain.value / 100), 9);
  expect(await cellText(page, row, /^Cost \/ solved chain/)).toBe(`$${drifterCost.cost_per_solved_chain.toFixed(2)}`);

  const csv = (await (await request.get("/api/v1/leaderboard?version=demo&mode=seq&format=csv")).text()).trim().split("\n");
  const head = csv[0]!.split(",");
  const line = csv.find((l) => l.includes(",demo-drifter,"))!.split(",");
  const col = (name: string) => line[head.indexOf(name)];
  expect([col("runs"), col("chain_pct"), col("chain_min"), col("chain_max"), col("chain_pass_k_pct")]).toEqual(["3", "60", "40", "80", "40"]);
});

test("positions: the run-to-run spread brackets each Seq cell, and the export carries it", async ({ page, request }) => {
  await page.goto("/positions?positions=all");
  await expect(page.locator(".pos-runs").first()).toContainText(/^runs \d+\.\d–\d+\.\d$/);
  const doc = (await (await request.get("/api/v1/positions?version=demo&positions=all&table=by_config")).json()) as {
    rows: { configuration: string; mode: string; resolved_pct: number; runs_min_pct: number | null; runs_max_pct: number | null }[];
  };
  // the demo systems' configuration: demo-drifter's three runs are among its Seq systems
  const seq = doc.rows.filter((r) => r.mode === "seq" && r.configuration === "Baseline");
  expect(seq.length).toBeGreaterThan(0);
  for (const r of seq) {
    expect(r.runs_min_pct).not.toBeNull();
    expect(r.runs_min_pct!).toBeLessThanOrEqual(r.resolved_pct + 1e-9);
    expect(r.runs_max_pct!).toBeGreaterThanOrEqual(r.resolved_pct - 1e-9);
  }
  // every Oracle system ran once: no spread
  expect(doc.rows.filter((r) => r.mode === "oracle").every((r) => r.runs_min_pct === null)).toBe(true);
});

test("a submission page lists its entry's runs; a team adds a run to its own entry through the form", async ({ page }) => {
  await page.goto("/?mode=seq");
  await drifterSeq(page).getByRole("link", { name: "demo-drifter", exact: true }).click();
  const runs = page.getByRole("region", { name: "Runs" });
  await expect(runs).toContainText("Run 1 of 3");
  await runs.getByRole("link", { name: "run 2" }).click();
  await expect(page.getByRole("region", { name: "Runs" })).toContainText("Run 2 of 3");
  // a visitor cannot add a run
  await expect(page.getByRole("link", { name: "Add a run" })).toHaveCount(0);

  await signUp(page, `runs-${run}`);
  await createTeamWithSystem(page, `Runs team ${run}`, { name: "repeater", model: "repeat-model" });
  await page.goto("/submit");
  await page.getByLabel("Mode").selectOption("seq");
  await page.getByLabel("Predictions file").setInputFiles(GOLD_SEQ);
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page).toHaveURL(/\/submissions\/[a-z0-9]+$/);
  const first = new URL(page.url()).pathname;
  await expect(page.getByRole("region", { name: "Runs" })).toContainText("A single run");
  await page.getByRole("link", { name: "Add a run" }).click();
  await expect(page.getByTestId("submit-run-of")).toContainText("run 2");
  await expect(page.getByLabel("Mode")).toBeDisabled();
  await page.getByLabel("Predictions file").setInputFiles(GOLD_SEQ);
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page).toHaveURL(/\/submissions\/[a-z0-9]+$/);
  const second = new URL(page.url()).pathname;
  expect(second).not.toBe(first);
  await expect(page.getByRole("region", { name: "Runs" })).toContainText("Run 2 of 2");
  await page.getByRole("region", { name: "Runs" }).getByRole("link", { name: "run 1" }).click();
  await expect(page).toHaveURL(new RegExp(`${first}$`));

  // an entry that is not the viewer's is refused by name, not joined
  await page.goto("/submit?run_of=not-a-submission");
  await expect(page.locator("p.errors[role=alert]")).toContainText("No submission not-a-submission of your teams' systems");

  // the two uploads need no evaluation here: cancelled (while still open), so the other specs' queue stays short
  for (const path of [second, first]) {
    await page.goto(path);
    const cancel = page.getByRole("button", { name: "Cancel evaluation" });
    if ((await cancel.count()) > 0) await cancel.click();
  }
});

test("run manifests and rules: verified and rule-breach badges, the manifest with its command, the version's rules, a refused upload", async ({ page, request }) => {
  await page.goto("/?mode=seq");
  // three reviewed runs within the demo rules: verified; demo-breaker declared a doubled time limit: flagged
  await expect(drifterSeq(page).locator(".badge.lb-verified")).toHaveText("verified");
  const breaker = board(page).locator("tbody tr").filter({ has: page.getByRole("link", { name: "demo-breaker", exact: true }) }).filter({ hasText: "Seq" });
  await expect(breaker.locator(".badge.lb-rule_breach")).toHaveAttribute("title", /limits\.time_limit_multiplier: 2 is over this version's 1/);
  const json = (await (await request.get("/api/v1/leaderboard?version=demo&mode=seq")).json()) as { rows: { system: string; verified: boolean; rule_breaches: { run: number; field: string }[] }[] };
  expect(json.rows.find((r) => r.system === "demo-drifter")).toMatchObject({ verified: true, rule_breaches: [] });
  expect(json.rows.find((r) => r.system === "demo-breaker")).toMatchObject({ verified: false, rule_breaches: [{ run: 1, field: "limits.time_limit_multiplier" }] });

  await drifterSeq(page).getByRole("link", { name: "demo-drifter", exact: true }).click();
  const manifest = page.getByRole("region", { name: "Run manifest" });
  await expect(manifest).toContainText("chainswe demo agent 1.0");
  await expect(manifest.getByTestId("manifest-command")).toHaveText("node demo/agent.mjs demo --dataset demo/dataset.jsonl --system demo-drifter");
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  await manifest.getByRole("button", { name: "Copy command" }).click();
  await expect(manifest.getByRole("status")).toHaveText("Copied.");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe("node demo/agent.mjs demo --dataset demo/dataset.jsonl --system demo-drifter");

  // a bug's page says what the agent spent on it
  await page.goto(`${new URL(page.url()).pathname}/chains/inikit-chain-1/bugs/1`);
  const effort = page.getByRole("region", { name: "Agent effort on this bug" });
  await expect(effort).toContainText(/Input tokens\s*\d+\.\dk/);
  // its trajectory's steps and tool calls, and the turns the prediction line reported, each named as what it is
  await expect(effort).toContainText(/Steps \(its trajectory\)\s*\d+ steps? · \d+ tool calls?/);
  await expect(effort).toContainText(/Turns \(as the predictions report\)\s*\d+ turns?/);

  await page.goto("/dataset/demo");
  await expect(page.getByTestId("version-rules")).toContainText("The test lists must not be visible to the agent: an upload that breaks it is refused.");

  await signUp(page, `rules-${run}`);
  await createTeamWithSystem(page, `Rules team ${run}`, { name: "peeker", model: "peek-model" });
  await page.goto("/submit");
  await page.getByLabel("Mode").selectOption("seq");
  await page.getByLabel("Predictions file").setInputFiles(GOLD_SEQ);
  const peeking = { agent: { name: "peeker", version: "0.1" }, model: "peek-model", limits: { steps_per_bug: 10, time_per_bug_s: 60 }, context: "Baseline", memory: "none", visible: { hints: false, test_lists: true }, command: "peek" };
  await page.getByLabel("Run manifest (optional)").setInputFiles({ name: "manifest.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(peeking)) });
  const before = page.url();
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page.locator(".field .error").filter({ hasText: "visible.test_lists" })).toContainText("breaks dataset version demo's rules");
  expect(page.url()).toBe(before);
});
