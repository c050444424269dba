/** Only public, completed submissions reach the home page, each with its own scores. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_GOLD_SEQ, openTestDb } from "@/lib/testing/test-db";

let t: Awaited<ReturnType<typeof openTestDb>>;

beforeAll(async () => {
  t = await openTestDb();
}, 60_000);
afterAll(async () => t?.close());

describe("listPublicResults", () => {
  it("lists public completed submissions only, with scores from their graded bugs", async () => {
    const make = async (systemName: string, status: string, visibility: string) => {
      const { id } = await t.submissions.createSubmission({ systemName, teamName: "t", datasetVersion: "v1", mode: "seq", predictions: DEMO_GOLD_SEQ });
      await t.db.submission.update({ where: { id }, data: { status, visibility, finishedAt: new Date() } });
      return id;
    };
    const shown = await make("shown", "completed", "public");
    await make("private", "completed", "private");
    await make("running", "running", "public");
    await make("pending", "completed", "pending_review");
    // one chain graded: every bug of dateranges-chain-1 resolved
    const chain = (await t.datasets.getChain("v1", "dateranges-chain-1"))!;
    await t.db.bugResult.createMany({
      data: chain.bug_fixes.map((b) => ({
        submissionId: shown,
        continuousId: chain.continuous_id,
        order: b.order,
        swebenchInstanceId: b.swebench_instance_id,
        resolved: true,
        patchApplied: true,
        tampered: false,
        failToPass: "{}",
        passToPass: "{}",
        timedOut: false,
        durationS: 1,
        modelFiles: "[]",
        goldFiles: "[]",
        testFiles: "[]",
        discardedFiles: "[]",
        log: "",
      })),
    });
    const { listPublicResults } = await import("./public-results");
    const rows = await listPublicResults();
    expect(rows.map((r) => r.system.name)).toEqual(["shown"]);
    // 4 of the 16 demo bugs and 1 of the 5 chains
    expect(rows[0]!.scores?.headline.perBug.value).toBeCloseTo(25, 5);
    expect(rows[0]!.scores?.headline.chain.value).toBeCloseTo(20, 5);
  });
});
