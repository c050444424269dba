/**
 * Chains to propose in tests, made from the demo benchmark (whose images the
 * demo machinery builds): a demo chain under new chain and instance ids, so a
 * version holding the demo accepts it as new. Variants: its first bugs only,
 * a FAIL_TO_PASS test the gold patch cannot fix, and a coin-flip test (a test
 * whose status changes between runs of the same state).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { chainSchema, type Chain } from "@/core/schemas/dataset";
import { ROOT } from "@/lib/testing/demo-database";
import { asNewChain, withAddedTest } from "@/lib/demo-proposal";

export const DEMO_RECORDS: Chain[] = readFileSync(join(ROOT, "demo", "dataset.jsonl"), "utf8")
  .split("\n")
  .filter(Boolean)
  .map((l) => chainSchema.parse(JSON.parse(l)));

export type ProposedVariant = {
  /** keep bugs 1..n only */
  bugs?: number;
  /** bug 1 lists a FAIL_TO_PASS test that does not exist, so its gold cannot pass it */
  goldFails?: boolean;
  /** bug 1's test patch adds a test that passes or fails at random, listed in its PASS_TO_PASS */
  coinFlip?: boolean;
};

export const COIN_TEST = "tests/test_coin_probe.py::test_coin";

const COIN_DIFF = [
  "diff --git a/tests/test_coin_probe.py b/tests/test_coin_probe.py",
  "new file mode 100644",
  "--- /dev/null",
  "+++ b/tests/test_coin_probe.py",
  "@@ -0,0 +1,5 @@",
  "+import os",
  "+",
  "+",
  "+def test_coin():",
  "+    assert os.urandom(1)[0] % 2 == 0",
  "",
].join("\n");

/** Demo chain `repo` (e.g. "inikit") as a new chain `<repo>-<suffix>`. */
export function proposedChain(repo: string, suffix: string, v: ProposedVariant = {}): Chain {
  const demo = DEMO_RECORDS.find((c) => c.repo === `chainswe-demo/${repo}`);
  if (!demo) throw new Error(`no demo repository ${repo}`);
  const renamed = asNewChain(demo, `${repo}-${suffix}`, suffix, v.bugs);
  const bugs = renamed.bug_fixes.map((bug, i) => {
    if (i !== 0) return bug;
    if (v.goldFails) bug.FAIL_TO_PASS = [...bug.FAIL_TO_PASS, "tests/test_parser.py::test_no_such_test"];
    return v.coinFlip ? withAddedTest(bug, COIN_DIFF, "tests/test_coin_probe.py", [COIN_TEST]) : bug;
  });
  return { ...renamed, bug_fixes: bugs };
}

/** Records as a JSONL file's text. */
export const jsonl = (chains: unknown[]): string => chains.map((c) => JSON.stringify(c)).join("\n") + "\n";
