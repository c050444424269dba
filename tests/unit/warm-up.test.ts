/**
 * The site's warm-up (lib/site/warm-up.ts) views every page under app/ once, so
 * a new page fails here until it is warmed; it views a public bug with a shown
 * trajectory when there is one (the failure page's timeline), else any public
 * bug, else names that find nothing.
 */
import { readdirSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { completedSubmission, openTestDb, type TestDb } from "@/lib/testing/test-db";

const ROOT = new URL("../../", import.meta.url).pathname;

function pageFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? pageFiles(join(dir, e.name)) : e.name === "page.tsx" ? [relative(ROOT, join(dir, e.name)).split(sep).join("/")] : [],
  );
}

/** The address pattern a page file serves: its folders, each [parameter] one segment. */
const pattern = (file: string) =>
  new RegExp(`^${file.replace(/^app/, "").replace(/\/page\.tsx$/, "").replace(/\[[^\]]+\]/g, "[^/]+") || "/"}$`);

let t: TestDb;
beforeAll(async () => {
  t = await openTestDb();
});
afterAll(async () => {
  await t.close();
});

describe("the site's warm-up", () => {
  // first: nothing submitted yet
  it("views every page under app/, on a database with no submission", async () => {
    const { warmUpPaths } = await import("@/lib/site/warm-up");
    const paths = await warmUpPaths();
    const pages = pageFiles(join(ROOT, "app"));
    expect(pages.length).toBeGreaterThan(20);
    expect(pages.filter((file) => !paths.some((p) => pattern(file).test(p.split("?")[0]!)))).toEqual([]);
    expect(paths).toContain("/submissions/warm-up/chains/warm-up/bugs/1");
    expect(paths).toContain("/dataset/v1/chains/" + encodeURIComponent((await t.db.chain.findFirstOrThrow({ orderBy: { id: "asc" } })).continuousId));
  });

  it("views a public bug whose trajectory is shown, before any other public bug, and never a private one", async () => {
    const { warmUpPaths } = await import("@/lib/site/warm-up");
    const chain = (await t.db.chain.findFirstOrThrow({ orderBy: { id: "asc" } })).continuousId;
    const hidden = await completedSubmission(t, { system: { name: "hidden" }, mode: "seq", visibility: "private", unresolved: { [chain]: [1] } });
    await t.db.trajectory.create({ data: { submissionId: hidden, continuousId: chain, order: 1, log: "", steps: 0, calls: 0 } });
    await t.db.submission.update({ where: { id: hidden }, data: { trajectoriesPublic: true } });
    expect((await warmUpPaths()).some((p) => p.includes(hidden))).toBe(false);

    const plain = await completedSubmission(t, { system: { name: "plain" }, mode: "seq", unresolved: { [chain]: [2] } });
    expect(await warmUpPaths()).toContain(`/submissions/${plain}/chains/${encodeURIComponent(chain)}/bugs/2`);

    const shown = await completedSubmission(t, { system: { name: "shown" }, mode: "seq" });
    await t.db.trajectory.create({ data: { submissionId: shown, continuousId: chain, order: 3, log: "", steps: 0, calls: 0 } });
    await t.db.submission.update({ where: { id: shown }, data: { trajectoriesPublic: true } });
    const paths = await warmUpPaths();
    expect(paths).toContain(`/submissions/${shown}/chains/${encodeURIComponent(chain)}/bugs/3`);
    expect(paths).toContain(`/submissions/${shown}/chains/${encodeURIComponent(chain)}/bugs/3/log`);
    expect(paths).toContain(`/api/v1/submissions/${shown}`);
  });
});
