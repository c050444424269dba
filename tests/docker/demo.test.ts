/**
 * The demo benchmark replayed for real: every demo system in Oracle and Seq,
 * evaluated in Docker by `chainswe worker` into the portal's database (the
 * database the browser tests serve: lib/testing/demo-database.ts, made once
 * per test run), taken out as each submission's reproducibility bundle (an
 * evaluation directory) and compared bug by bug with the outcomes worked out
 * by hand in demo/expected.json; the chain errors `report --json` derives from
 * those directories compared with the hand-derived ones; a bundle verified
 * and replayed; and `validate` through the CLI.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { reportSchema } from "@/core/analysis/report";
import { sha256 } from "@/evaluator/bundle";
import { bundleArchive, readBundle } from "@/evaluator/bundle/archive";
import { DEMO_DATASET, demoPredictionFiles, ensureDemoImages } from "@/cli/demo";
import { loadDataset, loadPredictions, type Dataset } from "@/evaluator/dataset";
import { evaluate, readResults, readSummary } from "@/evaluator/replay";
import { defaultLimits } from "@/evaluator/sandbox";
import { fingerprintSchema, runSummarySchema } from "@/core/schemas/results";
import { evaluatedDemoDatabase } from "@/lib/testing/demo-database";
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
/** `<system>.<mode>` → the evaluation directory its submission's bundle unpacks to */
const runDirs = new Map<string, string>();

/** Each demo submission (run 1 of its entry) as the evaluation directory its bundle holds, patches included (a reviewer's bundle). */
async function evaluationDirs(): Promise<void> {
  vi.stubEnv("DATABASE_URL", evaluatedDemoDatabase("demo-test").url);
  const { db } = await import("@/db/client");
  const { viewerById } = await import("@/lib/accounts/users");
  const { submissionBundle } = await import("@/lib/submissions/bundle");
  const user = await db.user.create({ data: { username: "demo-test-reviewer", name: "demo test reviewer", isReviewer: true } });
  const reviewer = (await viewerById(user.id))!;
  const submissions = await db.submission.findMany({ where: { runOfId: null }, select: { id: true, mode: true, status: true, system: { select: { name: true } } } });
  for (const s of submissions) {
    expect({ submission: `${s.system.name}.${s.mode}`, status: s.status }).toEqual({ submission: `${s.system.name}.${s.mode}`, status: "completed" });
    const dir = join(outRoot, `${s.system.name}.${s.mode}`);
    const archive = join(outRoot, `${s.system.name}.${s.mode}.tar.gz`);
    writeFileSync(archive, (await submissionBundle(reviewer, s.id)).archive);
    for (const [path, bytes] of await readBundle(archive)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), bytes);
    }
    runDirs.set(`${s.system.name}.${s.mode}`, dir);
  }
  await db.$disconnect();
  vi.unstubAllEnvs();
}

beforeAll(async () => {
  // first: the portal's modules read DATABASE_URL once, when first asked
  await evaluationDirs();
  dataset = await loadDataset(DEMO_DATASET);
  await ensureDemoImages(dataset);
});

const key = (b: { continuous_id: string; order: number }) => `${b.continuous_id}#${b.order}`;

const files = await demoPredictionFiles();

