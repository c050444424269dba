/**
 * Trajectories (SPEC §7) in the browser. The demo ships Seq rollout
 * trajectories of demo-drifter, demo-cheater and demo-breaker
 * (demo/trajectories/), public; demo-cheater's agent runs `git log --all` and
 * names a hidden test at every bug, so the shortcut scan flags its row and
 * each bug. A team uploads its own through the form, private at first.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { ROOT } from "./site";
import { createTeamWithSystem, signUp } from "./steps";

const run = Date.now().toString(36);
const GOLD_SEQ = join(ROOT, "demo", "predictions", "demo-gold.seq.jsonl");
const CHEATER = join(ROOT, "demo", "trajectories", "demo-cheater.seq");
/** every bug the shipped cheater trajectories cover */
const CHEATER_BUGS = readdirSync(CHEATER).reduce((n, chain) => n + readdirSync(join(CHEATER, chain)).filter((f) => f.endsWith(".log")).length, 0);

const board = (page: Page) => page.locator("table#leaderboard");
const seqRow = (page: Page, system: string) => board(page).locator("tbody tr").filter({ has: page.getByRole("link", { name: system, exact: true }) }).filter({ hasText: "Seq" });

test("the shortcut scan flags demo-cheater's row, its submission and each bug; the API and CSV say the same, with effort per chain", async ({ page, request }) => {
  await page.goto("/?mode=seq");
  const badge = seqRow(page, "demo-cheater").locator(".badge.lb-shortcuts");
  // every bug is flagged for two kinds, and counted once
  await expect(badge).toHaveText(`shortcut flags: ${CHEATER_BUGS} bugs`);
  await expect(badge).toHaveAttribute("title", new RegExp(`run 1: reads future history, ${CHEATER_BUGS} bugs\\nrun 1: reads the test lists, ${CHEATER_BUGS} bugs`));
  // a system whose trajectories hold no shortcut has no badge
  await expect(seqRow(page, "demo-drifter").locator(".badge.lb-shortcuts")).toHaveCount(0);

  const json = (await (await request.get("/api/v1/leaderboard?version=demo&mode=seq")).json()) as { rows: { system: string; shortcut_flags: { run: number; kind: string; bugs: number }[] }[] };
  const flags = (system: string) => json.rows.find((r) => r.system === system)!.shortcut_flags;
  expect(flags("demo-cheater")).toEqual([
    { run: 1, kind: "future_history", bugs: CHEATER_BUGS },
    { run: 1, kind: "test_lists", bugs: CHEATER_BUGS },
  ]);
  expect(flags("demo-breaker")).toEqual([{ run: 1, kind: "network", bugs: 1 }]);
  expect(flags("demo-gold")).toEqual([]);
  const csv = (await (await request.get("/api/v1/leaderboard?version=demo&mode=seq&format=csv")).text()).trim().split("\n");
  const column = csv[0]!.split(",").indexOf("shortcut_flags");
  expect(column).toBeGreaterThan(0);
  expect(csv.find((l) => l.includes(",demo-breaker,"))!.split(",")[column]).toBe("run 1: network (1 bugs)");

  // effort per chain: tokens and steps from the prediction lines; wall time only where a trajectory's outcome gave it
  const effort = (await (await request.get("/api/v1/leaderboard?version=demo&mode=seq")).json()) as {
    rows: { system: string; effort_per_chain: { input_tokens: number | null; output_tokens: number | null; steps: number | null; wall_seconds: number | null } }[];
  };
  const of = (system: string) => effort.rows.find((r) => r.system === system)!.effort_per_chain;
  expect(of("demo-gold").input_tokens).toBeGreaterThan(0);
  expect(of("demo-gold").steps).toBeGreaterThan(0);
  expect(of("demo-gold").wall_seconds).toBeNull();
  expect(of("demo-cheater").wall_seconds).toBeGreaterThan(0);
  const head = csv[0]!.split(",");
  const cheater = csv.find((l) => l.includes(",demo-cheater,"))!.split(",");
  expect(Number(cheater[head.indexOf("wall_seconds_per_chain")])).toBeCloseTo(of("demo-cheater").wall_seconds!, 3);
  expect(Number(cheater[head.indexOf("steps_per_chain")])).toBeCloseTo(of("demo-cheater").steps!, 3);

  await seqRow(page, "demo-cheater").getByRole("link", { name: "demo-cheater", exact: true }).click();
  const section = page.getByRole("region", { name: "Trajectories" });
  await expect(section.getByTestId("trajectories-summary")).toContainText(`${CHEATER_BUGS} bugs with a trajectory`);
  await expect(section.getByTestId("trajectories-summary")).toContainText("Public once the submission is published.");
  await expect(section.getByTestId("shortcut-flags").getByRole("listitem")).toHaveCount(CHEATER_BUGS);
  await expect(section.getByTestId("shortcut-flags").getByRole("listitem").first()).toContainText("reads future history, reads the test lists");
  // a visitor cannot change the team's choice
  await expect(section.getByRole("button")).toHaveCount(0);
});

