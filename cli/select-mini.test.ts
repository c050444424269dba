/**
 * `chainswe select <version> --mini N --runs DIR…` (SPEC §8): the Mini split
 * offline, from evaluation directories, against a hand-worked example on the
 * demo version; runs of one system and mode form one row; bad input is named
 * and writes nothing.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { gradedBug } from "@/core/scoring/test-fixtures";
import type { Mode } from "@/core/schemas/prediction";
import { chainsweInProcess } from "./in-process";

const DEMO = new URL("../demo/dataset.jsonl", import.meta.url).pathname;
const LENGTHS: Record<string, number> = { "dateranges-chain-1": 4, "inikit-chain-1": 3, "moneyx-chain-1": 3, "semverkit-chain-1": 3, "tablefmt-chain-1": 3 };
const dir = mkdtempSync(join(tmpdir(), "chainswe-mini-"));

/** An evaluation directory of one run that solved these chains whole (and bug 1 of every other). */
function run(name: string, system: string, mode: Mode, solved: string[]): string {
  const out = join(dir, name);
  mkdirSync(out);
  const bugs = Object.entries(LENGTHS).flatMap(([chain, n]) =>
    Array.from({ length: n }, (_, i) => gradedBug(mode, system, { continuous_id: chain, order: i + 1, resolved: solved.includes(chain) || i === 0 })),
  );
  writeFileSync(join(out, "results.jsonl"), bugs.map((b) => JSON.stringify(b)).join("\n") + "\n");
  return out;
}

// full chain %: a 80, b 40 (two runs: 3 and 1 chains), c 20, d 0
const runs = [
  run("a", "sys-a", "oracle", ["dateranges-chain-1", "inikit-chain-1", "moneyx-chain-1", "semverkit-chain-1"]),
  run("b1", "sys-b", "oracle", ["dateranges-chain-1", "inikit-chain-1", "moneyx-chain-1"]),
  run("b2", "sys-b", "oracle", ["dateranges-chain-1"]),
  run("c", "sys-c", "seq", ["dateranges-chain-1"]),
  run("d", "sys-d", "seq", []),
];

const chainswe = chainsweInProcess;
afterEach(() => {
  process.exitCode = undefined;
});

describe("select --mini", () => {
  it("chooses the chains that keep the rows' order, step by step, and writes them as a version", async () => {
    const out = join(dir, "mini.jsonl");
    const r = await chainswe("select", DEMO, "--mini", "2", "--out", out, "--runs", ...runs);
    expect(r.code, r.stderr).toBe(0);
    // step 1: inikit orders a (1) > b (½) > c = d (0): τ-b = 5/√30; moneyx ties with it and comes later
    // step 2: with dateranges every row differs, in the full order: τ-b = 1
    expect(r.stdout.split("\n").slice(2, 4)).toEqual(["1\tinikit-chain-1\t0.9129", "2\tdateranges-chain-1\t1.0000"]);
    expect(r.stdout).toMatch(/^tau_b\t1\.0000\nmethod\tgreedy forward selection/);
    const written = readFileSync(out, "utf8").trim().split("\n").map((l) => (JSON.parse(l) as { continuous_id: string }).continuous_id);
    expect(written).toEqual(["dateranges-chain-1", "inikit-chain-1"]);
    expect(r.stderr).toContain("2 of 5 chain(s)");
  });

  it("refuses a size larger than the version, --mini without --runs and --runs without --mini, writing nothing", async () => {
    const out = join(dir, "refused.jsonl");
    for (const [args, line] of [
      [["--mini", "9", "--runs", ...runs], "chainswe select: --mini: the Mini size 9 is larger than the version (5 chains)"],
      [["--mini", "2"], "chainswe select: --runs: required with --mini"],
      [["--runs", ...runs], "chainswe select: --runs: only with --mini"],
      [["--mini", "two", "--runs", ...runs], "chainswe select: --mini: must be a number of chains"],
    ] as const) {
      const r = await chainswe("select", DEMO, "--out", out, ...args);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stderr).toContain(line);
      expect(existsSync(out)).toBe(false);
    }
  });
});