describe("demo systems replayed in Docker", () => {
  it("ships predictions for every system and mode it expects", () => {
    const shipped = files.map((f) => `${f.system}.${f.mode}`).sort();
    const wanted = Object.keys(expected.systems).flatMap((s) => [`${s}.oracle`, `${s}.seq`]).sort();
    expect(shipped).toEqual(wanted);
  });

  it.each(files)("$system $mode grades every bug as worked out by hand", async ({ system, mode }) => {
    const outDir = runDirs.get(`${system}.${mode}`);
    expect(outDir, `the portal's evaluation of ${system} ${mode}`).toBeDefined();
    expect((await readSummary(outDir!))?.chains_failed).toBe(0);
    const got = new Map((await readResults(outDir!)).map((b) => [key(b), b]));
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
    const { stdout } = await run(process.execPath, [...CLI, "report", ...files.map((f) => runDirs.get(`${f.system}.${f.mode}`)!), "--json"], { maxBuffer: 64 * 1024 * 1024 });
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
  it("evaluate → bundle → verify agrees offline and on replay, and with the portal's evaluation; a changed log is named", async () => {
    // the engine on its own (`evaluate`, no portal) for one demo system, the directory `chainswe bundle` packs
    const file = files.find((f) => f.system === "demo-overshoot" && f.mode === "seq")!;
    const dir = join(outRoot, "engine", "demo-overshoot.seq");
    const summary = await evaluate({
      dataset,
      predictions: await loadPredictions(file.path, dataset.chains),
      mode: "seq",
      outDir: dir,
      system: file.system,
      concurrency: 2,
      chainIds: null,
      limits: defaultLimits({ testTimeoutS: 120 }),
    });
    expect(summary.chains_failed).toBe(0);
    // the same verdicts as the portal's worker reached for the same submission
    const verdict = (b: { continuous_id: string; order: number; resolved: boolean; fingerprint: string | null; patch_applied: boolean }) =>
      [key(b), b.resolved, b.fingerprint, b.patch_applied].join(" ");
    expect((await readResults(dir)).map(verdict).sort()).toEqual((await readResults(runDirs.get("demo-overshoot.seq")!)).map(verdict).sort());
    const bundle = join(outRoot, "overshoot.bundle.tar.gz");
    await run(process.execPath, [...CLI, "bundle", dir, "--out", bundle]);
    const clean = await run(process.execPath, [...CLI, "verify", bundle, "--replay"], { maxBuffer: 16 * 1024 * 1024 });
    expect(clean.stdout).toMatch(/16\/16 bug\(s\) re-graded from their logs; replayed 5 chain\(s\)/);
    expect(clean.stdout).toContain("OK: the manifest, every verdict and every score agree");
    // the portal's bundle of that submission verifies offline too
    const portal = await run(process.execPath, [...CLI, "verify", join(outRoot, "demo-overshoot.seq.tar.gz")], { maxBuffer: 16 * 1024 * 1024 });
    expect(portal.stdout).toContain("OK: the manifest, every verdict and every score agree");
    // one log changed inside the archive: the manifest and the re-grade both name it
    const bundled = await readBundle(bundle);
    const path = [...bundled.keys()].find((f) => f.endsWith("/2/test_output.txt"))!;
    bundled.set(path, Buffer.from(bundled.get(path)!.toString().replaceAll(" PASSED", " FAILED")));
    const tampered = join(outRoot, "tampered.bundle.tar.gz");
    writeFileSync(tampered, await bundleArchive(bundled));
    const bad = await run(process.execPath, [...CLI, "verify", tampered]).then(
      () => null,
      (e: { code: number; stdout: string }) => e,
    );
    expect(bad?.code).toBe(1);
    expect(bad?.stdout).toContain(`${path}: changed: its sha256 is not the manifest's`);
  });
});

describe("a portal bundle's round trip (CLI)", () => {
  it("download → extract → verify (repacked with `tar -C dir -c .`) → bundle → verify, the same files again", async () => {
    // downloaded by a reviewer (patches included) in evaluationDirs; extracted here as a user would
    const dir = join(outRoot, "round-trip");
    mkdirSync(dir);
    await run("tar", ["-C", dir, "-xzf", join(outRoot, "demo-overshoot.seq.tar.gz")]);
    const summary = runSummarySchema.parse(JSON.parse(readFileSync(join(dir, "summary.json"), "utf8")));
    expect(summary.predictions.sha256).toBe(sha256(readFileSync(join(dir, "predictions.jsonl"))));
    const ok = "OK: the manifest, every verdict and every score agree";
    // packed again as tar packs a directory: every entry named ./…
    const repacked = join(outRoot, "round-trip.repacked.tar.gz");
    await run("tar", ["-C", dir, "-czf", repacked, "."]);
    expect((await run("tar", ["-tzf", repacked])).stdout).toMatch(/^\.\/summary\.json$/m);
    expect((await run(process.execPath, [...CLI, "verify", repacked], { maxBuffer: 16 * 1024 * 1024 })).stdout).toContain(ok);
    // the extracted folder bundled again: its own dataset.jsonl and predictions.jsonl, each checked against what the run recorded
    const again = join(outRoot, "round-trip.again.tar.gz");
    await run(process.execPath, [...CLI, "bundle", dir, "--out", again]);
    expect((await run(process.execPath, [...CLI, "verify", again], { maxBuffer: 16 * 1024 * 1024 })).stdout).toContain(ok);
    const original = await readBundle(join(outRoot, "demo-overshoot.seq.tar.gz"));
    const rebundled = await readBundle(again);
    expect([...rebundled.keys()].sort()).toEqual([...original.keys()].sort());
    for (const [path, data] of original) if (path !== "environment.json" && path !== "manifest.json") expect(rebundled.get(path)?.equals(data), path).toBe(true);
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
