/**
 * The dataset browser on the demo benchmark really evaluated:
 * /dataset → version demo → a chain → its bugs with problem statements, gold
 * files and solve rates, down to a system's failure page; every table's CSV and
 * JSON export downloads; a problem statement holding HTML is shown as text.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { expect, test, type Download, type Page } from "@playwright/test";
import { DEMO_VERSION, ROOT, chainswe } from "./site";
import { shot } from "./steps";

const text = async (d: Download) => readFileSync((await d.path())!, "utf8");

async function download(page: Page, link: ReturnType<Page["getByRole"]>): Promise<Download> {
  const [d] = await Promise.all([page.waitForEvent("download"), link.click()]);
  return d;
}

test("browse /dataset → demo → a chain → its bugs, and on to a failure page", async ({ page }) => {
  await page.goto("/dataset");
  const versions = page.getByRole("table", { name: /Dataset versions/ });
  await expect(versions.getByRole("columnheader", { name: "Chains" })).toBeVisible();
  // `demo ` and not demo-2, released from it
  const demoRow = versions.getByRole("row", { name: new RegExp(`^${DEMO_VERSION}\\s`) });
  await expect(demoRow.getByRole("cell").nth(3)).toHaveText("16");
  const repos = page.getByRole("table", { name: `Repositories of ${DEMO_VERSION}`, exact: true });
  await expect(repos.getByRole("rowheader")).toHaveText(["chainswe-demo/dateranges", "chainswe-demo/inikit", "chainswe-demo/moneyx", "chainswe-demo/semverkit", "chainswe-demo/tablefmt"]);
  await shot(page, "dataset-index");

  await demoRow.getByRole("link", { name: DEMO_VERSION }).click();
  await expect(page.getByRole("heading", { name: `Dataset ${DEMO_VERSION}` })).toBeVisible();
  // the statistics stored at import (core/dataset/stats.ts): 16 bugs / 5 chains, bug dates, per source
  await expect(page.locator("dt", { hasText: "Average length" }).locator("+ dd")).toHaveText("3.2");
  await expect(page.locator("dt", { hasText: "Bug dates" }).locator("+ dd")).toHaveText("2023-02-14 – 2024-03-11");
  const sources = page.getByRole("table", { name: new RegExp(`^Sources of ${DEMO_VERSION}`) });
  await expect(sources.getByRole("row", { name: /chainswe-demo/ }).getByRole("cell")).toHaveText(["5", "16"]);
  await expect(page.getByText(/Difficulty over 16 public system × mode result\(s\) — 8 Oracle, 8 Seq, 0 Seq\+Mem/)).toBeVisible();
  const chains = page.getByRole("table", { name: /Chains of demo/ });
  await expect(chains.getByRole("rowheader")).toHaveCount(5);
  const dateranges = chains.getByRole("row", { name: /dateranges-chain-1/ });
  await expect(dateranges).toContainText("2023-10-02..2023-11-27");
  await expect(dateranges).toContainText("chainswe-demo/dateranges:46ffb61f61ed");
  // Seq+Mem has no public submission: its column is left out
  await expect(chains.getByRole("columnheader", { name: /Seq\+Mem/ })).toHaveCount(0);
  const positions = page.getByRole("table", { name: /Solve rate by position, length-3 chains/ });
  await expect(positions.getByRole("rowheader")).toHaveText(["1", "2", "3"]);
  await shot(page, "dataset-version");

  // state in the URL: all chains adds position 4 (dateranges), and survives a reload
  await page.getByRole("link", { name: "Show all chains" }).click();
  await expect(page).toHaveURL(/positions=all/);
  await page.reload();
  await expect(page.getByRole("table", { name: /Solve rate by position, all chains/ }).getByRole("rowheader")).toHaveText(["1", "2", "3", "4"]);
  await page.goBack();
  await expect(page.getByRole("table", { name: /length-3 chains/ })).toBeVisible();

  await chains.getByRole("link", { name: "moneyx-chain-1" }).first().click();
  await expect(page.getByRole("heading", { name: "moneyx-chain-1", level: 1 })).toBeVisible();
  const bugs = page.getByRole("table", { name: "Bugs in chain order" });
  await expect(bugs.getByRole("row")).toHaveCount(4);
  const bug2 = bugs.getByRole("row", { name: /chainswe-demo__moneyx-2/ });
  await expect(bug2).toContainText("moneyx/currency.py");
  // every Oracle and Seq result is in: 16 attempts, Oracle and Seq 8 each
  await expect(bug2.getByRole("cell").nth(5)).toContainText(/\d+\.\d \d+\/16/);
  await expect(bug2.getByRole("cell").nth(6)).toContainText(/\/8$/);

  const section = page.locator("#bug-2");
  await section.getByText("Problem statement:").click();
  await expect(section.getByTestId("problem-statement")).toContainText("moneyx.currency.register(code, symbol, decimals)");
  await section.getByText(/Outcomes by system: \d+ of 16 solved/).click();
  await shot(page, "dataset-chain");
  const overshootSeq = section.getByRole("row", { name: /demo-overshoot.*Seq/ });
  await expect(overshootSeq).toContainText("broke working code");
  await overshootSeq.getByRole("link", { name: "demo-overshoot" }).click();
  await expect(page).toHaveURL(/\/chains\/moneyx-chain-1\/bugs\/2$/);
  await expect(page.getByTestId("chain-error-cause")).toHaveText("overshoot");
});

test("each dataset table's CSV and JSON export downloads its rows", async ({ page }) => {
  await page.goto("/dataset");
  const versionsCsv = await text(await download(page, page.getByRole("link", { name: "CSV" }).first()));
  expect(versionsCsv.split("\n")[0]).toBe("version,imported at,repositories,chains,bugs,modes,sha256");
  expect(versionsCsv).toMatch(new RegExp(`^${DEMO_VERSION},.*,5,5,16,oracle seq seq_mem,`, "m"));
  const reposJson = JSON.parse(await text(await download(page, page.getByRole("link", { name: "JSON" }).last())));
  expect(reposJson.table).toBe("repositories");
  expect(reposJson.rows).toContainEqual({ version: DEMO_VERSION, repo: "chainswe-demo/moneyx", chains: 1, bugs: 3 });

  await page.goto(`/dataset/${DEMO_VERSION}`);
  const chainsDownload = await download(page, page.getByRole("link", { name: "CSV" }).first());
  expect(chainsDownload.suggestedFilename()).toBe(`chainswe-${DEMO_VERSION}-chains.csv`);
  const chainsCsv = (await text(chainsDownload)).trim().split("\n");
  expect(chainsCsv).toHaveLength(6);
  expect(chainsCsv[0]).toContain("whole chain all %");
  const positionsJson = JSON.parse(await text(await download(page, page.getByTestId("positions-exports").getByRole("link", { name: "JSON" }))));
  expect(positionsJson.rows.map((r: { position: number }) => r.position)).toEqual([1, 2, 3]);
  expect(positionsJson.rows[0].solved_all_attempts).toBe(64);

  await page.goto(`/dataset/${DEMO_VERSION}/chains/moneyx-chain-1`);
  const bugsJson = JSON.parse(await text(await download(page, page.getByRole("link", { name: "JSON" }))));
  expect(bugsJson.rows.map((r: { swebench_instance_id: string }) => r.swebench_instance_id)).toEqual([
    "chainswe-demo__moneyx-1",
    "chainswe-demo__moneyx-2",
    "chainswe-demo__moneyx-3",
  ]);
  expect(bugsJson.rows[1]).toMatchObject({ gold_files: "moneyx/currency.py", solved_all_attempts: 16 });
  const bugsCsv = await text(await download(page, page.getByRole("link", { name: "CSV" })));
  expect(bugsCsv).toContain("No way to use currencies outside the built-in table");

  // a bad query is refused, an unknown version is 404
  expect((await page.request.get(`/api/v1/dataset/${DEMO_VERSION}?table=bugs`)).status()).toBe(400);
  expect((await page.request.get("/api/v1/dataset/no-such-version")).status()).toBe(404);
  expect((await page.request.get(`/api/v1/dataset/${DEMO_VERSION}/chains/no-such-chain`)).status()).toBe(404);
});

type Figures = { continuous_id: string; order?: number; solve_rate: number; point_biserial: number | null; difficulty: number; solved_by_all: boolean; solved_by_none: boolean; separates_top: boolean };
type DiscriminationDoc = { mode: string; modes: string[]; board_rows: number; top_n: number; chains_shown: number; chains_discriminating: number; fit: { bugs: { converged: boolean; iterations: number } }; rows: Figures[] };

/** A figures row as the page prints it: solve rate %, point-biserial, difficulty, flags. */
const printed = (f: Figures, topN: number) => [
  (100 * f.solve_rate).toFixed(1),
  f.point_biserial === null ? "—" : f.point_biserial.toFixed(3),
  f.difficulty.toFixed(2),
  [f.solved_by_all && "solved by all", f.solved_by_none && "solved by none", !f.separates_top && `does not separate the top ${topN}`].filter(Boolean).join("; ") || "—",
];

