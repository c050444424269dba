import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { readBundle } from "./archive";
import { gradedWithLog } from "@/evaluator/regrade/test-fixtures";
import { runSummary } from "@/core/scoring/test-fixtures";
import { chainSchema } from "@/core/schemas/dataset";
import type { GradedBug } from "@/core/schemas/results";
import { bugKey, bundleFiles, bundleLogPath, MANIFEST_FILE, sha256, type BundleInput } from "./bundle";
import { firstDifference, verifyBundle } from "./verify";

const log = (name: string) => readFileSync(new URL(`../../tests/fixtures/logs/${name}`, import.meta.url), "utf8").trimEnd();
const V = "tests/test_v.py::";
const DIFF = "diff --git a/a.py b/a.py\n--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-a\n+b\n";
const bugRecord = (order: number) => ({
  order,
  swebench_instance_id: `c-1-${order}`,
  commit_hash: "abc",
  problem_statement: "p",
  date: "2024-01-0" + order,
  source: "test",
  patch: DIFF,
  test_patch: DIFF,
  FAIL_TO_PASS: [`${V}test_prints`, `${V}test_param[a b]`],
  PASS_TO_PASS: [`${V}test_pass`],
  test_cmds: "pytest",
});
const chain = chainSchema.parse({
  continuous_id: "c-1",
  repo: "o/r",
  base_commit: "abc",
  source: "test",
  date_range: "2024",
  docker_image: "img:1",
  swebench_instance_ids: ["c-1-1", "c-1-2"],
  bug_fixes: [bugRecord(1), bugRecord(2)],
});

/** Bug `order` graded from a fixture log as the replay grades it, with the log the replay keeps. */
function graded(order: number, output: string): { bug: GradedBug; log: string } {
  const record = chain.bug_fixes[order - 1]!;
  return gradedWithLog({ output, parser: "pytest", failToPass: record.FAIL_TO_PASS, passToPass: record.PASS_TO_PASS, result: { continuous_id: "c-1", order, swebench_instance_id: record.swebench_instance_id } });
}

function inputOf(): BundleInput {
  const one = graded(1, log("pytest-9-v-s.log"));
  const two = graded(2, log("pytest-9-v-only.log"));
  return {
    summary: runSummary("sys", "seq", [["c-1", 2]]),
    bugs: [one.bug, two.bug],
    logs: new Map([
      [bugKey("c-1", 1), { log: one.log, modelPatch: DIFF }],
      [bugKey("c-1", 2), { log: two.log, modelPatch: "" }],
    ]),
    predictionsJsonl: `${JSON.stringify({ continuous_id: "c-1", model_patch: DIFF })}\n`,
    datasetJsonl: `${JSON.stringify(chain)}\n`,
    datasetName: "v1",
    images: [{ image: "img:1", id: null, digests: [] }],
  };
}

const makeBundle = () => bundleFiles(inputOf());

