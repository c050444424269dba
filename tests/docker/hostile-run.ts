/**
 * Runs a hostile submission on the tiny chain for real, under a chain id of its
 * own (the container labels carry it), so a test sees only its own containers
 * even while other evaluations run on the same engine.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "vitest";
import { bugLogDir, evaluate, readResults } from "@/evaluator/replay";
import { defaultLimits, docker, type SandboxLimits } from "@/evaluator/sandbox";
import type { Chain } from "@/core/schemas/dataset";
import type { Mode } from "@/core/schemas/prediction";
import type { GradedBug } from "@/core/schemas/results";
import { predictionsFor } from "./patches";
import type { TinyRepo } from "./tiny-repo";

/** The tiny chain under a fresh id, with any field replaced (e.g. test_cmds of its bugs). */
export function hostileChain(tiny: TinyRepo, name: string, over: Partial<Chain> = {}): Chain {
  return { ...tiny.chain, continuous_id: `hostile-${name}-${randomBytes(4).toString("hex")}`, ...over };
}

/**
 * The chain with a shell line run before (or after) each bug's test command, or
 * only bug `order`'s: its output lands in the log.
 */
export function withProbe(chain: Chain, probe: string, at: "before" | "after" = "before", order?: number): Chain {
  const cmds = (c: string[]) => (at === "before" ? [probe, ...c] : [...c, probe]);
  return { ...chain, bug_fixes: chain.bug_fixes.map((b) => (order === undefined || b.order === order ? { ...b, test_cmds: cmds(b.test_cmds) } : b)) };
}

/** Every container labelled with the chain (the states container and each bug's). */
export async function containersOf(chainId: string): Promise<string[]> {
  const list = await docker().listContainers({ all: true, filters: { label: [`chainswe.chain=${chainId}`] } });
  return list.map((c) => c.Id);
}

export type HostileRun = { bugs: GradedBug[]; logs: string[]; errors: string };

/**
 * Grades the patches (order → diff) and checks what every hostile test needs:
 * no environment or dataset error (the bug is graded, not retried), and no
 * container of the chain left behind.
 */
export async function gradeHostile(chain: Chain, mode: Mode, patches: Record<number, string>, limits: Partial<SandboxLimits> = {}): Promise<HostileRun> {
  const outDir = mkdtempSync(join(tmpdir(), "chainswe-hostile-"));
  await evaluate({
    dataset: { path: "tiny.jsonl", sha256: "tiny", chains: [chain], warnings: [] },
    predictions: predictionsFor(chain, patches, "hostile"),
    mode,
    outDir,
    system: "hostile",
    concurrency: 1,
    chainIds: null,
    limits: defaultLimits({ testTimeoutS: 30, ...limits }),
  });
  const errorsFile = join(outDir, "errors.jsonl");
  const errors = existsSync(errorsFile) ? readFileSync(errorsFile, "utf8") : "";
  expect(errors).toBe("");
  expect(await containersOf(chain.continuous_id)).toEqual([]);
  const bugs = (await readResults(outDir)).sort((a, b) => a.order - b.order);
  expect(bugs.map((b) => b.order)).toEqual(chain.bug_fixes.map((b) => b.order));
  const logs = bugs.map((b) => readFileSync(join(bugLogDir(outDir, chain.continuous_id, b.order), "test_output.txt"), "utf8"));
  return { bugs, logs, errors };
}
