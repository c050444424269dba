/**
 * Failure pages on the demo benchmark really evaluated: from
 * the demo-overshoot Seq submission down to a chain error — its cause and
 * evidence, Oracle and Seq side by side, the overshoot file marked on the prior
 * bug, the failing test's error and full log — with the agent's patch hidden
 * from visitors and shown to a reviewer; a private submission's page is 404
 * for a visitor.
 */
import { join } from "node:path";
import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { DEMO_VERSION, ROOT } from "./site";
import { createTeamWithSystem, createToken, shot, signInAsReviewer, signUp } from "./steps";

const run = Date.now().toString(36);
/** a line only the demo-overshoot agent's moneyx 1 patch has (its stray currency.py edit) */
const AGENT_ONLY = "unknown currencies fall back to cents";

/** From the submission list to the demo-overshoot Seq submission, then to a bug of its results table. */
async function openOvershootBug(page: Page, instance: string): Promise<void> {
  await page.goto(`/submissions?mode=seq&dataset_version=${DEMO_VERSION}`);
  await page.getByRole("link", { name: "demo-overshoot", exact: true }).first().click();
  await expect(page.getByRole("heading", { name: /demo-overshoot · Seq/ })).toBeVisible();
  await expect(page.getByTestId("submission-visibility")).toHaveText("public");
  await page.getByRole("link", { name: instance }).click();
  await expect(page.getByRole("heading", { level: 1, name: new RegExp(instance) })).toBeVisible();
}

test("a chain error: cause and evidence, Oracle | Seq, the overshoot file, failing tests and the full log (as a visitor)", async ({ page }) => {
  await openOvershootBug(page, "chainswe-demo__moneyx-2");
  const error = page.getByTestId("chain-error");
  await expect(error.getByTestId("chain-error-cause")).toHaveText("overshoot");
  const evidence = error.getByRole("table", { name: "Evidence" });
  await expect(evidence.getByRole("row", { name: /bug 1.*overshoot.*moneyx\/currency\.py/ })).toBeVisible();

  // Oracle | Seq side by side
  const oracle = page.getByTestId("side-oracle");
  const seq = page.getByTestId("side-seq");
  await expect(oracle.locator(".outcome")).toHaveText("resolved");
  await expect(seq.locator(".outcome")).toHaveText("unresolved");
  await expect(seq).toContainText("broke working code");
  const oracleBox = (await oracle.boundingBox())!;
  const seqBox = (await seq.boundingBox())!;
  expect(seqBox.x).toBeGreaterThan(oracleBox.x + oracleBox.width - 1);
  expect(Math.abs(seqBox.y - oracleBox.y)).toBeLessThan(2);

  // the failing test with the first lines of its error, and the full log
  await expect(seq.getByText("tests/test_currency.py::test_money_in_unknown_currency_raises")).toBeVisible();
  await expect(seq.getByLabel(/Error of tests\/test_currency\.py::test_money_in_unknown_currency_raises/)).toContainText("DID NOT RAISE");
  const downloadHref = (await seq.getByTestId("log-download-seq").getAttribute("href"))!;
  const log = await page.request.get(downloadHref);
  expect(log.status()).toBe(200);
  expect(log.headers()["content-disposition"]).toMatch(/^attachment; filename=".+-moneyx-chain-1-2\.log"$/);
  const logText = await log.text();
  expect(logText).toContain("=== chainswe seq moneyx-chain-1 bug 2 (chainswe-demo__moneyx-2) ===");

  // a visitor sees what the agent touched, not its patch
  await expect(page.getByTestId("patch-hidden")).toContainText("visible to the team and to reviewers only");
  await expect(page.getByRole("group", { name: "Gold patch" })).toContainText("def register(code, symbol, decimals):");
  await expect(page.getByRole("group", { name: "Agent patch" })).toHaveCount(0);
  await shot(page, "failure-chain-error");

  // the excerpt links to its own line of the full log page, which the download matches line for line
  const excerpt = seq.getByLabel(/Error of tests\/test_currency\.py::test_money_in_unknown_currency_raises/);
  const firstExcerptLine = (await excerpt.innerText()).split("\n")[0]!;
  const lineLink = seq.getByRole("link", { name: /^line \d+ of the full log$/ }).first();
  const lineNo = Number((await lineLink.innerText()).match(/\d+/)![0]);
  await lineLink.click();
  await expect(page).toHaveURL(new RegExp(`/log#L${lineNo}$`));
  await expect(page.getByRole("heading", { level: 1, name: /Test log: bug 2 of moneyx-chain-1/ })).toBeVisible();
  const target = page.locator(`[id="L${lineNo}"]`);
  await expect(target).toBeInViewport();
  await expect(target).toContainText(firstExcerptLine.trim());
  expect(logText.split("\n")[lineNo - 1]).toContain(firstExcerptLine.trim());
  await expect(page.locator(".log-line:target")).toHaveCount(1);
  await shot(page, "failure-log-line");
  await page.getByRole("link", { name: "← bug 2 of moneyx-chain-1" }).click();
  await expect(page.getByRole("heading", { level: 1, name: /Bug 2 of 3/ })).toBeVisible();

  // the evidence's prior bug: its stray file is marked overshoot (icon and word, not colour alone)
  await evidence.getByRole("link", { name: "bug 1" }).click();
  await expect(page.getByRole("heading", { level: 1, name: /Bug 1 of 3/ })).toBeVisible();
  const files = page.getByTestId("file-sets");
  const stray = files.getByRole("row", { name: /moneyx\/currency\.py/ });
  await expect(stray.getByRole("cell").nth(1)).toHaveText("▲ overshoot");
  await expect(stray.getByRole("cell").nth(1)).toHaveClass(/file-overshoot/);
  await expect(files.getByRole("row", { name: /moneyx\/money\.py/ }).getByRole("cell").nth(0)).toHaveText("✓ gold");
  await expect(page.getByRole("list", { name: "Legend" })).toContainText("overshoot: only the agent's patch touches it");
  await expect(page.getByTestId("not-chain-error")).toContainText("first bug");
  expect(await page.content()).not.toContain(AGENT_ONLY);
  await shot(page, "failure-prior-bug-visitor");

  // navigation: next bug, back to the submission
  await page.getByRole("link", { name: "bug 2 →" }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: /Bug 2 of 3/ })).toBeVisible();
  await page.getByRole("link", { name: "← Back to the submission" }).first().click();
  await expect(page.getByRole("heading", { name: /demo-overshoot · Seq/ })).toBeVisible();
});

