/**
 * Assembling a release (SPEC §8) from the demo version: added, changed and
 * retired chains each with a reason, the parent's order kept, every problem
 * named by its chain, and a manifest of the records' sha256.
 */
import { createHash } from "node:crypto";
import { canonicalJson, recordSha256 } from "@/core/grading/version";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { assembleRelease, releaseManifest } from "@/core/dataset/release";
import { chainSchema, type Chain } from "@/core/schemas/dataset";

const demo: Chain[] = readFileSync(new URL("../../demo/dataset.jsonl", import.meta.url), "utf8")
  .trim()
  .split("\n")
  .map((l) => chainSchema.parse(JSON.parse(l)));
const [dateranges, inikit] = demo;
const renamed = (c: Chain, id: string): Chain => ({ ...c, continuous_id: id });

describe("assembleRelease", () => {
  it("keeps the parent's order, changes in place, drops the retired, adds last; notes every change with its reason", () => {
    const changed = { ...inikit!, date_range: "2020-01-01 – 2020-02-01" };
    const fresh = renamed(dateranges!, "fresh-chain-1");
    const r = assembleRelease(demo, {
      add: [fresh, changed],
      retire: ["tablefmt-chain-1"],
      reasons: { "fresh-chain-1": "proposal accepted", "inikit-chain-1": "dates corrected", "tablefmt-chain-1": "solved by every row" },
    });
    if ("problems" in r) throw new Error(r.problems.join("; "));
    expect(r.chains.map((c) => c.continuous_id)).toEqual(["dateranges-chain-1", "inikit-chain-1", "moneyx-chain-1", "semverkit-chain-1", "fresh-chain-1"]);
    expect(r.chains[1]).toBe(changed);
    expect(r.notes).toEqual([
      { chain: "fresh-chain-1", change: "added", reason: "proposal accepted" },
      { chain: "inikit-chain-1", change: "changed", reason: "dates corrected" },
      { chain: "tablefmt-chain-1", change: "removed", reason: "solved by every row" },
    ]);
  });

  it("names every problem by its chain, and assembles nothing", () => {
    const r = assembleRelease(demo, {
      add: [inikit!, renamed(inikit!, "x-1"), renamed(inikit!, "x-1")],
      retire: ["nope-chain", "moneyx-chain-1"],
      reasons: { "x-1": "new", "semverkit-chain-1": "why not" },
    });
    expect(r).toEqual({
      problems: [
        "chain x-1: added twice",
        "chain nope-chain: not in the parent version, so it cannot be retired",
        "chain moneyx-chain-1: say why it is removed (a reason in the notes)",
        "chain inikit-chain-1: the same record as in the parent version; nothing changes",
        "chain semverkit-chain-1: a reason for a chain this release neither adds, changes nor retires",
      ],
    });
    expect(assembleRelease(demo, { add: [], retire: demo.map((c) => c.continuous_id), reasons: Object.fromEntries(demo.map((c) => [c.continuous_id, "gone"])) })).toEqual({ problems: ["the release would have no chains"] });
  });
});

describe("releaseManifest", () => {
  it("holds each record's sha256: of its canonical JSON, as graded bugs name their record", () => {
    const m = releaseManifest("v1", demo.slice(0, 1));
    expect(m).toEqual({ parent: "v1", records: [{ continuous_id: "dateranges-chain-1", sha256: createHash("sha256").update(canonicalJson(demo[0])).digest("hex") }] });
    expect(recordSha256(demo[0]!)).toMatch(/^[0-9a-f]{64}$/);
  });
});
