/**
 * The evaluation directory across runs: environment failures are errors, not
 * grades, and are retried; a re-run resumes without replaying finished chains.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { Dataset } from "@/evaluator/dataset";
import { evaluate, readResults, type EvaluateEvent } from "@/evaluator/replay";
import { defaultLimits } from "@/evaluator/sandbox";
import type { Chain } from "@/core/schemas/dataset";
import { buildTinyRepo, type TinyRepo } from "./tiny-repo";
import { predictionsFor } from "./patches";

let tiny: TinyRepo;
beforeAll(async () => {
  tiny = await buildTinyRepo();
});

async function runInto(outDir: string, chains: Chain[]) {
  const events: EvaluateEvent[] = [];
  const dataset: Dataset = { path: "d.jsonl", sha256: "d", chains, warnings: [] };
  const gold = Object.fromEntries(tiny.chain.bug_fixes.map((b) => [b.order, b.patch]));
  const predictions = predictionsFor(tiny.chain, gold);
  const summary = await evaluate({
    dataset,
    predictions: { ...predictions, byChain: new Map(chains.map((c) => [c.continuous_id, predictions.byChain.get("tiny-chain")!])) },
    mode: "seq",
    outDir,
    system: "test-system",
    concurrency: 2,
    chainIds: null,
    limits: defaultLimits(),
    onEvent: (e) => events.push(e),
  });
  return { summary, events };
}

describe("evaluation directory", () => {
  it("records a missing image as an environment error naming it, grades nothing for it, and retries it", async () => {
    const outDir = mkdtempSync(join(tmpdir(), "chainswe-env-"));
    const missing: Chain = { ...tiny.chain, continuous_id: "needs-missing-image", docker_image: "chainswe-test/no-such-image:0" };
    const first = await runInto(outDir, [tiny.chain, missing]);
    expect(first.summary).toMatchObject({ chains_graded: 1, chains_failed: 1, bugs_graded: 2 });
    const errors = readFileSync(join(outDir, "errors.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ kind: "environment", continuous_id: "needs-missing-image" });
    expect(errors[0].message).toContain("chainswe-test/no-such-image:0");
    expect((await readResults(outDir)).map((b) => b.continuous_id)).toEqual(["tiny-chain", "tiny-chain"]);

    // the re-run skips the finished chain and tries the failed one again
    const second = await runInto(outDir, [tiny.chain, missing]);
    expect(second.events[0]).toEqual({ kind: "start", total: 2, skipped: 1 });
    expect(second.events.filter((e) => e.kind === "bug")).toEqual([]);
    expect(second.events.filter((e) => e.kind === "chain_error").map((e) => e.continuousId)).toEqual(["needs-missing-image"]);
    expect(await readResults(outDir)).toHaveLength(2);
  });

  it("refuses to resume into a directory that holds another system's run", async () => {
    const outDir = mkdtempSync(join(tmpdir(), "chainswe-mix-"));
    await runInto(outDir, [tiny.chain]);
    const dataset: Dataset = { path: "d.jsonl", sha256: "d", chains: [tiny.chain], warnings: [] };
    await expect(
      evaluate({ dataset, predictions: predictionsFor(tiny.chain, {}, "other"), mode: "seq", outDir, system: "other", concurrency: 1, chainIds: null, limits: defaultLimits() }),
    ).rejects.toThrow(/holds a different run/);
  });
});
