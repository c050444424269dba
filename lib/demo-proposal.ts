/**
 * The demo's release cycle as data (SPEC §8; seeded by lib/demo-cycle.ts):
 * who proposes and reviews, the two chains proposed (made from the demo
 * repositories), the flaky test one of them carries, and what demo-2 holds
 * out. Plain data: the browser and unit tests read it without a database.
 */
import type { Chain } from "@/core/schemas/dataset";

export const DEMO_RELEASE = "demo-2";
/** who proposes and who reviews in the demo: two users of their own, in no team (no one decides on their own proposal) */
export const DEMO_PROPOSER = "demo-proposer";
export const DEMO_REVIEWER = "demo-reviewer";
/** the chain demo-2 holds out: one of the parent's, so the chain the release adds stays in its public notes */
export const DEMO_HELD_OUT = "dateranges-chain-1";
export const DEMO_REVIEW_REASON = "fresh inikit bugs; gold passes in every run and no test changes status";

/**
 * A demo chain under new chain and instance ids (`<instance>-<suffix>`), its
 * first `bugs` bugs only: a version holding the demo takes it as a new chain.
 */
export function asNewChain(demo: Chain, continuousId: string, suffix: string, bugs = demo.bug_fixes.length): Chain {
  const fixes = demo.bug_fixes.slice(0, bugs).map((b) => ({ ...b, swebench_instance_id: `${b.swebench_instance_id}-${suffix}` }));
  return { ...demo, continuous_id: continuousId, swebench_instance_ids: fixes.map((b) => b.swebench_instance_id), bug_fixes: fixes };
}

/** The flaky test's cases: each passes or fails at random (a fair coin per run). */
export const LIVE_QUOTE_PAIRS = ["EURUSD", "GBPUSD", "USDJPY", "USDCHF", "AUDUSD", "USDCAD", "NZDUSD", "EURGBP", "EURJPY", "GBPJPY"] as const;
export const LIVE_QUOTE_TEST = "tests/test_live_quote.py::test_live_quote";

/**
 * A test that depends on randomness, as a test against a live rate feed does:
 * each case passes in a run with probability 1/2, independently. The check
 * sees a case as flaky unless it keeps one status through all n gold runs
 * (probability 2·2⁻ⁿ), so it misses the test only if all ten cases keep
 * theirs: (2^(1−n))^10, at the default n = 3 one chance in 4^10 ≈ 10⁶.
 */
const LIVE_QUOTE_DIFF = [
  "diff --git a/tests/test_live_quote.py b/tests/test_live_quote.py",
  "new file mode 100644",
  "--- /dev/null",
  "+++ b/tests/test_live_quote.py",
  "@@ -0,0 +1,9 @@",
  "+import random",
  "+",
  "+import pytest",
  "+",
  "+",
  `+@pytest.mark.parametrize("pair", [${LIVE_QUOTE_PAIRS.map((p) => `"${p}"`).join(", ")}])`,
  "+def test_live_quote(pair):",
  "+    # a live quote: whether it has moved up since the last fix depends on the moment",
  "+    assert random.random() < 0.5",
  "",
].join("\n");

/** A bug with a test file added by its test patch (`diff`), run by its test commands and its tests listed in its PASS_TO_PASS. */
export function withAddedTest<B extends Chain["bug_fixes"][number]>(bug: B, diff: string, file: string, tests: string[]): B {
  const patch = bug.test_patch.endsWith("\n") ? bug.test_patch : `${bug.test_patch}\n`;
  return { ...bug, test_patch: `${patch}${diff}`, test_cmds: bug.test_cmds.map((c) => `${c} ${file}`), PASS_TO_PASS: [...bug.PASS_TO_PASS, ...tests] };
}

/** The chain with the live-quote test added by bug 1's test patch. */
export function withLiveQuoteTest(chain: Chain): Chain {
  const [first, ...rest] = chain.bug_fixes;
  if (!first) throw new Error(`${chain.continuous_id} has no bug`);
  const bug = withAddedTest(first, LIVE_QUOTE_DIFF, "tests/test_live_quote.py", LIVE_QUOTE_PAIRS.map((p) => `${LIVE_QUOTE_TEST}[${p}]`));
  return { ...chain, bug_fixes: [bug, ...rest] };
}

/** The demo proposal: a second inikit chain (its first two bugs), valid; a second moneyx chain (its first two bugs) with the flaky test. */
export function demoProposalChains(demo: Chain[]): Chain[] {
  const of = (repo: string) => {
    const c = demo.find((x) => x.repo === `chainswe-demo/${repo}`);
    if (!c) throw new Error(`the demo dataset has no ${repo} chain`);
    return c;
  };
  return [asNewChain(of("inikit"), "inikit-chain-2", "c2", 2), withLiveQuoteTest(asNewChain(of("moneyx"), "moneyx-chain-2", "c2", 2))];
}