test("chains that still discriminate: the version's section and a chain's bugs show the API's figures", async ({ page }) => {
  const api = async (query: string) => {
    const res = await page.request.get(`/api/v1/dataset/${DEMO_VERSION}/discrimination${query}`);
    expect(res.status(), query).toBe(200);
    return (await res.json()) as DiscriminationDoc;
  };
  await page.goto(`/dataset/${DEMO_VERSION}?mode=seq`);
  const doc = await api("?mode=seq");
  // the demo publishes its eight systems' Oracle and Seq rows (other specs may publish more first)
  expect(doc.modes).toEqual(["oracle", "seq"]);
  expect(doc.board_rows).toBeGreaterThanOrEqual(8);
  expect(doc.chains_shown).toBe(5);
  expect(doc.fit.bugs.converged).toBe(true);
  const summary = page.getByTestId("discrimination-summary");
  await expect(summary).toHaveText(new RegExp(`^${doc.chains_discriminating} of 5 chains still discriminate among (the top ten rows|all \\w+ rows \\(fewer than ten\\))$`));
  const table = page.getByRole("table", { name: "Chains that still discriminate, strict scoring, Seq rows" });
  await expect(table.getByRole("rowheader")).toHaveText(doc.rows.map((r) => r.continuous_id));
  for (const r of doc.rows) await expect(table.getByRole("row", { name: new RegExp(`^${r.continuous_id}\\b`) }).getByRole("cell")).toHaveText(printed(r, doc.top_n));
  await expect(page.getByTestId("discrimination-fit")).toContainText(`${doc.fit.bugs.iterations} iterations, converged`);
  await shot(page, "dataset-discrimination");

  // the mode and scoring are links kept in the URL; the CSV carries the same figures
  await page.getByTestId("discrimination-modes").getByRole("link", { name: "lenient" }).click();
  await expect(page).toHaveURL(/scoring=lenient/);
  await expect(page.getByRole("table", { name: "Chains that still discriminate, strict scoring, Seq rows" })).toHaveCount(0);
  await expect(page.getByRole("table", { name: "Chains that still discriminate, lenient scoring, Seq rows" })).toBeVisible();
  const csv = (await text(await download(page, page.getByTestId("discrimination-chains-exports").getByRole("link", { name: "CSV" })))).trim().split("\n");
  expect(csv[0]).toBe("chain,mode,solve rate,point-biserial,Rasch difficulty,solved by all,solved by none,separates the top rows");
  const lenient = await api("?mode=seq&scoring=lenient");
  expect(csv.slice(1).map((l) => l.split(",").slice(0, 3))).toEqual(lenient.rows.map((r) => [r.continuous_id, "seq", String(r.solve_rate)]));

  // a chain's page: its bugs' figures in each mode, as the bugs table of the API
  await page.goto(`/dataset/${DEMO_VERSION}/chains/moneyx-chain-1`);
  const bugs = await api("?mode=seq&table=bugs");
  const own = bugs.rows.filter((r) => r.continuous_id === "moneyx-chain-1");
  expect(own.map((r) => r.order)).toEqual([1, 2, 3]);
  const seq = page.getByTestId("discrimination-seq");
  const bugTable = seq.getByRole("table", { name: "Bugs that still discriminate, strict scoring, Seq rows" });
  for (const r of own) await expect(bugTable.getByRole("row", { name: new RegExp(`^${r.order}\\b`) }).getByRole("cell")).toHaveText(printed(r, bugs.top_n));
  const chain = doc.rows.find((r) => r.continuous_id === "moneyx-chain-1")!;
  await expect(seq).toContainText(`whole chain solved by ${(100 * chain.solve_rate).toFixed(1)}% of the rows`);
  await expect(page.getByTestId("discrimination-oracle")).toBeVisible();

  expect((await page.request.get(`/api/v1/dataset/${DEMO_VERSION}/discrimination?mode=seq_mem`)).status()).toBe(404);
  expect((await page.request.get(`/api/v1/dataset/${DEMO_VERSION}/discrimination?table=positions`)).status()).toBe(400);
});

