/**
 * The submission journey in a real browser against the real site:
 * a team signs up, creates a team and a system, uploads demo predictions,
 * watches the evaluation finish (the site's worker replays the chains in
 * Docker), asks for publication; a reviewer approves; a visitor then sees the
 * results. Along the way: a bad upload shows line-numbered errors and stores
 * nothing, and another team cannot read the private submission by its URL.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { ROOT } from "./site";
import { createTeamWithSystem, signInAsReviewer, signUp } from "./steps";

const GOLD_SEQ = join(ROOT, "demo", "predictions", "demo-gold.seq.jsonl");
const run = Date.now().toString(36);

async function newPage(browser: Browser): Promise<Page> {
  return (await browser.newContext()).newPage();
}

/** Submissions the API lists for this page's viewer. */
async function listedIds(page: Page): Promise<string[]> {
  const res = await page.request.get("/api/v1/submissions");
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { items: { id: string }[] }).items.map((s) => s.id);
}

test("sign up, create a team and a system, submit, watch, publish, review, and read as a visitor", async ({ browser }) => {
  const alice = await newPage(browser);
  const teamName = `Team ${run}`;
  await signUp(alice, `alice-${run}`);
  await createTeamWithSystem(alice, teamName, { name: "gold-agent", model: "gold-model-1" });

  // a bad upload: line-numbered errors, nothing stored
  const before = await listedIds(alice);
  const lines = readFileSync(GOLD_SEQ, "utf8").trim().split("\n");
  const bad = [lines[0], "{not json", lines[1]!.replace(/"continuous_id": ?"[^"]+"/, '"continuous_id": "no-such-chain"'), ...lines.slice(2)].join("\n");
  await alice.goto("/submit");
  await alice.getByLabel("Mode").selectOption("seq");
  await alice.getByLabel("Predictions file").setInputFiles({ name: "bad.jsonl", mimeType: "application/jsonl", buffer: Buffer.from(bad) });
  await alice.getByRole("button", { name: "Submit" }).click();
  await expect(alice.getByText(/line 2\b.*malformed JSON/i)).toBeVisible();
  await expect(alice.getByText(/line 3\b.*continuous_id.*no-such-chain/i)).toBeVisible();
  expect(await listedIds(alice)).toEqual(before);

  // the real upload, then the live progress until the evaluation completes
  await alice.getByLabel("Predictions file").setInputFiles(GOLD_SEQ);
  await alice.getByRole("button", { name: "Submit" }).click();
  await expect(alice).toHaveURL(/\/submissions\/[a-z0-9]+$/);
  const submissionUrl = new URL(alice.url()).pathname;
  await expect(alice.getByTestId("submission-visibility")).toContainText(/private/i);
  await expect(alice.getByTestId("submission-status")).toHaveText(/completed/i, { timeout: 5 * 60_000 });
  await expect(alice.getByTestId("chains-done")).toHaveText("5/5");
  await expect(alice.getByRole("link", { name: /log/i }).first()).toBeVisible();

  // another team cannot read it, by page or by API
  const bob = await newPage(browser);
  await signUp(bob, `bob-${run}`);
  expect((await bob.goto(submissionUrl))?.status()).toBe(404);
  expect((await bob.request.get(`/api/v1${submissionUrl}`)).status()).toBe(404);
  expect((await bob.request.get(`/api/v1${submissionUrl}/results.jsonl`)).status()).toBe(404);
  const visitor = await newPage(browser);
  expect((await visitor.goto(submissionUrl))?.status()).toBe(404);

  // the team asks for publication; a reviewer (made on the command line) approves
  await alice.reload();
  await alice.getByRole("button", { name: "Request publication" }).click();
  await expect(alice.getByTestId("submission-visibility")).toContainText(/pending/i);
  const rita = await newPage(browser);
  await signInAsReviewer(rita, `rita-${run}`);
  await rita.goto("/review");
  await rita.getByRole("link", { name: /gold-agent/ }).first().click();
  await expect(rita).toHaveURL(new RegExp(`${submissionUrl}$`));
  await rita.getByRole("button", { name: "Approve" }).click();
  await expect(rita.getByTestId("submission-visibility")).toContainText(/public/i);

  // a visitor now sees it, with its results, but not the team's predictions
  expect((await visitor.goto(submissionUrl))?.status()).toBe(200);
  await expect(visitor.getByTestId("submission-status")).toHaveText(/completed/i);
  await expect(visitor.getByText("gold-model-1").first()).toBeVisible();
  const results = await visitor.request.get(`/api/v1${submissionUrl}/results.jsonl`);
  expect(results.status()).toBe(200);
  const graded = (await results.text()).trim().split("\n").map((l) => JSON.parse(l) as { resolved: boolean });
  expect(graded).toHaveLength(16);
  expect(graded.every((g) => g.resolved)).toBe(true);
  expect((await visitor.request.get(`/api/v1${submissionUrl}/predictions.jsonl`)).status()).toBe(404);
  await visitor.goto("/submissions");
  await expect(visitor.getByRole("link", { name: /gold-agent/ }).first()).toBeVisible();
  await visitor.goto("/");
  // the leaderboard: the system's row (linked to its submission) with its team and its per-bug % (the cell after model, scaffold, configuration, mode)
  const row = visitor.getByRole("row").filter({ has: visitor.getByRole("link", { name: "gold-agent", exact: true }) });
  await expect(row).toContainText(teamName);
  await expect(row.getByRole("cell").nth(3)).toContainText("100.0");
});
