/**
 * The evaluation directory (SPEC §3 "Evaluation output"): resuming from a
 * results.jsonl left by an interrupted run, appending whole chains, and reading
 * a finished directory back.
 */
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { gradedBug, runSummary } from "@/core/scoring/test-fixtures";
import type { GradedBug } from "@/core/schemas/results";
import {
  appendChainResults,
  appendError,
  bugLogDir,
  finishedChains,
  loadRunResults,
  readResults,
  readSummary,
  RESULTS_FILE,
  writeBugArtifacts,
  writeSummary,
} from "./output";

const bug = (continuous_id: string, order: number, resolved = true): GradedBug =>
  gradedBug("seq", "acme-agent", { continuous_id, order, resolved, swebench_instance_id: `${continuous_id}-${order}` });

const C1 = [bug("c1", 1), bug("c1", 2, false)];
const C2 = [bug("c2", 1), bug("c2", 2), bug("c2", 3)];
const LENGTHS = new Map([
  ["c1", 2],
  ["c2", 3],
  ["c3", 1],
]);

const line = (b: GradedBug) => `${JSON.stringify(b)}\n`;

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "chainswe-output-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const results = () => readFile(join(dir, RESULTS_FILE), "utf8");
/** results.jsonl as parsed lines (a rewrite may order an object's keys differently). */
const resultLines = async (): Promise<unknown[]> => {
  const text = await results();
  expect(text.endsWith("\n")).toBe(true);
  return text.trimEnd().split("\n").map((l) => JSON.parse(l) as unknown);
};

describe("finishedChains", () => {
  it("keeps only complete chains and drops a partial chain and a torn last line", async () => {
    const torn = line(bug("c3", 1)).slice(0, 57);
    await writeFile(join(dir, RESULTS_FILE), line(C1[0]!) + line(C2[0]!) + line(C1[1]!) + torn);
    const done = await finishedChains(dir, LENGTHS);
    expect([...done]).toEqual(["c1"]);
    expect(await resultLines()).toEqual(C1);
    expect(await readResults(dir)).toEqual(C1);
    expect((await readdir(dir)).sort()).toEqual([RESULTS_FILE]); // no temp file left behind
  });

  it("leaves a consistent file untouched, byte for byte", async () => {
    const text = line(C2[0]!) + line(C1[0]!) + line(C2[1]!) + line(C1[1]!) + line(C2[2]!);
    await writeFile(join(dir, RESULTS_FILE), text);
    expect([...(await finishedChains(dir, LENGTHS))].sort()).toEqual(["c1", "c2"]);
    expect(await results()).toBe(text);
  });

  it("returns nothing and writes nothing when there is no results file", async () => {
    expect((await finishedChains(dir, LENGTHS)).size).toBe(0);
    expect(existsSync(join(dir, RESULTS_FILE))).toBe(false);
  });

  it("drops lines that are JSON but not graded bugs", async () => {
    await writeFile(join(dir, RESULTS_FILE), line(C1[0]!) + line(C1[1]!) + `{"continuous_id":"c3","order":1}\n`);
    expect([...(await finishedChains(dir, LENGTHS))]).toEqual(["c1"]);
    expect(await resultLines()).toEqual(C1);
  });
});

describe("appendChainResults", () => {
  it("creates results.jsonl and appends each chain as whole lines", async () => {
    await appendChainResults(dir, C1);
    await appendChainResults(dir, C2);
    expect(await results()).toBe([...C1, ...C2].map(line).join(""));
    expect(await readResults(dir)).toEqual([...C1, ...C2]);
  });

  it("after a resume has cut a torn line, appends start on a fresh line", async () => {
    await writeFile(join(dir, RESULTS_FILE), line(C1[0]!) + line(C1[1]!) + line(C2[0]!).slice(0, 30));
    await finishedChains(dir, LENGTHS);
    await appendChainResults(dir, C2);
    expect(await readResults(dir)).toEqual([...C1, ...C2]);
    expect([...(await finishedChains(dir, LENGTHS))].sort()).toEqual(["c1", "c2"]);
  });
});

describe("reading a run back", () => {
  it("loadRunResults names the directory and the missing summary", async () => {
    await appendChainResults(dir, C1);
    await expect(loadRunResults(dir)).rejects.toThrow(`${dir} is not an evaluation directory (no summary.json)`);
    await expect(loadRunResults(join(dir, "nope"))).rejects.toThrow("is not an evaluation directory (no summary.json)");
  });

  it("loadRunResults returns the summary and the graded bugs", async () => {
    const summary = runSummary("acme-agent", "seq", [
      ["c1", 2],
      ["c2", 3],
    ]);
    await writeSummary(dir, summary);
    await appendChainResults(dir, C1);
    expect(await loadRunResults(dir)).toEqual({ summary, bugs: C1 });
    expect(await readSummary(dir)).toEqual(summary);
    expect((await readdir(dir)).sort()).toEqual([RESULTS_FILE, "summary.json"]);
  });

  it("appendError writes one JSON line per error", async () => {
    await appendError(dir, { kind: "dataset", continuous_id: "c1", order: 2, message: "test patch does not apply", at: "2026-01-01T00:00:00Z" });
    await appendError(dir, { kind: "environment", continuous_id: "c2", message: "engine down", at: "2026-01-01T00:00:01Z" });
    const lines = (await readFile(join(dir, "errors.jsonl"), "utf8")).trim().split("\n");
    expect(lines.map((l) => (JSON.parse(l) as { kind: string }).kind)).toEqual(["dataset", "environment"]);
  });
});

describe("bug artifacts", () => {
  it("keeps a filesystem-safe directory per chain and bug", () => {
    expect(bugLogDir("/out", "acme/units chain#1", 2)).toBe("/out/logs/acme_units_chain_1/2");
    expect(bugLogDir("/out", "acme__units__chain-001", 1)).toBe("/out/logs/acme__units__chain-001/1");
  });

  it("writes the test log and the submitted patch", async () => {
    const b = bug("acme/units", 1);
    await writeBugArtifacts(dir, { bug: b, log: "===== 1 passed =====\n", modelPatch: "" });
    const d = bugLogDir(dir, "acme/units", 1);
    expect(await readFile(join(d, "test_output.txt"), "utf8")).toBe("===== 1 passed =====\n");
    expect(await readFile(join(d, "model.patch"), "utf8")).toBe("");
  });
});