test("a problem statement holding HTML is shown as text, never run", async ({ page }) => {
  const version = `html-${Date.now().toString(36)}`;
  chainswe(process.env.E2E_DATABASE_URL!, ["dataset", "import", join(ROOT, "tests", "fixtures", "inputs", "html-problem-dataset.jsonl"), "--version", version]);
  try {
    await page.goto(`/dataset/${version}/chains/html-escape-chain-1`);
    await page.getByText("Problem statement:").click();
    const statement = page.getByTestId("problem-statement");
    await expect(statement).toContainText('<script>window.__chainsweXss = 1</script> or <img src=x onerror="window.__chainsweXss = 2">');
    await expect(statement).toContainText('<b>not bold</b> & "quoted"');
    await expect(statement.locator("script, img, b")).toHaveCount(0);
    expect(await page.evaluate(() => (window as { __chainsweXss?: number }).__chainsweXss)).toBeUndefined();
    await expect(page.getByText("No public evaluated submission has attempted this chain yet.")).toBeVisible();
    await shot(page, "dataset-escaped-problem-statement");
  } finally {
    // the specs share one database: the version goes again, so none of them finds it
    const sqlite = new Database(new URL(process.env.E2E_DATABASE_URL!).pathname);
    sqlite.pragma("foreign_keys = ON");
    sqlite.prepare(`DELETE FROM DatasetVersion WHERE version = ?`).run(version);
    sqlite.close();
  }
});

