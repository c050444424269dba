/**
 * The team cancels a running evaluation (what was graded stays, the rest is
 * never run); a reviewer re-runs a completed one, after a confirmation that says
 * what will be lost (its results are kept as an earlier attempt and every chain
 * graded again, once).
 */
import { join } from "node:path";
import Database from "better-sqlite3";
import { expect, test } from "@playwright/test";
import { DEMO_VERSION, ROOT, chainswe } from "./site";
import { createTeamWithSystem, createToken, signInAsReviewer, signUp } from "./steps";

const run = Date.now().toString(36);
const GOLD_SEQ = join(ROOT, "demo", "predictions", "demo-gold.seq.jsonl");
const EMPTY_ORACLE = join(ROOT, "demo", "predictions", "demo-empty.oracle.jsonl");

test("the team cancels an evaluation; a reviewer re-runs a completed one", async ({ browser, baseURL }) => {
  const page = await (await browser.newContext()).newPage();
  await signUp(page, `frank-${run}`);
  const slug = (await createTeamWithSystem(page, `Cancel team ${run}`, { name: "canceller", model: "cancel-model" })).split("/").pop()!;
  const token = await createToken(page, "cli", ["submit", "read"]);
  const upload = (mode: string, file: string) => {
    const out = chainswe(process.env.E2E_DATABASE_URL!, ["submit", "--server", baseURL!, "--token", token, "--system", `${slug}/canceller`, "--mode", mode, "--dataset-version", DEMO_VERSION, file]);
    return /submission (\S+)/.exec(out)![1]!;
  };

  // the site's one worker slot replays `done` first, so `cancelled` waits in the queue until cancelled
  const done = upload("seq", GOLD_SEQ);
  const cancelled = upload("oracle", EMPTY_ORACLE);
  await page.goto(`/submissions/${cancelled}`);
  await page.getByRole("button", { name: "Cancel evaluation" }).click();
  await expect(page.getByTestId("submission-status")).toHaveText(/cancelled/i);
  await expect(page.getByRole("button", { name: "Cancel evaluation" })).toHaveCount(0);

  // the completed one, re-run by a reviewer: every bug graded again, once
  await page.goto(`/submissions/${done}`);
  await expect(page.getByTestId("submission-status")).toHaveText(/completed/i, { timeout: 5 * 60_000 });
  const rita = await (await browser.newContext()).newPage();
  await signInAsReviewer(rita, `rerun-${run}`);
  await rita.goto(`/submissions/${done}`);
  // the first click only asks, saying what will be replaced and where it is kept; Cancel changes nothing
  await rita.getByRole("button", { name: "Re-run…" }).click();
  const confirm = rita.getByRole("group", { name: /^Replay all 5 chains from scratch\?/ });
  await expect(confirm).toContainText("The current results (16 bugs graded, 16 resolved) stop being this submission's");
  await expect(confirm).toContainText("kept on this page as earlier attempt 1");
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(rita.getByRole("group", { name: /from scratch/ })).toHaveCount(0);
  await rita.reload();
  await expect(rita.getByTestId("submission-status")).toHaveText(/completed/i);
  await expect(rita.getByTestId("earlier-attempts")).toHaveCount(0);
  const before = new Date();
  await rita.getByRole("button", { name: "Re-run…" }).click();
  await rita.getByRole("button", { name: "Re-run from scratch" }).click();
  await expect(rita.getByText(/^re-queued 5 chain\(s\)$/)).toBeVisible();
  await rita.reload();
  await expect(rita.getByTestId("submission-status")).toHaveText(/completed/i, { timeout: 5 * 60_000 });
  const sqlite = new Database(new URL(process.env.E2E_DATABASE_URL!).pathname, { readonly: true });
  const graded = sqlite.prepare(`SELECT gradedAt FROM BugResult WHERE submissionId = ?`).all(done) as { gradedAt: string }[];
  sqlite.close();
  expect(graded).toHaveLength(16);
  // the results the re-run replaced are kept as attempt 1, and listed on the page
  await expect(rita.getByTestId("earlier-attempts")).toHaveText(/^Attempt 1: completed .*, 16 of 16 graded bugs resolved; replaced /);
  // every bug graded again after the re-run was asked for (the clock is this machine's, as the site's)
  expect(graded.every((g) => Date.parse(g.gradedAt) >= before.getTime() - 1000)).toBe(true);
  const res = await page.request.get(`/api/v1/submissions/${done}/results.jsonl`);
  const lines = (await res.text()).trim().split("\n");
  expect(lines).toHaveLength(16);
  expect(new Set(lines.map((l) => { const b = JSON.parse(l) as { continuous_id: string; order: number }; return `${b.continuous_id}#${b.order}`; })).size).toBe(16);
});
