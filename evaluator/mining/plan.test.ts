import { describe, expect, it } from "vitest";
import { demoInstance } from "@/tests/mining/demo-instances";
import { chainSchema } from "@/core/schemas/dataset";
import { parseInstance, type Instance } from "./instances";
import { byRepository, candidateWindows, joinRuns, windows } from "./plan";

function instance(name: string, order: number): Instance {
  const parsed = parseInstance(demoInstance("SWE-bench-Live", name, order));
  if (!parsed.ok) throw parsed.error;
  return parsed.instance;
}

describe("chain construction", () => {
  it("groups by repository and orders by created date", () => {
    const groups = byRepository([instance("moneyx", 3), instance("inikit", 2), instance("moneyx", 1), instance("moneyx", 2)]);
    expect([...groups.keys()]).toEqual(["chainswe-demo/inikit", "chainswe-demo/moneyx"]);
    expect(groups.get("chainswe-demo/moneyx")!.map((i) => i.instance_id)).toEqual([1, 2, 3].map((k) => `chainswe-demo__moneyx-${k}`));
  });

  it("splits runs where neighbours do not join and drops singletons", () => {
    const runs = joinRuns(["a", "b", "c", "d", "e"], ["successor", null, "apply_check", "successor"]);
    expect(runs).toEqual([
      { members: ["a", "b"], links: ["successor"] },
      { members: ["c", "d", "e"], links: ["apply_check", "successor"] },
    ]);
    expect(joinRuns(["a", "b"], [null])).toEqual([]);
  });

  it("emits every contiguous window of length 2..l, capped by --max-length", () => {
    const run = { members: [1, 2, 3, 4], links: ["successor", "apply_check", "successor"] as const };
    const all = windows({ members: run.members, links: [...run.links] }, 5);
    expect(all.map((w) => w.members.join(""))).toEqual(["12", "23", "34", "123", "234", "1234"]);
    expect(all.find((w) => w.members.join("") === "234")!.links).toEqual(["apply_check", "successor"]);
    expect(windows({ members: run.members, links: [...run.links] }, 3).map((w) => w.members.length)).toEqual([2, 2, 2, 3, 3]);
  });

  it("drops a window with no pairwise overlap and writes kept ones as valid ChainSWE records", () => {
    const members = [1, 2, 3].map((k) => instance("dateranges", k));
    const footprints = new Map([
      [members[0]!.instance_id, { files: ["dateranges/span.py"], symbols: ["dateranges/span.py::DateSpan"] }],
      [members[1]!.instance_id, { files: ["dateranges/span.py"], symbols: ["dateranges/span.py::DateSpan.overlaps"] }],
      [members[2]!.instance_id, { files: ["dateranges/schedule.py"], symbols: ["dateranges/schedule.py::weekly_chunks"] }],
    ]);
    const verdicts = candidateWindows({ members, links: ["successor", "successor"] }, footprints, 5, "file");
    const dropped = verdicts.flatMap((v) => ("dropped" in v ? [v.dropped] : []));
    expect(dropped).toEqual(["chainswe-demo__dateranges-2+2"]);
    const kept = verdicts.flatMap((v) => ("chain" in v ? [v.chain] : []));
    expect(kept.map((c) => c.continuous_id)).toEqual(["chainswe-demo__dateranges-1+2", "chainswe-demo__dateranges-1+3"]);
    const three = chainSchema.parse(kept[1]);
    expect(three).toMatchObject({ base_commit: members[0]!.base_commit, docker_image: members[0]!.image_name, source: "SWE-bench-Live" });
    expect(three.bug_fixes.map((b) => b.order)).toEqual([1, 2, 3]);
    expect(three.mining).toMatchObject({ links: [{ reason: "successor" }, { reason: "successor" }], overlap: [{ a: 1, b: 2, files: ["dateranges/span.py"] }] });
    // at symbol level the two span.py bugs share no class or function here
    expect(candidateWindows({ members, links: ["successor", "successor"] }, footprints, 5, "symbol").every((v) => "dropped" in v)).toBe(true);
  });

  it("calls a window of several sources mixed", () => {
    const a = instance("moneyx", 1);
    const b = { ...instance("moneyx", 2), source: "SWE-Gym" as const };
    const fp = new Map([a, b].map((i) => [i.instance_id, { files: ["f.py"], symbols: [] }]));
    const [v] = candidateWindows({ members: [a, b], links: ["successor"] }, fp, 5, "file");
    expect(v && "chain" in v && v.chain.source).toBe("mixed");
  });
});
