/**
 * Chain proposals in a real browser against the real site (SPEC §8): a
 * signed-in user proposes two chains made from the demo repositories through
 * /dataset/proposals/new (a bad file first: every problem listed, nothing
 * stored), the site's worker validates them in Docker on the demo images (one
 * valid; one whose gold leaves a FAIL_TO_PASS failing, refused naming the bug
 * and the test), the proposer cannot review their own chains, and a reviewer
 * rejects without a reason (refused), then accepts the valid chain with one.
 */
import { writeFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { jsonl, proposedChain } from "@/lib/testing/proposed-chains";
import { DEMO_VERSION } from "./site";
import { shot, signInAsReviewer, signUp } from "./steps";
import { dbGet } from "./hostile-steps";

const run = Date.now().toString(36);

test("propose → validate on the workers → review", async ({ browser }) => {
  test.setTimeout(10 * 60_000);
  const proposer = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  const page = await proposer.newPage();
  await signUp(page, `prop-${run}`);

  // a bad file: a malformed line and a wrong type, both listed; nothing stored
  const bad = test.info().outputPath("bad.jsonl");
  writeFileSync(bad, `${JSON.stringify(proposedChain("inikit", `bad-${run}`, { bugs: 1 }))}\n{oops\n${JSON.stringify({ ...proposedChain("moneyx", `bad-${run}`, { bugs: 1 }), bug_fixes: 3 })}\n`);
  const before = dbGet<{ n: number }>(`SELECT count(*) AS n FROM ChainProposal`)!.n;
  await page.goto("/dataset/proposals/new");
  await page.getByLabel("Dataset version").selectOption(DEMO_VERSION);
  await page.getByLabel("Chains file").setInputFiles(bad);
  await page.getByRole("button", { name: "Propose" }).click();
  const problems = page.getByRole("alert").filter({ hasText: "line" });
  await expect(problems).toContainText("line 2");
  await expect(problems).toContainText("line 3");
  await expect(problems).toContainText("bug_fixes");
  expect(dbGet<{ n: number }>(`SELECT count(*) AS n FROM ChainProposal`)!.n).toBe(before);

  const good = test.info().outputPath("proposal.jsonl");
  const valid = proposedChain("inikit", `e2e-${run}`, { bugs: 1 });
  const failing = proposedChain("moneyx", `e2e-${run}`, { bugs: 1, goldFails: true });
  writeFileSync(good, jsonl([valid, failing]));
  await page.getByLabel("Chains file").setInputFiles(good);
  await page.getByRole("button", { name: "Propose" }).click();
  await expect(page).toHaveURL(/\/dataset\/proposals\/(?!new$)\w+$/);
  const url = new URL(page.url()).pathname;

  // validation runs on the site's worker, in Docker; the page shows each verdict
  const validSection = page.getByTestId(`proposed-${valid.continuous_id}`);
  const failingSection = page.getByTestId(`proposed-${failing.continuous_id}`);
  await expect(async () => {
    await page.reload();
    await expect(validSection).toContainText("valid, awaiting review", { timeout: 1000 });
    await expect(failingSection).toContainText("Refused", { timeout: 1000 });
  }).toPass({ timeout: 8 * 60_000, intervals: [2000] });
  await expect(failingSection).toContainText(`bug 1 (${failing.bug_fixes[0]!.swebench_instance_id}): FAIL_TO_PASS tests/test_parser.py::test_no_such_test does not pass with the gold patch`);
  await expect(page.getByTestId(`validation-${valid.continuous_id}`)).toContainText("passes");
  await validSection.getByText("Validation logs").click();
  await expect(validSection.locator("pre")).toContainText("=== run 1 of");
  // the proposer has no review form on their own proposal
  await expect(page.getByRole("button", { name: "Accept" })).toHaveCount(0);
  await shot(page, "proposal-validated");

  const reviewerContext = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  const rev = await reviewerContext.newPage();
  await signInAsReviewer(rev, `prop-rev-${run}`);
  await rev.goto("/dataset/proposals");
  await expect(rev.getByRole("row", { name: /^evaluation \(a submission's chain\) 1 / })).toBeVisible();
  await expect(rev.getByRole("row", { name: /validation \(a proposed chain's gold runs\) 2/ })).toBeVisible();
  await rev.goto(url);
  const form = rev.getByRole("form", { name: `Review ${valid.continuous_id}` });
  await form.getByRole("button", { name: "Accept" }).click();
  await expect(form).toContainText("required");
  await form.getByLabel(`Reason for ${valid.continuous_id}`).fill("fresh bugs, stable tests");
  await form.getByRole("button", { name: "Accept" }).click();
  await expect(rev.getByTestId(`proposed-${valid.continuous_id}`)).toContainText(`accepted by prop-rev-${run}: fresh bugs, stable tests`);
  // a refused chain can only be rejected: no Accept is offered (the server refuses one too: lib/proposals/review.test.ts)
  const refusedForm = rev.getByRole("form", { name: `Review ${failing.continuous_id}` });
  await expect(refusedForm.getByRole("button", { name: "Accept" })).toHaveCount(0);
  await expect(refusedForm).toContainText("Only a valid chain can be accepted.");
  await refusedForm.getByLabel(`Reason for ${failing.continuous_id}`).fill("gold fails");
  await refusedForm.getByRole("button", { name: "Reject" }).click();
  await expect(rev.getByTestId(`proposed-${failing.continuous_id}`)).toContainText(`rejected by prop-rev-${run}: gold fails`);
  await shot(rev, "proposal-reviewed");
  expect(dbGet<{ review: string; reviewReason: string }>(`SELECT review, reviewReason FROM ProposedChain WHERE continuousId = ?`, valid.continuous_id)).toEqual({ review: "accepted", reviewReason: "fresh bugs, stable tests" });
  await proposer.close();
  await reviewerContext.close();
});