describe("reproducibility bundle", () => {
  it("holds every file the spec lists, each hashed in the manifest, and verifies clean", () => {
    const files = makeBundle();
    expect([...files.keys()].sort()).toEqual(
      [
        "dataset.jsonl",
        "environment.json",
        "logs/c-1/1/model.patch",
        "logs/c-1/1/test_output.txt",
        "logs/c-1/2/model.patch",
        "logs/c-1/2/test_output.txt",
        MANIFEST_FILE,
        "predictions.jsonl",
        "report.json",
        "results.jsonl",
        "summary.json",
      ].sort(),
    );
    const manifest = JSON.parse(files.get(MANIFEST_FILE)!.toString()) as { files: Record<string, string> };
    expect(manifest.files["results.jsonl"]).toBe(sha256(files.get("results.jsonl")!));
    expect(Object.keys(manifest.files)).toHaveLength(files.size - 1);
    expect(JSON.parse(files.get("environment.json")!.toString())).toMatchObject({ dataset: { name: "v1", sha256: sha256(files.get("dataset.jsonl")!) }, images: [{ image: "img:1" }] });
    expect(verifyBundle(files)).toEqual({ bugs: 2, regraded: 2, problems: [] });
  });

  it("a changed log is named: by the manifest, and by the re-grade that disagrees with results.jsonl", () => {
    const files = makeBundle();
    const path = bundleLogPath("c-1", 1, "test_output.txt");
    // bug 1's PASS_TO_PASS test now fails: its verdict changes
    const tampered = files.get(path)!.toString().replace(`${V}test_pass PASSED`, `${V}test_pass FAILED`);
    expect(tampered).not.toBe(files.get(path)!.toString());
    files.set(path, Buffer.from(tampered));
    const { problems } = verifyBundle(files);
    expect(problems).toContainEqual({ file: path, problem: "changed: its sha256 is not the manifest's" });
    expect(problems.find((p) => p.file === path && p.problem.startsWith("re-grading gives"))?.problem).toMatch(/^re-grading gives UNRESOLVED \(broke_working_code\), results\.jsonl says .*PASS_TO_PASS tests\/test_v\.py::test_pass: PASSED → FAILED/);
  });

  it("a changed result is named even with the manifest rewritten to match: the log and the scores disagree", () => {
    const files = makeBundle();
    const results = files.get("results.jsonl")!.toString().split("\n");
    const first = JSON.parse(results[0]!) as GradedBug;
    results[0] = JSON.stringify({ ...first, resolved: !first.resolved, fingerprint: first.resolved ? "left_unfixed" : null });
    files.set("results.jsonl", Buffer.from(results.join("\n")));
    const manifest = JSON.parse(files.get(MANIFEST_FILE)!.toString()) as { bundle_version: number; files: Record<string, string> };
    manifest.files["results.jsonl"] = sha256(files.get("results.jsonl")!);
    files.set(MANIFEST_FILE, Buffer.from(JSON.stringify(manifest)));
    const files2 = verifyBundle(files).problems.map((p) => p.file);
    expect(files2).toContain(bundleLogPath("c-1", 1, "test_output.txt"));
    expect(files2).toContain("report.json");
    expect(files2).not.toContain("results.jsonl");
  });

  it("without the patches (withheld): no predictions.jsonl and no model.patch, and it still verifies", () => {
    const full = makeBundle();
    const files = bundleFiles({ ...inputOf(), predictionsJsonl: null });
    expect([...files.keys()].filter((f) => f.endsWith("model.patch") || f === "predictions.jsonl")).toEqual([]);
    expect(files.get("results.jsonl")).toEqual(full.get("results.jsonl"));
    expect(JSON.parse(files.get("environment.json")!.toString())).toMatchObject({ patches_included: false });
    expect(verifyBundle(files).problems).toEqual([]);
  });

  it("a missing file, an extra file and a bad results line are each named", () => {
    const files = makeBundle();
    files.delete("summary.json");
    files.set("extra.txt", Buffer.from("x"));
    files.set("results.jsonl", Buffer.concat([files.get("results.jsonl")!, Buffer.from("{not json\n")]));
    const problems = verifyBundle(files).problems;
    expect(problems).toContainEqual({ file: "summary.json", problem: "listed in the manifest but missing" });
    expect(problems).toContainEqual({ file: "extra.txt", problem: "not listed in the manifest" });
    expect(problems.some((p) => p.file === "results.jsonl line 3")).toBe(true);
  });

  it("a bundle repacked with `tar -C dir -c .` (every entry named ./…) reads and verifies as the original", async () => {
    const files = makeBundle();
    const dir = mkdtempSync(join(tmpdir(), "chainswe-bundle-dot-"));
    const unpacked = join(dir, "unpacked");
    for (const [path, data] of files) {
      mkdirSync(dirname(join(unpacked, path)), { recursive: true });
      writeFileSync(join(unpacked, path), data);
    }
    const archive = join(dir, "repacked.tar.gz");
    execFileSync("tar", ["-C", unpacked, "-czf", archive, "."]);
    expect(execFileSync("tar", ["-tzf", archive], { encoding: "utf8" })).toMatch(/^\.\/summary\.json$/m);
    const read = await readBundle(archive);
    expect([...read.keys()].sort()).toEqual([...files.keys()].sort());
    expect(verifyBundle(read)).toEqual({ bugs: 2, regraded: 2, problems: [] });
  });

  it("firstDifference names the path", () => {
    expect(firstDifference({ a: [1, { b: 2 }] }, { a: [1, { b: 3 }] })).toBe("a[1].b");
    expect(firstDifference({ a: 1 }, { a: 1 })).toBeNull();
  });
});
