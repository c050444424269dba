/**
 * The demo benchmark replayed for real: every demo system in Oracle and Seq,
 * graded in Docker, compared bug by bug with the outcomes worked out by hand in
 * demo/expected.json; the chain errors `report --json` derives from those runs
 * compared with the hand-derived ones; and `validate` through the CLI.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { reportSchema } from "@/core/analysis/report";
import { bundleArchive, readBundle } from "@/evaluator/bundle/archive";
import { DEMO_DATASET, demoPredictionFiles, ensureDemoImages } from "@/cli/demo";
import { loadDataset, loadPredictions, type Dataset } from "@/evaluator/dataset";
import { evaluate, readResults } from "@/evaluator/replay";
import { defaultLimits } from "@/evaluator/sandbox";
import { modeSchema } from "@/core/schemas/prediction";
import { fingerprintSchema } from "@/core/schemas/results";
import { ownSandboxes } from "./engine";

const run = promisify(execFile);
const CLI = ["bin/chainswe.mjs"];

const expectedBug = z.object({
  continuous_id: z.string(),
  order: z.number(),
  resolved: z.boolean(),
  fingerprint: fingerprintSchema.nullable(),
  patch_applied: z.boolean(),
  tampered: z.boolean(),
});
const expectedChainError = z.object({
  continuous_id: z.string(),
  order: z.number(),
  seq_mode: z.string(),
  cause: z.string(),
  fingerprint: z.string(),
  evidence: z.array(z.object({ prior_order: z.number(), file: z.string(), kind: z.string(), strong: z.boolean() })),
});
const expectedSchema = z.object({
  systems: z.record(z.string(), z.object({ oracle: z.array(expectedBug), seq: z.array(expectedBug), chain_errors: z.array(expectedChainError) })),
});
const expected = expectedSchema.parse(JSON.parse(readFileSync("demo/expected.json", "utf8")));

let dataset: Dataset;
const outRoot = mkdtempSync(join(tmpdir(), "chainswe-demo-"));
const runDirs: string[] = [];

beforeAll(async () => {
  dataset = await loadDataset(DEMO_DATASET);
  await ensureDemoImages(dataset);
});

const key = (b: { continuous_id: string; order: number }) => `${b.continuous_id}#${b.order}`;

describe("demo systems replayed in Docker", async () => {
  const files = await demoPredictionFiles();
  it("ships predictions for every system and mode it expects", () => {
    const shipped = files.map((f) => `${f.system}.${f.mode}`).sort();
    const wanted = Object.keys(expected.systems).flatMap((s) => [`${s}.oracle`, `${s}.seq`]).sort();
    expect(shipped).toEqual(wanted);
  });

  it.each(files)("$system $mode grades every bug as worked out by hand", async ({ system, mode, path }) => {
    const outDir = join(outRoot, `${system}.${mode}`);
    runDirs.push(outDir);
    const summary = await evaluate({
      dataset,
      predictions: await loadPredictions(path, dataset.chains),
      mode: modeSchema.parse(mode),
      outDir,
      system,
      concurrency: 2,
      chainIds: null,
      limits: defaultLimits({ testTimeoutS: 120 }),
    });
    expect(summary.chains_failed).toBe(0);
    const got = new Map((await readResults(outDir)).map((b) => [key(b), b]));
    const want = expected.systems[system]![mode as "oracle" | "seq"];
    expect(got.size).toBe(want.length);
    for (const w of want) {
      const g = got.get(key(w));
      expect({ bug: key(w), resolved: g?.resolved, fingerprint: g?.fingerprint, patch_applied: g?.patch_applied, tampered: g?.tampered }).toEqual({
        bug: key(w),
        resolved: w.resolved,
        fingerprint: w.fingerprint,
        patch_applied: w.patch_applied,
        tampered: w.tampered,
      });
    }
  });

  it("report --json finds exactly the hand-derived chain errors, with causes and evidence", async () => {
    const { stdout } = await run(process.execPath, [...CLI, "report", ...runDirs, "--json"], { maxBuffer: 64 * 1024 * 1024 });
    const report = reportSchema.parse(JSON.parse(stdout));
    for (const [system, exp] of Object.entries(expected.systems)) {
      const got = report.chain_errors
        .filter((e) => e.system === system)
        .map(({ continuous_id, order, seq_mode, cause, fingerprint, evidence }) => ({ continuous_id, order, seq_mode, cause, fingerprint, evidence }));
      const want = exp.chain_errors.map(({ continuous_id, order, seq_mode, cause, fingerprint, evidence }) => ({ continuous_id, order, seq_mode, cause, fingerprint, evidence }));
      expect({ system, errors: got }).toEqual({ system, errors: want });
    }
    const causes = new Set(report.chain_errors.map((e) => e.cause));
    expect([...causes].sort()).toEqual(["both", "overshoot", "unattributed", "undershoot"]);
    const gold = report.systems.find((s) => s.system === "demo-gold")!;
    expect(gold.modes.map((m) => [m.mode, m.strict.per_bug.value, m.strict.chain.value])).toEqual([
      ["oracle", 100, 100],
      ["seq", 100, 100],
    ]);
  });
});

describe("reproducibility bundle (CLI)", () => {
  it("bundle → verify agrees offline and on replay; a changed log is named", async () => {
    const dir = runDirs.find((d) => d.endsWith("demo-overshoot.seq"));
    expect(dir, "the demo-overshoot Seq run above").toBeDefined();
    const bundle = join(outRoot, "overshoot.bundle.tar.gz");
    await run(process.execPath, [...CLI, "bundle", dir!, "--out", bundle]);
    const clean = await run(process.execPath, [...CLI, "verify", bundle, "--replay"], { maxBuffer: 16 * 1024 * 1024 });
    expect(clean.stdout).toMatch(/16\/16 bug\(s\) re-graded from their logs; replayed 5 chain\(s\)/);
    expect(clean.stdout).toContain("OK: the manifest, every verdict and every score agree");
    // one log changed inside the archive: the manifest and the re-grade both name it
    const files = await readBundle(bundle);
    const path = [...files.keys()].find((f) => f.endsWith("/2/test_output.txt"))!;
    files.set(path, Buffer.from(files.get(path)!.toString().replaceAll(" PASSED", " FAILED")));
    const tampered = join(outRoot, "tampered.bundle.tar.gz");
    writeFileSync(tampered, await bundleArchive(files));
    const bad = await run(process.execPath, [...CLI, "verify", tampered]).then(
      () => null,
      (e: { code: number; stdout: string }) => e,
    );
    expect(bad?.code).toBe(1);
    expect(bad?.stdout).toContain(`${path}: changed: its sha256 is not the manifest's`);
  });
});

describe("validate (CLI)", () => {
  it("accepts the demo dataset", async () => {
    const { stdout } = await run(process.execPath, [...CLI, "validate", DEMO_DATASET]);
    expect(stdout).toContain(`${dataset.chains.length}/${dataset.chains.length} chain(s) valid`);
  });

  it("exits non-zero listing a chain whose gold patch does not fix its bug", async () => {
    const dir = mkdtempSync(join(tmpdir(), "chainswe-invalid-"));
    const broken = structuredClone(dataset.chains[0]!);
    // bug 1's gold patch replaced by a harmless edit: the tests still fail under gold replay
    broken.bug_fixes[0]!.patch = readFileSync("tests/fixtures/inputs/noop.diff", "utf8");
    writeFileSync(join(dir, "d.jsonl"), `${JSON.stringify(broken)}\n${JSON.stringify(dataset.chains[1])}\n`);
    const failed = await run(process.execPath, [...CLI, "validate", join(dir, "d.jsonl")]).then(
      () => null,
      (e: { code: number; stdout: string }) => e,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stdout).toContain(`FAIL ${broken.continuous_id}`);
    expect(failed?.stdout).not.toContain(`FAIL ${dataset.chains[1]!.continuous_id}`);
    expect(failed?.stdout).toContain("1/2 chain(s) valid");
    // the failed chain's container went away like the others
    expect(await ownSandboxes()).toEqual([]);
  });
});