/** The statement of tests/fixtures/inputs/markdown-problem-dataset.jsonl, checked where a problem statement is shown. */
async function shownAsMarkdown(page: Page): Promise<void> {
  const statement = page.getByTestId("problem-statement");
  // a fence is a code block (its HTML kept as text), backticks are inline code
  await expect(statement.locator("pre code")).toHaveText("print(to_celsius(212))  # <b>not bold</b>");
  await expect(statement.locator("p code")).toHaveText("to_celsius");
  await expect(statement).not.toContainText("```");
  // a link is followed by no ranking and no opener; a javascript: one goes nowhere
  const docs = statement.getByRole("link", { name: "the docs" });
  await expect(docs).toHaveAttribute("href", "https://example.org/units");
  await expect(docs).toHaveAttribute("rel", /\bnofollow\b.*\bnoopener\b/);
  expect(await statement.getByText("this", { exact: true }).getAttribute("href")).not.toMatch(/javascript/i);
  // raw HTML is its text, never elements; an image is not loaded, only linked
  await expect(statement).toContainText("<script>window.__chainsweXss = 1</script>");
  await expect(statement).toContainText('<div onclick="window.__chainsweXss = 4">a raw HTML block</div>');
  await expect(statement.locator("script, img, b, div[onclick]")).toHaveCount(0);
  await expect(statement.getByRole("link", { name: "[image: diagram]" })).toHaveAttribute("rel", /\bnofollow\b/);
  await statement.getByText("a raw HTML block", { exact: false }).click();
  expect(await page.evaluate(() => (window as { __chainsweXss?: number }).__chainsweXss)).toBeUndefined();
}

test("a problem statement is Markdown (fences, code, links made nofollow), never HTML: on the chain page and the failure page", async ({ page }) => {
  const version = `md-${Date.now().toString(36)}`;
  const fixture = join(ROOT, "tests", "fixtures", "inputs", "markdown-problem-dataset.jsonl");
  chainswe(process.env.E2E_DATABASE_URL!, ["dataset", "import", fixture, "--version", version]);
  const markdown = (JSON.parse(readFileSync(fixture, "utf8")) as { bug_fixes: { problem_statement: string }[] }).bug_fixes[0]!.problem_statement;
  const sqlite = new Database(new URL(process.env.E2E_DATABASE_URL!).pathname);
  // the failure page of a public demo submission, its bug's statement swapped for the fixture's (put back afterwards)
  const failure = sqlite
    .prepare(
      `SELECT s.id, j.continuousId AS chain, b.id AS bug, b.problemStatement AS statement FROM Submission s JOIN EvaluationJob j ON j.submissionId = s.id
       JOIN DatasetVersion v ON v.id = s.datasetVersionId JOIN Chain c ON c.datasetVersionId = v.id AND c.continuousId = j.continuousId
       JOIN Bug b ON b.chainId = c.id AND b."order" = 1 WHERE s.visibility = 'public' AND s.status = 'completed' AND v.version = ? LIMIT 1`,
    )
    .get(DEMO_VERSION) as { id: string; chain: string; bug: number; statement: string };
  try {
    await page.goto(`/dataset/${version}/chains/markdown-chain-1`);
    await page.getByText("Problem statement:").click();
    await shownAsMarkdown(page);
    await shot(page, "dataset-markdown-problem-statement");

    sqlite.prepare(`UPDATE Bug SET problemStatement = ? WHERE id = ?`).run(markdown, failure.bug);
    await page.goto(`/submissions/${failure.id}/chains/${failure.chain}/bugs/1`);
    await shownAsMarkdown(page);
    await shot(page, "failure-markdown-problem-statement");
  } finally {
    sqlite.prepare(`UPDATE Bug SET problemStatement = ? WHERE id = ?`).run(failure.statement, failure.bug);
    sqlite.pragma("foreign_keys = ON");
    sqlite.prepare(`DELETE FROM DatasetVersion WHERE version = ?`).run(version);
    sqlite.close();
  }
});
