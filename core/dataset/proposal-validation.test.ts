import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { chainSchema, type Chain } from "@/core/schemas/dataset";
import type { GradedBug } from "@/core/schemas/results";
import { gradedBug } from "@/core/scoring/test-fixtures";
import { flakyTests, judgeProposedChain } from "./proposal-validation";

const chain: Chain = chainSchema.parse(JSON.parse(readFileSync(new URL("../../demo/dataset.jsonl", import.meta.url), "utf8").split("\n")[0]!));

/** Gold replay of `chain` where the tests in `failing` (order → ids) fail. */
function run(failing: Record<number, string[]> = {}, notApplied: number[] = []): GradedBug[] {
  return chain.bug_fixes.map((b) => {
    const out = new Set(failing[b.order] ?? []);
    const split = (ids: string[]) => ({ success: ids.filter((t) => !out.has(t)), failure: ids.filter((t) => out.has(t)) });
    return gradedBug("oracle", "gold", {
      continuous_id: chain.continuous_id,
      order: b.order,
      resolved: out.size === 0,
      patch_applied: !notApplied.includes(b.order),
      fail_to_pass: split(b.FAIL_TO_PASS),
      pass_to_pass: split(b.PASS_TO_PASS),
    });
  });
}

const bug1 = chain.bug_fixes[0]!;
const f2p = bug1.FAIL_TO_PASS[0]!;
const p2p = bug1.PASS_TO_PASS[0]!;

describe("judgeProposedChain", () => {
  it("accepts a chain whose gold resolves every bug in every run, its record unchanged", () => {
    const v = judgeProposedChain(chain, [run(), run(), run()], "drop");
    expect(v.problems).toEqual([]);
    expect(v.result).toMatchObject({ ok: true, runs: 3, rule: "drop" });
    expect(v.validated).toEqual(chain);
    expect(v.result.bugs.map((b) => b.runs.length)).toEqual(chain.bug_fixes.map(() => 3));
  });

  it("refuses a chain whose gold leaves a FAIL_TO_PASS failing, naming the bug and the test", () => {
    const v = judgeProposedChain(chain, [run({ 1: [f2p] }), run({ 1: [f2p] })], "drop");
    expect(v.validated).toBeNull();
    expect(v.problems).toEqual([`bug 1 (${bug1.swebench_instance_id}): FAIL_TO_PASS ${f2p} does not pass with the gold patch`]);
  });

  it("refuses a PASS_TO_PASS regression and a gold patch that does not apply", () => {
    const v = judgeProposedChain(chain, [run({ 1: [p2p] }, [2])], "drop");
    expect(v.problems[0]).toContain(`PASS_TO_PASS ${p2p} regresses`);
    expect(v.problems[1]).toMatch(/^bug 2 .*the gold patch does not apply$/);
  });

  it("names a test whose status changes between runs and takes it out under drop", () => {
    const v = judgeProposedChain(chain, [run(), run({ 1: [p2p] }), run()], "drop");
    expect(v.result.ok).toBe(true);
    expect(v.result.bugs[0]!.flaky).toEqual([p2p]);
    expect(v.validated!.bug_fixes[0]!.PASS_TO_PASS).not.toContain(p2p);
    expect(v.validated!.bug_fixes[0]!.FAIL_TO_PASS).toEqual(bug1.FAIL_TO_PASS);
  });

  it("refuses the chain under the refuse rule, naming the flaky test", () => {
    const v = judgeProposedChain(chain, [run(), run({ 1: [p2p] }), run()], "refuse");
    expect(v.validated).toBeNull();
    expect(v.problems).toEqual([`bug 1 (${bug1.swebench_instance_id}): flaky test(s) ${p2p} (the version refuses chains with flaky tests)`]);
  });

  it("refuses a bug left with no FAIL_TO_PASS once its flaky tests are out", () => {
    const v = judgeProposedChain(chain, [run(), run({ 1: bug1.FAIL_TO_PASS })], "drop");
    expect(v.problems[0]).toMatch(/no FAIL_TO_PASS test left once the flaky ones/);
  });

  it("flakyTests: a test failing in every run is not flaky", () => {
    expect(flakyTests([f2p, p2p], run({ 1: [f2p] }).slice(0, 1).concat(run({ 1: [f2p] }).slice(0, 1)))).toEqual([]);
  });
});
