/**
 * The demo's release cycle (SPEC §8, lib/demo-cycle.ts) as the seeded demo
 * shows it: its proposal of two chains made from the demo repositories,
 * validated by the workers in Docker (inikit-chain-2 valid and accepted by the
 * demo reviewer; moneyx-chain-2 refused by the demo version's flaky_tests rule,
 * its flaky test named); version demo-2 released from demo with that chain, on
 * the version selector and with its notes, manifest, one held-out chain and
 * the demo's Mini split; and the board's default version, the newest with
 * published rows (demo, while demo-2 has none).
 */
import { expect, test } from "@playwright/test";
import { DEMO_HELD_OUT, DEMO_PROPOSER, DEMO_RELEASE, DEMO_REVIEW_REASON, DEMO_REVIEWER, LIVE_QUOTE_TEST } from "@/lib/demo-proposal";
import { DEMO_VERSION } from "./site";
import { deleteVersion, shot, signInAsReviewer } from "./steps";
import { dbGet } from "./hostile-steps";

const run = Date.now().toString(36);

test("the demo's proposal: one chain valid and accepted, the flaky one refused naming its test", async ({ page }) => {
  const { id } = dbGet<{ id: string }>(`SELECT p.id FROM ChainProposal p JOIN User u ON u.id = p.proposedById WHERE u.username = ?`, DEMO_PROPOSER)!;
  // a proposal is its proposer's and the reviewers': a visitor is told it does not exist
  expect((await page.goto(`/dataset/proposals/${id}`))!.status()).toBe(404);
  await signInAsReviewer(page, `cycle-rev-${run}`);
  await page.goto("/dataset/proposals");
  await expect(page.getByRole("row", { name: new RegExp(`${id}.*${DEMO_PROPOSER}`) })).toBeVisible();
  await page.goto(`/dataset/proposals/${id}`);
  await expect(page.getByRole("heading", { level: 1 })).toContainText(id);

  const valid = page.getByTestId("proposed-inikit-chain-2");
  await expect(valid).toContainText(`accepted by ${DEMO_REVIEWER}: ${DEMO_REVIEW_REASON}`);
  await expect(page.getByTestId("validation-inikit-chain-2")).toContainText("passes");
  await expect(page.getByTestId("validation-inikit-chain-2")).not.toContainText(LIVE_QUOTE_TEST);

  const flaky = page.getByTestId("proposed-moneyx-chain-2");
  await expect(flaky).toContainText("Refused");
  await expect(flaky).toContainText(/bug 1 \(chainswe-demo__moneyx-1-c2\): flaky test\(s\) tests\/test_live_quote\.py::test_live_quote\[\w+\]/);
  await expect(flaky).toContainText("the version refuses chains with flaky tests");
  await expect(page.getByTestId("validation-moneyx-chain-2")).toContainText(`${LIVE_QUOTE_TEST}[`);
  await expect(page.getByTestId("validation-moneyx-chain-2")).toContainText("refuse the chain");
  // a refused chain can only be rejected: its review form offers no Accept
  const review = page.getByRole("form", { name: "Review moneyx-chain-2" });
  await expect(review.getByRole("button", { name: "Reject" })).toBeVisible();
  await expect(review.getByRole("button", { name: "Accept" })).toHaveCount(0);
  await expect(review).toContainText("Only a valid chain can be accepted.");
  await flaky.getByText("Validation logs").click();
  await expect(flaky.locator("pre")).toContainText("=== run 3 of");
  await shot(page, "demo-proposal");
});

test("demo-2 is on the version selector, newest first; the board opens on demo, the newest version with published rows", async ({ page, request }) => {
  await page.goto("/");
  const selector = page.getByLabel("Dataset version");
  await expect(selector.locator("option")).toHaveText([DEMO_RELEASE, DEMO_VERSION]);
  await expect(selector).toHaveValue(DEMO_VERSION);
  await expect(page.locator("#leaderboard tbody tr").first()).toBeVisible();
  const board = (await (await request.get("/api/v1/leaderboard")).json()) as { version: string; versions: string[] };
  expect(board.version).toBe(DEMO_VERSION);
  expect(board.versions).toEqual([DEMO_RELEASE, DEMO_VERSION]);

  await selector.selectOption(DEMO_RELEASE);
  await expect(page).toHaveURL(new RegExp(`version=${DEMO_RELEASE}`));
  await expect(page.locator("#leaderboard tbody tr")).toHaveCount(0);
});

