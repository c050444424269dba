/**
 * Run manifests and a dataset version's rules (issue: trust in a leaderboard
 * row): what a submission says about how it was produced, validated by one
 * schema, and the version's rules it is checked against on upload. Pure: the
 * intake, the CLI and the pages call these; nothing here reads a database.
 */
import { z } from "zod";
import { oneLine } from "./text";

const text = (max: number) => oneLine(z.string().trim().min(1).max(max));

/** A run's manifest: how the predictions were produced. Unknown keys are refused, so a typo is named. */
export const runManifestSchema = z
  .object({
    agent: z.object({ name: text(200), version: text(100) }).strict(),
    model: text(200),
    limits: z
      .object({
        /** agent steps (tool calls) allowed per bug; null = none */
        steps_per_bug: z.number().int().positive().nullable(),
        /** wall-clock seconds allowed per bug; null = none */
        time_per_bug_s: z.number().positive().nullable(),
        /** the time limit as a multiple of the benchmark's default (1 = as specified) */
        time_limit_multiplier: z.number().positive().default(1),
      })
      .strict(),
    /** Baseline / Summarize / Sub-Agent, or free text */
    context: text(200),
    /** how memory carries between bugs of a chain, e.g. "none", "seq_mem notes" */
    memory: text(200),
    visible: z.object({ hints: z.boolean(), test_lists: z.boolean() }).strict(),
    /** the command that produced the predictions */
    command: text(4000),
  })
  .strict();
export type RunManifest = z.infer<typeof runManifestSchema>;

/** What a rule does when a manifest breaks it. */
export const ruleActionSchema = z.enum(["refuse", "flag"]);
export type RuleAction = z.infer<typeof ruleActionSchema>;

/**
 * What happens to a model patch's test edits (SPEC §7): `keep` (the §3 rules
 * only), `strip` (dropped from the patch before it is applied, so never carried
 * into later Seq bugs), `flag` (kept, and the row marked).
 */
export const testEditPolicySchema = z.enum(["keep", "strip", "flag"]);
export type TestEditPolicy = z.infer<typeof testEditPolicySchema>;

/**
 * What validating a proposed chain does with a test whose status changes between
 * runs of the gold state (SPEC §8): `drop` takes it out of the lists, `refuse`
 * refuses the chain.
 */
export const flakyRuleSchema = z.enum(["drop", "refuse"]);
export type FlakyRule = z.infer<typeof flakyRuleSchema>;

/** A dataset version's rules; every one optional. */
export const versionRulesSchema = z
  .object({
    /** an upload without a manifest */
    manifest_required: z.object({ action: ruleActionSchema }).strict().optional(),
    /** limits.time_limit_multiplier above this */
    max_time_limit_multiplier: z.object({ value: z.number().positive(), action: ruleActionSchema }).strict().optional(),
    /** visible.test_lists true */
    no_test_lists: z.object({ action: ruleActionSchema }).strict().optional(),
    /** visible.hints true */
    no_hints: z.object({ action: ruleActionSchema }).strict().optional(),
    /** a row is "verified" with at least this many public runs, none breaking a rule, all reviewed */
    verified_min_runs: z.number().int().positive().optional(),
    /** the test-edit policy of submissions made from now on (default keep) */
    test_edits: testEditPolicySchema.optional(),
    /** SPEC §8: the Mini split's size, recomputed over the published rows as they change, until a Mini submission fixes it */
    mini_size: z.number().int().positive().optional(),
    /** proposed chains' flaky tests (default drop) */
    flaky_tests: flakyRuleSchema.optional(),
    /** SPEC §7: a bug is close to gold from this similarity on (default CLOSE_TO_GOLD) */
    close_to_gold: z.number().gt(0).max(1).optional(),
    /** SPEC §8: the held-out chains (their ids), shown to reviewers only; checked against the version's chains when set */
    held_out: z.array(oneLine(z.string().trim().min(1))).optional(),
  })
  .strict();
export type VersionRules = z.infer<typeof versionRulesSchema>;