test("a bug's trajectory: the flagged calls, folded outputs, search, and the earlier patches in its start state", async ({ page }) => {
  await page.goto("/?mode=seq");
  await seqRow(page, "demo-cheater").getByRole("link", { name: "demo-cheater", exact: true }).click();
  const flagged = page.getByTestId("shortcut-flags").getByRole("link", { name: "moneyx-chain-1, bug 2" });
  await flagged.click();
  await expect(page).toHaveURL(/\/chains\/moneyx-chain-1\/bugs\/2#trajectory-heading$/);
  const trajectory = page.getByRole("region", { name: "Trajectory" });

  // Seq: bug 1's patch is linked, with whether it is in this start state
  const carried = trajectory.getByTestId("carried-patches").getByRole("listitem");
  await expect(carried).toHaveCount(1);
  await expect(carried.first()).toContainText(/Bug 1 \(chainswe-demo__moneyx-1\): (its patch is in this start state|its patch did not apply)/);

  // the hits name their calls; the first one links to the call, which carries the flag
  const hits = trajectory.getByTestId("shortcut-hits");
  await expect(hits).toContainText("reads future history: git log --all --oneline");
  await expect(hits).toContainText("reads the test lists: python3 -m pytest");
  await hits.getByRole("link", { name: "call 1" }).click();
  await expect(page).toHaveURL(/#call-1$/);
  const call1 = page.locator("#call-1");
  await expect(call1.locator(".traj-shortcut")).toHaveText("shortcut: reads future history");
  await expect(call1.locator(".traj-command")).toHaveText("$ git log --all --oneline");
  // outputs are folded until opened
  const output = call1.locator("details.traj-output").first();
  await expect(output).not.toHaveAttribute("open", "");
  await output.locator("summary").click();
  await expect(output.locator("pre")).toContainText("chainswe start state");

  // steps as the agent declared them
  const steps = trajectory.getByTestId("traj-step");
  await expect(steps.first().getByRole("heading")).toHaveText("Step 1: Read the issue");
  const allCalls = await trajectory.getByTestId("traj-call").count();
  expect(allCalls).toBeGreaterThan(3);

  // search keeps the matching items and unfolds a matching output
  const search = trajectory.getByRole("searchbox", { name: "Search the trajectory" });
  await search.fill("Stopping after");
  await expect(trajectory.getByRole("status")).toHaveText(/^\d+ of \d+ items match$/);
  const shown = trajectory.getByTestId("traj-call");
  await expect(shown).toHaveCount(1);
  await expect(shown.locator("details.traj-output").first()).toHaveAttribute("open", "");
  // matched without regard to case, marked as written
  await expect(shown.locator("mark").first()).toHaveText("stopping after");
  await search.fill("no such text anywhere");
  await expect(trajectory.getByRole("status")).toHaveText(/^0 of \d+ items match$/);
  await expect(trajectory.getByTestId("traj-step")).toHaveCount(0);
  await search.fill("");
  await expect(trajectory.getByTestId("traj-call")).toHaveCount(allCalls);

  // the log as uploaded, markers and all
  const raw = await page.request.get((await trajectory.getByRole("link", { name: "raw", exact: true }).getAttribute("href"))!);
  expect([raw.status(), raw.headers()["content-type"]]).toEqual([200, "text/plain; charset=utf-8"]);
  expect(await raw.text()).toContain("##[chainswe] $ git log --all --oneline\n");

  // the linked earlier bug
  await carried.first().getByRole("link").click();
  await expect(page).toHaveURL(/\/chains\/moneyx-chain-1\/bugs\/1#patches-heading$/);
  await expect(page.getByRole("region", { name: "Trajectory" }).getByText("The first bug of the chain starts from the base commit")).toBeVisible();
});

test("a team uploads trajectories with the form: private first, then public by its choice; a bad archive is named beside its field", async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), "chainswe-e2e-traj-"));
  const archive = join(dir, "traj.tgz");
  execFileSync("tar", ["czf", archive, "-C", join(ROOT, "demo", "trajectories", "demo-drifter.seq"), "."]);
  const notArchive = join(dir, "notes.txt");
  writeFileSync(notArchive, "these are my notes, not a tar file\n");

  await signUp(page, `traj-${run}`);
  await createTeamWithSystem(page, `Trajectory team ${run}`, { name: "tracer", model: "trace-model" });
  await page.goto("/submit");
  await page.getByLabel("Mode").selectOption("seq");
  await page.getByLabel("Predictions file").setInputFiles(GOLD_SEQ);
  await page.getByLabel("Trajectories (optional)").setInputFiles(notArchive);
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page.locator(".field", { has: page.getByLabel("Trajectories (optional)") }).locator(".error")).toHaveText(
    "notes.txt is not an archive: send the rollout's trajectories directory as a .tar or .tar.gz (tar czf t.tgz -C preds.trajectories .)",
  );
  await expect(page).toHaveURL(/\/submit$/);

  await page.getByLabel("Trajectories (optional)").setInputFiles(archive);
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page).toHaveURL(/\/submissions\/[a-z0-9]+$/);
  const section = page.getByRole("region", { name: "Trajectories" });
  await expect(section.getByTestId("trajectories-summary")).toContainText("16 bugs with a trajectory");
  await expect(section.getByTestId("trajectories-summary")).toContainText("Kept to the team and reviewers.");
  await expect(section).toContainText("The shortcut scan flagged nothing.");
  await section.getByRole("button", { name: "Make trajectories public once published" }).click();
  await expect(section.getByRole("status")).toHaveText("trajectories public once the submission is");
  await page.reload();
  await expect(page.getByRole("region", { name: "Trajectories" }).getByTestId("trajectories-summary")).toContainText("Public once the submission is published.");

  // the team reads its timeline on the bug's page
  const path = new URL(page.url()).pathname;
  await page.goto(`${path}/chains/inikit-chain-1/bugs/1`);
  const trajectory = page.getByRole("region", { name: "Trajectory" });
  await expect(trajectory.getByTestId("traj-step").first().getByRole("heading")).toHaveText("Step 1: Read the issue");
  await expect(trajectory.getByTestId("shortcut-hits")).toHaveCount(0);

  // no evaluation needed here: cancelled, so the other specs' queue stays short
  await page.goto(path);
  const cancel = page.getByRole("button", { name: "Cancel evaluation" });
  if ((await cancel.count()) > 0) await cancel.click();
});
