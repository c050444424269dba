/**
 * The replay's cost follows what the patches and the tests change, not the
 * repository's size: on a generated repository of 5,000 tracked files, a
 * non-gold chain whose patches each change one file leaves every container
 * the harness used with a handful of changed paths (`docker diff`, read by
 * the engine just before each container is removed), the same handful as on
 * a repository of 50 files. Structural, not timed.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { replayChain } from "@/evaluator/replay";
import { ChainContainers, defaultLimits, type Sandbox } from "@/evaluator/sandbox";
import { containerChanges } from "@/evaluator/sandbox/disk-watch";
import type { Mode, PredictionLine } from "@/core/schemas/prediction";
import { ownSandboxes } from "./engine";
import { buildGeneratedRepo, type GeneratedRepo } from "./generated-repo";

/**
 * Paths a container may hold changed when it is removed: in a bug's, git's own
 * few files, the patched files and the tests' bytecode; in the states', the
 * objects of two commits per bug (a gold state and a graded one), each a file
 * and its bucket directory, in proportion to the chain's length.
 */
const bound = (use: string) => (use === "states" ? 40 * 3 : 60);

let large: GeneratedRepo;
let small: GeneratedRepo;
beforeAll(async () => {
  large = await buildGeneratedRepo({ files: 5000 });
  small = await buildGeneratedRepo({ files: 50 });
});

type Use = { use: string; changed: number; paths: string[] };

/** Replays the chain with `lines`; answers each container's use and its changed paths, in removal order. */
async function replayCounting(repo: GeneratedRepo, mode: Mode, lines: PredictionLine[]) {
  const uses: Use[] = [];
  const inspect = async (sandbox: Sandbox, use: string) => {
    const changes = await containerChanges(sandbox.container);
    uses.push({ use, changed: changes.length, paths: changes.map((c) => c.Path) });
  };
  const containers = new ChainContainers(repo.image, defaultLimits({ testTimeoutS: 60 }), { "chainswe.chain": `${repo.chain.continuous_id}-${mode}` }, inspect);
  try {
    const graded = await replayChain(containers, {
      chain: repo.chain,
      mode,
      system: "scale",
      predictions: new Map(lines.map((l, i) => [i + 1, l])),
      testTimeoutS: 60,
    });
    return { bugs: graded.map((g) => g.bug), uses };
  } finally {
    await containers.remove();
  }
}

const gold = (repo: GeneratedRepo): PredictionLine[] =>
  repo.chain.bug_fixes.map((b) => ({ continuous_id: repo.chain.continuous_id, swebench_instance_id: b.swebench_instance_id, model_patch: b.patch }));

describe("replay at repository scale", () => {
  it("the generated repository has the size the test is about", () => {
    expect(large.trackedFiles).toBeGreaterThanOrEqual(5000);
    expect(small.trackedFiles).toBeLessThanOrEqual(60);
  });

  it.each(["seq", "oracle"] as const)("%s, non-gold patches: each bug in a fresh container, every container with a few changed paths whatever the repository's size", async (mode) => {
    const onLarge = await replayCounting(large, mode, large.overshoot[mode]);
    const onSmall = await replayCounting(small, mode, small.overshoot[mode]);
    // graded right: the stray lines break nothing, and in Seq each patch applies only on the agent's own earlier state
    for (const run of [onLarge, onSmall]) {
      expect(run.bugs.map((b) => [b.order, b.patch_applied, b.resolved])).toEqual([
        [1, true, true],
        [2, true, true],
        [3, true, true],
      ]);
    }
    // the states' container and one per bug
    expect(onLarge.uses.map((u) => u.use).sort()).toEqual(["bug 1", "bug 2", "bug 3", "states"]);
    for (const u of onLarge.uses) {
      expect(u.changed, `${u.use}: ${u.paths.slice(0, 40).join(" ")}`).toBeLessThanOrEqual(bound(u.use));
      // and as many as on a repository a hundred times smaller (git's object buckets may be shared or not)
      const same = onSmall.uses.find((v) => v.use === u.use)!;
      expect(Math.abs(u.changed - same.changed), `${u.use}: ${u.changed} paths on ${large.trackedFiles} files, ${same.changed} on ${small.trackedFiles}`).toBeLessThanOrEqual(12);
    }
    expect(await ownSandboxes()).toEqual([]);
  });

  it("gold patches: the same, a fresh container per bug", async () => {
    const run = await replayCounting(large, "seq", gold(large));
    expect(run.bugs.every((b) => b.resolved)).toBe(true);
    expect(run.uses.map((u) => u.use).sort()).toEqual(["bug 1", "bug 2", "bug 3", "states"]);
    for (const u of run.uses) expect(u.changed, `${u.use}: ${u.paths.slice(0, 40).join(" ")}`).toBeLessThanOrEqual(bound(u.use));
  });
});