test("demo-2's page: released from demo, its notes name the added chain, its manifest, one chain held out; demo's Mini split", async ({ page, request }) => {
  await page.goto(`/dataset/${DEMO_RELEASE}`);
  await expect(page.getByTestId("version-parent")).toHaveText(DEMO_VERSION);
  const notes = page.getByTestId("release-notes");
  await expect(notes.getByRole("listitem")).toHaveCount(1);
  await expect(notes).toContainText(`added inikit-chain-2: proposal`);
  await expect(notes).toContainText(`by ${DEMO_PROPOSER}, accepted by ${DEMO_REVIEWER}`);
  await expect(notes).toContainText(DEMO_REVIEW_REASON);
  await expect(page.getByTestId("version-rules")).toContainText("1 chain(s) are held out");
  await expect(page.getByTestId("version-rules")).toContainText("A Mini split of 3 chains follows the published rows");
  await expect(page.getByTestId("version-mini")).toHaveText("none yet");
  // the held-out chain is left out for a visitor: not in the chains table, its page 404
  await expect(page.getByRole("link", { name: "inikit-chain-2" }).first()).toBeVisible();
  await expect(page.getByRole("link", { name: DEMO_HELD_OUT })).toHaveCount(0);
  expect((await request.get(`/dataset/${DEMO_RELEASE}/chains/${DEMO_HELD_OUT}`)).status()).toBe(404);
  await shot(page, "demo-2");

  const manifest = (await (await request.get(`/api/v1/dataset/${DEMO_RELEASE}/records?format=manifest`)).json()) as { parent: string | null; manifest: { records: { continuous_id: string }[] } };
  expect(manifest.parent).toBe(DEMO_VERSION);
  expect(manifest.manifest.records.map((r) => r.continuous_id)).toEqual(["inikit-chain-1", "moneyx-chain-1", "semverkit-chain-1", "tablefmt-chain-1", "inikit-chain-2"]);

  // the demo's own Mini split, computed over its published rows
  await page.goto(`/dataset/${DEMO_VERSION}`);
  await expect(page.getByTestId("version-mini")).toContainText(/3 chains, Kendall τ-b/);
});

test("a site admin releases a version from the form, as chainswe dataset release does: refused naming the chain without a reason, then released with its notes", async ({ page }) => {
  const version = `demo-3-${run}`;
  try {
    await signInAsReviewer(page, `cycle-admin-${run}`);
    await page.goto("/admin");
    const form = page.getByRole("form", { name: "Release a version" });
    await form.getByLabel("New version").fill(version);
    await form.getByLabel("From").selectOption(DEMO_RELEASE);
    await form.getByLabel("Retire (chain ids)").fill("tablefmt-chain-1");
    await form.getByRole("button", { name: "Release" }).click();
    await expect(form.getByRole("alert")).toContainText("chain tablefmt-chain-1: say why it is removed");
    expect(dbGet(`SELECT count(*) AS n FROM DatasetVersion WHERE version = ?`, version)).toEqual({ n: 0 });
    await form.getByLabel(/^Why/).fill("tablefmt-chain-1: retired to show the release form");
    await form.getByRole("button", { name: "Release" }).click();
    await expect(form.getByRole("status")).toContainText(`released ${version}: 5 chains`);
    await page.goto(`/dataset/${version}`);
    await expect(page.getByTestId("version-parent")).toHaveText(DEMO_RELEASE);
    await expect(page.getByTestId("release-notes")).toContainText("removed tablefmt-chain-1: retired to show the release form");
    await shot(page, "released-from-form");
  } finally {
    deleteVersion(version);
  }
});