test("a reviewer sees the agent's patch as a highlighted, numbered diff", async ({ page }) => {
  await signInAsReviewer(page, `rev-${run}`);
  await openOvershootBug(page, "chainswe-demo__moneyx-1");
  const agent = page.getByRole("group", { name: "Agent patch" });
  await expect(agent).toContainText(AGENT_ONLY);
  await expect(page.getByTestId("patch-hidden")).toHaveCount(0);
  // the stray line is an added line with its new line number and a syntax-highlighted comment
  const added = agent.getByRole("row", { name: new RegExp(AGENT_ONLY) });
  await expect(added).toHaveClass(/diff-add/);
  await expect(added.getByRole("cell").nth(1)).toHaveText(/^\d+$/);
  await expect(added.locator(".token.comment")).toContainText(AGENT_ONLY);
  await expect(agent.getByText("moneyx/currency.py", { exact: true })).toBeVisible();
  await shot(page, "failure-reviewer-patch");

  // close to gold (SPEC §7): the similarity, both patches side by side, the added lines they share marked
  await expect(page.getByTestId("gold-similarity")).toHaveText(/^Similarity to gold: 0\.78 \(close to gold from 0\.9\)\./);
  const gold = page.getByRole("group", { name: "Gold patch" });
  const [a, g] = [await agent.boundingBox(), await gold.boundingBox()];
  expect(g!.x).toBeGreaterThan(a!.x + a!.width / 2);
  await expect(added).not.toHaveClass(/diff-shared/);
  const sharedInAgent = agent.locator("tr.diff-shared");
  expect(await sharedInAgent.count()).toBeGreaterThan(0);
  expect(await gold.locator("tr.diff-shared").count()).toBeGreaterThan(0);
  await expect(sharedInAgent.first().getByLabel(/added, also in the other patch/)).toHaveText("=");
  await shot(page, "failure-close-to-gold");
});

test("close to gold on the board: demo-gold's rows on every bug, demo-empty's and demo-cheater's on none, in the JSON too", async ({ page }) => {
  await page.goto("/?mode=seq");
  const rowOf = (name: string) => page.locator("table#leaderboard tbody tr").filter({ has: page.getByRole("link", { name, exact: true }) });
  const badge = rowOf("demo-gold").locator(".lb-close_to_gold");
  await expect(badge).toHaveText("close to gold 100.0%");
  await expect(badge).toHaveAttribute("title", /^16 of 16 graded bugs have a model patch at least 0\.9 similar to the gold patch/);
  await expect(rowOf("demo-empty").locator(".lb-close_to_gold")).toHaveCount(0);
  await expect(rowOf("demo-cheater").locator(".lb-close_to_gold")).toHaveCount(0);
  const doc = (await (await page.request.get("/api/v1/leaderboard?mode=seq")).json()) as { rows: { system: string; close_to_gold_bugs: number; close_to_gold_share: number | null }[] };
  expect(doc.rows.find((r) => r.system === "demo-gold")).toMatchObject({ close_to_gold_bugs: 16, close_to_gold_share: 1 });
  expect(doc.rows.find((r) => r.system === "demo-empty")).toMatchObject({ close_to_gold_bugs: 0, close_to_gold_share: 0 });
});

test("a private submission's failure page is 404 for a visitor and readable by its team", async ({ page, playwright, baseURL }) => {
  await signUp(page, `fay-${run}`);
  const teamPath = await createTeamWithSystem(page, `Private team ${run}`, { name: "quiet", model: "quiet-model" });
  const token = await createToken(page, "laptop", ["submit", "read"]);
  const predictions = readFileSync(join(ROOT, "demo", "predictions", "demo-gold.oracle.jsonl"));
  const res = await page.request.post("/api/v1/submissions", {
    headers: { authorization: `Bearer ${token}` },
    multipart: {
      system: `${teamPath.split("/").pop()}/quiet`,
      dataset_version: DEMO_VERSION,
      mode: "oracle",
      predictions: { name: "p.jsonl", mimeType: "application/x-ndjson", buffer: predictions },
    },
  });
  expect(res.status()).toBe(201);
  const { id } = (await res.json()) as { id: string };
  const url = `/submissions/${id}/chains/moneyx-chain-1/bugs/2`;

  const visitor = await playwright.request.newContext({ baseURL });
  expect((await visitor.get(url)).status()).toBe(404);
  expect((await visitor.get(`${url}/log`)).status()).toBe(404);
  await visitor.dispose();

  const mine = await page.goto(url);
  expect(mine!.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1, name: /Bug 2 of 3/ })).toBeVisible();
  await expect(page.locator(".badge.private").first()).toBeVisible();
  await shot(page, "failure-private-team");
});
