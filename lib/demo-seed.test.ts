/** The demo's repeated runs are made from the shipped files, bug by bug, as DEMO_RUNS says. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEMO_RULES, DEMO_RUNS, demoManifest, demoRunLines } from "@/lib/demo-seed";
import { checkManifest } from "@/core/schemas/manifest";

const file = (system: string) => readFileSync(join(process.cwd(), "demo", "predictions", `${system}.${DEMO_RUNS.mode}.jsonl`), "utf8");
const lines = (text: string) => text.trim().split("\n").map((l) => JSON.parse(l) as { continuous_id: string; swebench_instance_id: string; model_patch: string; model_name_or_path: string });

describe("demoRunLines", () => {
  const base = file(DEMO_RUNS.system);
  const others = new Map(DEMO_RUNS.runs.flat().map((w) => [w.from, file(w.from)]));

  it("takes the swapped bugs from the other system, under the run's own name, and leaves the rest", () => {
    const [run2, run3] = DEMO_RUNS.runs.map((swaps) => lines(demoRunLines(base, others, swaps)));
    const drifter = lines(base);
    const gold = lines(file("demo-gold"));
    const empty = lines(file("demo-empty"));
    expect(run2).toHaveLength(drifter.length);
    run2!.forEach((l, i) => {
      const from = l.continuous_id === "inikit-chain-1" ? gold[i]! : drifter[i]!;
      expect(l).toEqual({ ...from, model_name_or_path: "demo-drifter" });
    });
    // run 3: tablefmt's first bug is run 1's, the later ones have no patch
    const tablefmt = run3!.filter((l) => l.continuous_id === "tablefmt-chain-1");
    expect(tablefmt[0]).toEqual(drifter.find((l) => l.swebench_instance_id === tablefmt[0]!.swebench_instance_id));
    expect(tablefmt.slice(1).map((l) => l.model_patch)).toEqual(tablefmt.slice(1).map((l) => empty.find((e) => e.swebench_instance_id === l.swebench_instance_id)!.model_patch));
    expect(run3!.filter((l) => l.continuous_id !== "tablefmt-chain-1")).toEqual(drifter.filter((l) => l.continuous_id !== "tablefmt-chain-1"));
  });

  it("names a swap with no line to take", () => {
    expect(() => demoRunLines(base, new Map([["demo-gold", ""]]), [{ from: "demo-gold", chain: "inikit-chain-1", fromOrder: 1 }])).toThrow(/demo-gold has no line for inikit-chain-1 #1/);
  });
});

describe("the demo's manifests", () => {
  it("the entry's runs break no rule; demo-breaker's Seq run is flagged for its doubled time limit; the rest send none", () => {
    expect(checkManifest(demoManifest(DEMO_RUNS.system, DEMO_RUNS.mode), DEMO_RULES)).toEqual([]);
    expect(checkManifest(demoManifest("demo-breaker", "seq"), DEMO_RULES).map((b) => [b.field, b.action])).toEqual([["limits.time_limit_multiplier", "flag"]]);
    expect(demoManifest("demo-gold", "seq")).toBeNull();
    expect(demoManifest(DEMO_RUNS.system, "oracle")).toBeNull();
  });
});
