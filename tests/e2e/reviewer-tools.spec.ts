/**
 * The reviewer's tools as a reviewer reads them: the review queue shows each
 * waiting run's badges (the leaderboard's) and which run of its entry it is;
 * recent decisions name the mode and the run; the audit log links what it
 * names, filters by action, actor and subject, and pages, all held in the URL;
 * a bad filter or page value is named and ignored, never an error page.
 */
import { expect, test } from "@playwright/test";
import { bearer, dbRun, reviewer, teamMember, upload, waitForStatus } from "./hostile-steps";

const run = Date.now().toString(36);

test("the queue shows a waiting run's badges and run number; decisions and the audit log tell the runs apart and link them", async ({ browser, request }) => {
  const team = await teamMember(browser, `rt-${run}`, `Reviewer tools ${run}`);
  const rev = await reviewer(browser, `rtrev-${run}`);
  const first = await upload(request, team);
  await waitForStatus(request, team.token, first, "completed");
  const second = await upload(request, team, { runOf: first });
  await waitForStatus(request, team.token, second, "completed");
  for (const id of [first, second]) {
    const asked = await request.post(`/api/v1/submissions/${id}/publication`, { headers: bearer(team.token), data: { action: "request_publication" } });
    expect(asked.status(), await asked.text()).toBe(200);
  }
  const approved = await request.post(`/api/v1/submissions/${first}/publication`, { headers: bearer(rev.token), data: { action: "approve" } });
  expect(approved.status(), await approved.text()).toBe(200);

  const page = rev.page;
  await page.goto("/review");
  const queued = page.getByRole("region", { name: "Waiting for a decision" }).getByRole("row").filter({ hasText: `Reviewer tools ${run}` });
  await expect(queued).toHaveCount(1);
  await expect(queued.getByRole("cell", { name: "run 2 of 2" })).toBeVisible();
  await expect(queued.getByRole("link", { name: "hw-agent" })).toHaveAttribute("href", `/submissions/${second}`);
  // gold patches: the leaderboard's close-to-gold badge, drawn by the same component as on the board
  const badge = queued.locator(".badge.lb-close_to_gold");
  await expect(badge).toHaveText("close to gold 100.0%");
  await page.goto(`/?mode=oracle&model=${encodeURIComponent(`rt-${run}-model`)}`);
  await expect(page.locator("table#leaderboard").getByRole("row").filter({ hasText: `rt-${run}-model` }).locator(".badge.lb-close_to_gold")).toHaveText("close to gold 100.0%");

  await page.goto("/review");
  const decided = page.getByRole("region", { name: "Recent decisions" }).getByRole("row").filter({ has: page.locator(`a[href="/submissions/${first}"]`) });
  await expect(decided).toHaveCount(1);
  await expect(decided).toContainText("approved");
  await expect(decided.getByRole("cell", { name: "Oracle", exact: true })).toBeVisible();
  await expect(decided.getByRole("cell", { name: "run 1 of 2" })).toBeVisible();

  // the audit log, filtered to the first run: the team's request and the approval, each subject a link to the submission
  await page.goto(`/admin?subject=${first}`);
  const log = page.getByRole("table", { name: "Audit log entries" });
  await expect(log.getByRole("row")).toHaveCount(3); // header + 2
  await expect(log.getByRole("link", { name: "hw-agent · Oracle · run 1" })).toHaveCount(2);
  await expect(log.getByRole("row").filter({ hasText: "publication approved" }).getByRole("link", { name: rev.username })).toHaveAttribute("href", /^#user-/);
  // an actor's link lands on their row of the users table
  await log.getByRole("row").filter({ hasText: "publication approved" }).getByRole("link", { name: rev.username }).click();
  await expect(page).toHaveURL(/#user-/);
  await expect(page.locator(new URL(page.url()).hash)).toContainText(rev.username);
  await log.getByRole("link", { name: "hw-agent · Oracle · run 1" }).first().click();
  await expect(page).toHaveURL(new RegExp(`/submissions/${first}$`));

  // the filter form writes the URL, and the URL is the filter
  await page.goto("/admin");
  await page.getByLabel("Action").selectOption("publication_approved");
  await expect(page).toHaveURL(/action=publication_approved/);
  await page.getByLabel("Actor").fill(rev.username);
  await page.getByLabel("Actor").press("Enter");
  await expect(page).toHaveURL(new RegExp(`actor=${rev.username}`));
  await expect(log.getByRole("row")).toHaveCount(2);
  await expect(log.getByRole("row").nth(1)).toContainText("publication approved");
  await expect(page.getByText("Entries 1–1 of 1 matching the filter.")).toBeVisible();
  await rev.context.close();
  await team.context.close();
});

test("the audit log pages 50 entries at a time, the page in the URL; a page past the last shows the last", async ({ browser }) => {
  const rev = await reviewer(browser, `rtpage-${run}`);
  const subject = `paging-${run}`;
  // 60 entries about one made-up subject (removed again below): more than a page
  for (let i = 0; i < 60; i++) {
    dbRun(
      `INSERT INTO AuditLog (id, actorId, action, targetType, targetId, reason, createdAt) SELECT ?, NULL, 'role_granted', 'user', ?, ?, createdAt FROM AuditLog ORDER BY createdAt DESC LIMIT 1`,
      `${subject}-${String(i).padStart(2, "0")}`,
      subject,
      `entry ${i}`,
    );
  }
  try {
    const page = rev.page;
    await page.goto(`/admin?subject=${subject}`);
    const log = page.getByRole("table", { name: "Audit log entries" });
    await expect(log.getByRole("row")).toHaveCount(51);
    await expect(page.getByText("Entries 1–50 of 60 matching the filter.")).toBeVisible();
    await expect(page.getByText("Page 1 of 2")).toBeVisible();
    await page.getByRole("link", { name: "Older →" }).click();
    await expect(page).toHaveURL(new RegExp(`subject=${subject}&page=2`));
    await expect(log.getByRole("row")).toHaveCount(11);
    await expect(page.getByText("Entries 51–60 of 60 matching the filter.")).toBeVisible();
    await page.getByRole("link", { name: "← Newer" }).click();
    await expect(page).toHaveURL(new RegExp(`subject=${subject}(#|$)`));
    await page.goto(`/admin?subject=${subject}&page=9999`);
    await expect(page.getByText("Page 2 of 2")).toBeVisible();
  } finally {
    dbRun(`DELETE FROM AuditLog WHERE targetId = ?`, subject);
    await rev.context.close();
  }
});

test("hostile audit-log parameters: each bad value is named and ignored, never a server error; the page stays a site admin's", async ({ browser, request }) => {
  const rev = await reviewer(browser, `rthost-${run}`);
  const page = rev.page;
  const cases: [string, RegExp | null][] = [
    ["action=explode", /action: /],
    ["action=publication_approved&action=explode", null], // the first value counts
    [`actor=${"a".repeat(300)}`, /actor: /],
    ["actor=%3Cscript%3Ealert(1)%3C%2Fscript%3E", null],
    ["subject=' OR 1=1 --", null],
    [`subject=${"x".repeat(5000)}`, /subject: /],
    ["page=0", /page: pages start at 1/],
    ["page=-3", /page: pages start at 1/],
    ["page=abc", /page: /],
    ["page=2.5", /page: a whole page number/],
    ["page=1e9", /page: at most page 10000/],
    ["page=99999999999999999999999", /page: /],
    ["page=", null],
  ];
  for (const [params, problem] of cases) {
    const res = await page.goto(`/admin?${params}`);
    expect(res!.status(), params).toBe(200);
    await expect(page.getByText(/^(Entries \d+–\d+ of \d+|No entry matches this filter\.)/), params).toBeVisible();
    if (problem) await expect(page.getByRole("alert").filter({ hasText: "Ignored:" }), params).toContainText(problem);
    else await expect(page.getByRole("alert").filter({ hasText: "Ignored:" }), params).toHaveCount(0);
  }
  // what a filter holds is shown as text, never as markup
  await page.goto("/admin?actor=%3Cb%20id%3Dinjected%3Ex%3C%2Fb%3E");
  await expect(page.getByLabel("Actor")).toHaveValue('<b id=injected>x</b>');
  await expect(page.locator("#injected")).toHaveCount(0);
  // anyone else: the page does not exist, whatever the parameters
  expect((await request.get("/admin?page=2&action=role_granted")).status()).toBe(404);
  await rev.context.close();
});
