/** The demo proposal's chains: made from the demo records under new ids, one carrying the flaky live-quote test. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { chainSchema } from "@/core/schemas/dataset";
import { flakyTests } from "@/core/dataset/proposal-validation";
import { LIVE_QUOTE_PAIRS, LIVE_QUOTE_TEST, demoProposalChains } from "@/lib/demo-proposal";
import type { GradedBug } from "@/core/schemas/results";

const demo = readFileSync(join(process.cwd(), "demo", "dataset.jsonl"), "utf8")
  .split("\n")
  .filter(Boolean)
  .map((l) => chainSchema.parse(JSON.parse(l)));

describe("demoProposalChains", () => {
  const [inikit, moneyx] = demoProposalChains(demo);

  it("makes two new chains of two bugs each, every id new to the demo, each a valid record", () => {
    expect([inikit!.continuous_id, moneyx!.continuous_id]).toEqual(["inikit-chain-2", "moneyx-chain-2"]);
    const known = new Set(demo.flatMap((c) => [c.continuous_id, ...c.swebench_instance_ids]));
    for (const c of [inikit!, moneyx!]) {
      expect(c.bug_fixes).toHaveLength(2);
      expect(c.swebench_instance_ids).toEqual(c.bug_fixes.map((b) => b.swebench_instance_id));
      expect([c.continuous_id, ...c.swebench_instance_ids].filter((id) => known.has(id))).toEqual([]);
      // as the intake reads it: the dataset format, round-tripped through JSON
      expect(chainSchema.parse(JSON.parse(JSON.stringify(c)))).toEqual(c);
    }
    const original = demo.find((c) => c.continuous_id === "inikit-chain-1")!;
    expect(inikit!.bug_fixes.map((b) => b.patch)).toEqual(original.bug_fixes.slice(0, 2).map((b) => b.patch));
  });

  it("adds the live-quote test to moneyx's bug 1 only: its test patch creates it, its command runs it, its PASS_TO_PASS lists each case", () => {
    const [bug1, bug2] = moneyx!.bug_fixes;
    const cases = LIVE_QUOTE_PAIRS.map((p) => `${LIVE_QUOTE_TEST}[${p}]`);
    expect(bug1!.test_patch).toContain("+++ b/tests/test_live_quote.py");
    expect(bug1!.test_cmds.every((c) => c.endsWith(" tests/test_live_quote.py"))).toBe(true);
    expect(bug1!.PASS_TO_PASS.slice(-cases.length)).toEqual(cases);
    expect(bug2!.PASS_TO_PASS.some((t) => t.startsWith(LIVE_QUOTE_TEST))).toBe(false);
    expect(inikit!.bug_fixes.flatMap((b) => b.PASS_TO_PASS).some((t) => t.startsWith(LIVE_QUOTE_TEST))).toBe(false);
  });

  it("the check names a case flaky as soon as two runs disagree on it", () => {
    const cases = LIVE_QUOTE_PAIRS.map((p) => `${LIVE_QUOTE_TEST}[${p}]`);
    const run = (passing: string[], failing: string[]) =>
      ({ fail_to_pass: { success: [], failure: [] }, pass_to_pass: { success: passing, failure: failing } }) as unknown as GradedBug;
    const runs = [run(cases, []), run(cases.slice(1), cases.slice(0, 1)), run(cases, [])];
    expect(flakyTests(moneyx!.bug_fixes[0]!.PASS_TO_PASS, runs)).toEqual([cases[0]]);
  });
});
