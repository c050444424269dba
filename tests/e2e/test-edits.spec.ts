/**
 * The test-edit policy (SPEC §7 "Test edits") in the browser. With the demo
 * version's rule `test_edits: flag`, a team's gold Oracle predictions for one
 * chain whose bug 1 also adds tests/test_scratch.py are evaluated, published
 * by a reviewer, and shown: the row counts one test-editing bug and wears the
 * "edits tests" badge; "scores without test-editing patches" scores that bug
 * as unresolved (the row is scored over the version's chains: the others count
 * unresolved either way). The version's rules and the row are put back afterwards.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { chainswe } from "./site";
import { CHAIN, GOLD_ORACLE, bearer, reviewer, teamMember, upload, waitForStatus, type Actor } from "./hostile-steps";

const run = Date.now().toString(36);
const SYSTEM = "test-editor";
const SCRATCH_TEST = [
  "diff --git a/tests/test_scratch.py b/tests/test_scratch.py",
  "new file mode 100644",
  "--- /dev/null",
  "+++ b/tests/test_scratch.py",
  "@@ -0,0 +1,2 @@",
  "+def test_scratch():",
  "+    assert True",
  "",
].join("\n");

let team: Actor;
let rulesBefore = "";
let id = "";

const dbUrl = () => process.env.E2E_DATABASE_URL!;

test.beforeAll(async ({ browser }) => {
  rulesBefore = chainswe(dbUrl(), ["dataset", "rules", "demo"]);
  const dir = mkdtempSync(join(tmpdir(), "chainswe-e2e-rules-"));
  const flagged = join(dir, "rules.json");
  writeFileSync(flagged, JSON.stringify({ ...(JSON.parse(rulesBefore) as object), test_edits: "flag" }));
  chainswe(dbUrl(), ["dataset", "rules", "demo", flagged]);

  team = await teamMember(browser, `te-${run}`, `Test editors ${run}`, SYSTEM);
  // the gold Oracle lines of one chain; bug 1's patch also adds a test file
  const lines = readFileSync(GOLD_ORACLE, "utf8").trim().split("\n").map((l) => JSON.parse(l) as { continuous_id: string; swebench_instance_id: string; model_patch: string });
  const chain = lines.filter((l) => l.continuous_id === CHAIN);
  chain[0]!.model_patch = `${chain[0]!.model_patch.replace(/\n?$/, "\n")}${SCRATCH_TEST}`;
  id = await upload(team.page.request, team, { predictions: Buffer.from(chain.map((l) => JSON.stringify(l)).join("\n") + "\n") });
  await waitForStatus(team.page.request, team.token, id, "completed");
  expect((await team.page.request.post(`/api/v1/submissions/${id}/publication`, { headers: bearer(team.token), data: { action: "request_publication" } })).status()).toBe(200);
  const rev = await reviewer(browser, `te-rev-${run}`);
  expect((await rev.page.request.post(`/api/v1/submissions/${id}/publication`, { headers: bearer(rev.token), data: { action: "approve" } })).status()).toBe(200);
  await rev.context.close();
});

test.afterAll(async () => {
  if (id) await team?.page.request.post(`/api/v1/submissions/${id}/publication`, { headers: bearer(team.token), data: { action: "withdraw" } });
  if (rulesBefore) {
    const dir = mkdtempSync(join(tmpdir(), "chainswe-e2e-rules-"));
    writeFileSync(join(dir, "rules.json"), rulesBefore);
    chainswe(dbUrl(), ["dataset", "rules", "demo", join(dir, "rules.json")]);
  }
  await team?.context.close();
});

const row = (page: Page) => page.locator("table#leaderboard tbody tr").filter({ has: page.getByRole("link", { name: SYSTEM, exact: true }) });

/** A cell of the row by its column's header. */
async function cell(page: Page, header: RegExp): Promise<string> {
  const column = await page.locator("table#leaderboard thead th").evaluateAll((ths, source) => ths.findIndex((th) => new RegExp(source).test(th.textContent ?? "")), header.source);
  expect(column).toBeGreaterThan(0);
  return (await row(page).locator("th, td").nth(column).textContent()) ?? "";
}

test("a test-editing patch is counted and flagged on its row, and the scores without it count that bug unresolved", async ({ page, request }) => {
  type Row = { system: string; test_edit_bugs: number; test_edits_flagged: boolean; per_bug: { value: number }; chain: { value: number }; counts: { chains: number; bugs: number } };
  const rows = async (query: string) => ((await (await request.get(`/api/v1/leaderboard?version=demo&mode=oracle${query}`)).json()) as { rows: Row[] }).rows;
  const mine = (await rows("")).find((r) => r.system === SYSTEM)!;
  // scored over the version's population: the chain's three bugs resolved by the gold patches, one of them editing a test file
  const { bugs, chains } = mine.counts;
  expect(mine).toMatchObject({ test_edit_bugs: 1, test_edits_flagged: true });
  expect([mine.per_bug.value, mine.chain.value]).toEqual([(100 * 3) / bugs, 100 / chains]);
  const without = (await rows("&test_edits=without")).find((r) => r.system === SYSTEM)!;
  expect([without.per_bug.value, without.chain.value]).toEqual([(100 * 2) / bugs, 0]);
  // rows without test edits score the same either way
  const gold = async (query: string) => (await rows(query)).find((r) => r.system === "demo-gold")!.per_bug.value;
  expect(await gold("&test_edits=without")).toBe(await gold(""));

  await page.goto("/?mode=oracle");
  await expect(row(page)).toHaveCount(1);
  await expect(row(page).locator(".badge.lb-test_edits")).toHaveText("edits tests: 1 bug");
  expect(await cell(page, /^Per-bug %/)).toMatch(new RegExp(`^${((100 * 3) / bugs).toFixed(1).replace(".", "\\.")}`));
  await page.getByRole("checkbox", { name: "scores without test-editing patches" }).check();
  await page.getByRole("button", { name: "Apply", exact: true }).click();
  await expect(page).toHaveURL(/test_edits=without/);
  // read until the new view is drawn: the URL can change a moment before the table does
  await expect.poll(() => cell(page, /^Per-bug %/)).toMatch(new RegExp(`^${((100 * 2) / bugs).toFixed(1).replace(".", "\\.")}`));
});