/** The similarity to gold from which a bug is close to gold, where a version sets none (SPEC §7). */
export const CLOSE_TO_GOLD = 0.9;

export const ruleBreachSchema = z.object({ field: z.string(), rule: versionRulesSchema.keyof(), action: ruleActionSchema, message: z.string() });
/** Submission.ruleBreaches: the flagged breaches stored with a submission. */
export const ruleBreachesSchema = z.array(ruleBreachSchema);

/** One rule a manifest breaks: the manifest field, the rule, what it does, in words. */
export type RuleBreach = z.infer<typeof ruleBreachSchema>;

/** Every rule the manifest breaks, in the rules' order (none for no rules). */
export function checkManifest(manifest: RunManifest | null, rules: VersionRules): RuleBreach[] {
  const breaches: RuleBreach[] = [];
  if (!manifest) {
    if (rules.manifest_required) breaches.push({ field: "manifest", rule: "manifest_required", action: rules.manifest_required.action, message: "this dataset version asks for a run manifest" });
    return breaches;
  }
  const m = rules.max_time_limit_multiplier;
  if (m && manifest.limits.time_limit_multiplier > m.value) {
    breaches.push({ field: "limits.time_limit_multiplier", rule: "max_time_limit_multiplier", action: m.action, message: `${manifest.limits.time_limit_multiplier} is over this version's ${m.value}` });
  }
  if (rules.no_test_lists && manifest.visible.test_lists) {
    breaches.push({ field: "visible.test_lists", rule: "no_test_lists", action: rules.no_test_lists.action, message: "the agent saw the test lists; this version does not allow it" });
  }
  if (rules.no_hints && manifest.visible.hints) {
    breaches.push({ field: "visible.hints", rule: "no_hints", action: rules.no_hints.action, message: "the agent saw hints; this version does not allow it" });
  }
  return breaches;
}

/** A row is verified when it has enough runs, all reviewed, none flagged; never without the rule. */
export function isVerified(rules: VersionRules, row: { runs: number; reviewed: boolean; breaches: number }): boolean {
  return rules.verified_min_runs !== undefined && row.runs >= rules.verified_min_runs && row.reviewed && row.breaches === 0;
}

/** A version's rules in words, one line each, for the dataset page (none: no line). */
export function describeRules(rules: VersionRules): string[] {
  const does = (a: RuleAction) => (a === "refuse" ? "an upload that breaks it is refused" : "a breach is flagged on the row");
  const lines: string[] = [];
  if (rules.manifest_required) lines.push(`A run manifest is required: ${does(rules.manifest_required.action)}.`);
  if (rules.max_time_limit_multiplier) lines.push(`Time limit multiplier at most ${rules.max_time_limit_multiplier.value}: ${does(rules.max_time_limit_multiplier.action)}.`);
  if (rules.no_test_lists) lines.push(`The test lists must not be visible to the agent: ${does(rules.no_test_lists.action)}.`);
  if (rules.no_hints) lines.push(`Hints must not be visible to the agent: ${does(rules.no_hints.action)}.`);
  if (rules.test_edits === "strip") lines.push("Test edits (a model patch's changes under a test path) are stripped before the patch is applied, so they never reach a later bug.");
  if (rules.test_edits === "flag") lines.push("Test edits (a model patch's changes under a test path) are kept and the row is marked.");
  if (rules.mini_size) lines.push(`A Mini split of ${rules.mini_size} chains follows the published rows until the first submission on it fixes it.`);
  if (rules.flaky_tests === "refuse") lines.push("A proposed chain with a test whose status changes between runs of its gold state is refused.");
  if (rules.held_out?.length) lines.push(`${rules.held_out.length} chain(s) are held out: their problem statements reach teams only through an audited download, and only their aggregate score is shown.`);
  if (rules.verified_min_runs) lines.push(`"Verified": at least ${rules.verified_min_runs} public reviewed run(s) of a system and mode, none breaking a rule.`);
  return lines;
}
