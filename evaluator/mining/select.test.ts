import { describe, expect, it } from "vitest";
import { DEMO_CHAINS } from "@/tests/mining/demo-instances";
import type { Chain } from "@/core/schemas/dataset";
import type { GradedBug } from "@/core/schemas/results";
import { selectChains, solvedEnough, splitByVerdict } from "./select";

/** A window of a demo chain: bugs [from, from+length) renumbered from 1. */
function window(chain: Chain, from: number, length: number): Chain {
  const bugs = chain.bug_fixes.slice(from - 1, from - 1 + length).map((b, i) => ({ ...b, order: i + 1 }));
  return { ...chain, continuous_id: `${bugs[0]!.swebench_instance_id}+${length}`, swebench_instance_ids: bugs.map((b) => b.swebench_instance_id), bug_fixes: bugs };
}

const dateranges = DEMO_CHAINS.find((c) => c.repo.endsWith("/dateranges"))!;
const moneyx = DEMO_CHAINS.find((c) => c.repo.endsWith("/moneyx"))!;

function graded(chain: Chain, resolved: boolean[]): GradedBug[] {
  return resolved.map((r, i) => ({ continuous_id: chain.continuous_id, order: i + 1, resolved: r }) as GradedBug);
}

describe("selection", () => {
  it("needs more than half of k bugs: 2 of 3, 3 of 4, 3 of 5", () => {
    expect([solvedEnough(3, 1), solvedEnough(3, 2), solvedEnough(4, 2), solvedEnough(4, 3), solvedEnough(5, 3)]).toEqual([false, true, false, true, true]);
  });

  it("drops length-2 chains and keeps disjoint windows, longest first", () => {
    const candidates = [window(dateranges, 1, 2), window(dateranges, 1, 3), window(dateranges, 2, 3), window(dateranges, 1, 4), window(moneyx, 1, 3)];
    const { selected, dropped } = selectChains(candidates);
    expect(selected.map((c) => c.continuous_id)).toEqual(["chainswe-demo__dateranges-1+4", "chainswe-demo__moneyx-1+3"]);
    expect(Object.fromEntries(dropped.map((d) => [d.continuous_id, d.reasons[0]]))).toEqual({
      "chainswe-demo__dateranges-1+2": "length 2 < 3",
      "chainswe-demo__dateranges-1+3": "shares instance chainswe-demo__dateranges-1 with selected chain chainswe-demo__dateranges-1+4",
      "chainswe-demo__dateranges-2+3": "shares instance chainswe-demo__dateranges-2 with selected chain chainswe-demo__dateranges-1+4",
    });
  });

  it("applies the Oracle difficulty filter before picking windows", () => {
    const long = window(dateranges, 1, 4);
    const short = window(dateranges, 2, 3);
    const other = window(moneyx, 1, 3);
    const oracle = [...graded(long, [true, true, false, false]), ...graded(short, [true, false, true]), ...graded(window(moneyx, 1, 2), [true, true])];
    const { selected, dropped } = selectChains([long, short, other], { oracle });
    // the 4-bug window fails the filter (2 < 3), so the 3-bug window inside it is free
    expect(selected.map((c) => c.continuous_id)).toEqual([short.continuous_id]);
    expect(dropped.map((d) => d.reasons[0])).toEqual(["Oracle solved 2/4 bugs; needs 3", "not graded in the Oracle run"]);
  });

  it("splits candidates by their gold-replay verdict, with the reasons", () => {
    const [a, b, c] = [window(moneyx, 1, 2), window(moneyx, 1, 3), window(moneyx, 2, 2)];
    const { kept, rejected } = splitByVerdict([a!, b!, c!], [
      { continuous_id: a!.continuous_id, ok: true, problems: [] },
      { continuous_id: b!.continuous_id, ok: false, problems: ["bug 3 (x) unresolved under gold: left_unfixed; failing: t"] },
    ]);
    expect(kept).toEqual([a]);
    expect(rejected).toEqual([{ continuous_id: b!.continuous_id, reasons: ["bug 3 (x) unresolved under gold: left_unfixed; failing: t"] }]);
  });
});
