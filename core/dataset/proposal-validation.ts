/**
 * The verdict on a proposed chain (SPEC §8), pure: gold replay graded `n`
 * times in Oracle order in, the paper's filter and the flakiness check out.
 *
 * - Flaky: a listed test (FAIL_TO_PASS or PASS_TO_PASS) whose pass/fail is not
 *   the same in every run. The version's rule `flaky_tests` says what happens:
 *   `drop` takes it out of the bug's lists (the validated record has the rest),
 *   `refuse` refuses the chain naming the bug and the test.
 * - The filter, on the tests that remain: each gold patch applied, every
 *   FAIL_TO_PASS passes and no PASS_TO_PASS regresses, in every run; a bug left
 *   with no FAIL_TO_PASS test cannot measure a fix and is refused.
 * - A test patch that does not apply is a dataset error the replay raises
 *   (refusal, with its bug), never a verdict here.
 */
import { z } from "zod";
import type { Chain } from "@/core/schemas/dataset";
import { flakyRuleSchema, type FlakyRule } from "@/core/schemas/manifest";
import type { GradedBug } from "@/core/schemas/results";


const bugValidationSchema = z.object({
  order: z.number().int().positive(),
  swebench_instance_id: z.string(),
  /** per run: did the gold patch apply, the test command's seconds, the listed tests that failed */
  runs: z.array(z.object({ patch_applied: z.boolean(), duration_s: z.number().nonnegative(), exit_code: z.number().int().nullable(), failing: z.array(z.string()) })),
  /** listed tests whose status changed between runs */
  flaky: z.array(z.string()),
  /** why this bug refuses the chain; null when it passed */
  problem: z.string().nullable(),
});
export type BugValidation = z.infer<typeof bugValidationSchema>;

/** ProposedChain.validation: what the proposal's page shows per bug. */
export const chainValidationSchema = z.object({
  runs: z.number().int().positive(),
  rule: flakyRuleSchema,
  ok: z.boolean(),
  bugs: z.array(bugValidationSchema),
});
export type ChainValidationResult = z.infer<typeof chainValidationSchema>;

const failing = (b: GradedBug): string[] => [...b.fail_to_pass.failure, ...b.pass_to_pass.failure];
const passing = (b: GradedBug): Set<string> => new Set([...b.fail_to_pass.success, ...b.pass_to_pass.success]);

/** Listed tests of one bug that passed in some run and failed in another, in list order. */
export function flakyTests(listed: string[], runs: GradedBug[]): string[] {
  return listed.filter((t) => {
    const passed = runs.map((r) => passing(r).has(t));
    return passed.some((p) => p) && passed.some((p) => !p);
  });
}

export type ProposalVerdict = {
  result: ChainValidationResult;
  /** the record as it enters a release: flaky tests out of the lists under `drop`; null when refused */
  validated: Chain | null;
  /** one line per refusing bug, naming it and its test(s); empty when ok */
  problems: string[];
};

/** The verdict from `runs` gold replays of `chain` (each run: its graded bugs in order). */
export function judgeProposedChain(chain: Chain, runs: GradedBug[][], rule: FlakyRule): ProposalVerdict {
  if (runs.length === 0) throw new Error("judgeProposedChain needs at least one run");
  const bugs: BugValidation[] = chain.bug_fixes.map((bug) => {
    const graded = runs.map((run) => run.find((g) => g.order === bug.order));
    const name = `bug ${bug.order} (${bug.swebench_instance_id})`;
    const present = graded.filter((g): g is GradedBug => g !== undefined);
    const base = { order: bug.order, swebench_instance_id: bug.swebench_instance_id };
    if (present.length !== runs.length) return { ...base, runs: [], flaky: [], problem: `${name}: not graded in every run` };
    const runsOut = present.map((g) => ({ patch_applied: g.patch_applied, duration_s: g.duration_s, exit_code: g.exit_code, failing: failing(g) }));
    const flaky = flakyTests([...bug.FAIL_TO_PASS, ...bug.PASS_TO_PASS], present);
    const problem = bugProblem(name, bug, present, flaky, rule);
    return { ...base, runs: runsOut, flaky, problem };
  });
  const problems = bugs.flatMap((b) => (b.problem ? [b.problem] : []));
  const ok = problems.length === 0;
  const validated = ok ? withoutTests(chain, new Map(bugs.map((b) => [b.order, new Set(b.flaky)]))) : null;
  return { result: { runs: runs.length, rule, ok, bugs }, validated, problems };
}

function bugProblem(name: string, bug: Chain["bug_fixes"][number], graded: GradedBug[], flaky: string[], rule: FlakyRule): string | null {
  if (graded.some((g) => !g.patch_applied)) return `${name}: the gold patch does not apply`;
  if (flaky.length && rule === "refuse") return `${name}: flaky test(s) ${flaky.join(", ")} (the version refuses chains with flaky tests)`;
  const stable = new Set(flaky);
  if (bug.FAIL_TO_PASS.filter((t) => !stable.has(t)).length === 0) {
    return `${name}: no FAIL_TO_PASS test left${flaky.length ? ` once the flaky ones (${flaky.join(", ")}) are taken out` : ""}`;
  }
  const f2p = new Set(bug.FAIL_TO_PASS);
  const failed = [...new Set(graded.flatMap(failing))].filter((t) => !stable.has(t));
  const unfixed = failed.filter((t) => f2p.has(t));
  const regressed = failed.filter((t) => !f2p.has(t));
  const parts = [
    unfixed.length ? `FAIL_TO_PASS ${unfixed.join(", ")} does not pass with the gold patch` : "",
    regressed.length ? `PASS_TO_PASS ${regressed.join(", ")} regresses` : "",
  ].filter(Boolean);
  return parts.length ? `${name}: ${parts.join("; ")}` : null;
}

/** The chain with `tests` (order → test ids) taken out of each bug's FAIL_TO_PASS and PASS_TO_PASS. */
export function withoutTests(chain: Chain, tests: Map<number, Set<string>>): Chain {
  return {
    ...chain,
    bug_fixes: chain.bug_fixes.map((b) => {
      const out = tests.get(b.order);
      if (!out?.size) return b;
      return { ...b, FAIL_TO_PASS: b.FAIL_TO_PASS.filter((t) => !out.has(t)), PASS_TO_PASS: b.PASS_TO_PASS.filter((t) => !out.has(t)) };
    }),
  };
}
