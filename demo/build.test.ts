/**
 * The committed demo files are exactly what demo/build.ts produces (the build is
 * deterministic: pinned git identities and dates, hash-derived metadata), and they parse
 * with the project's schemas. Rebuilding replays every system with host pytest: slow.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chainSchema } from "@/core/schemas/dataset";
import { predictionLineSchema } from "@/core/schemas/prediction";
import { compareOutputs, generateDemo, OUTPUT_FILES } from "./lib/generate";
import { DEMO_DIR } from "./lib/source";
import { SYSTEMS } from "./lib/systems";

async function jsonLines(file: string): Promise<unknown[]> {
  const text = await readFile(file, "utf8");
  return text.split("\n").filter(Boolean).map((line) => JSON.parse(line) as unknown);
}

describe("demo build", () => {
  let fresh = "";

  beforeAll(async () => {
    fresh = await mkdtemp(path.join(os.tmpdir(), "chainswe-demo-test-"));
    await generateDemo(fresh, fresh);
  });

  afterAll(async () => {
    if (fresh) await rm(fresh, { recursive: true, force: true });
  });

  it("reproduces the committed dataset, predictions and expected.json byte for byte", async () => {
    expect(await compareOutputs(DEMO_DIR, fresh)).toEqual([]);
  });

  it("ships a dataset that parses with chainSchema", async () => {
    const chains = (await jsonLines(path.join(DEMO_DIR, OUTPUT_FILES.dataset))).map((line) => chainSchema.parse(line));
    expect(chains).toHaveLength(5);
    expect(chains.map((c) => c.bug_fixes.length).sort()).toEqual([3, 3, 3, 3, 4]);
    for (const chain of chains) {
      expect(chain.bug_fixes[0]?.commit_hash).not.toBe(chain.base_commit);
      expect(chain.docker_image).toBe(`${chain.repo}:${chain.base_commit.slice(0, 12)}`);
    }
  });

  it("ships parseable predictions for every system in oracle and seq mode", async () => {
    for (const system of SYSTEMS) {
      for (const mode of ["oracle", "seq"]) {
        const lines = await jsonLines(path.join(DEMO_DIR, OUTPUT_FILES.predictions, `${system.name}.${mode}.jsonl`));
        expect(lines).toHaveLength(16);
        for (const line of lines) expect(predictionLineSchema.parse(line).model_name_or_path).toBe(system.name);
      }
    }
  });

  it("expects every fingerprint and every chain-error cause somewhere", async () => {
    type Doc = { systems: Record<string, { oracle: { fingerprint: string | null }[]; seq: { fingerprint: string | null }[]; chain_errors: { cause: string }[] }> };
    const doc = JSON.parse(await readFile(path.join(DEMO_DIR, OUTPUT_FILES.expected), "utf8")) as Doc;
    const systems = Object.values(doc.systems);
    const fingerprints = new Set(systems.flatMap((s) => [...s.oracle, ...s.seq].map((b) => b.fingerprint)));
    const causes = new Set(systems.flatMap((s) => s.chain_errors.map((e) => e.cause)));
    expect([...fingerprints].sort()).toEqual(["broke_working_code", "left_unfixed", "no_usable_patch", null].sort());
    expect([...causes].sort()).toEqual(["both", "overshoot", "unattributed", "undershoot"]);
  });
});
