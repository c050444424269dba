/** Run manifests against a dataset version's rules: each breach named by field, refusing or flagging as the rule says. */
import { describe, expect, it } from "vitest";
import { parseFields } from "@/lib/submissions/request";
import { checkManifest, describeRules, isVerified, runManifestSchema, versionRulesSchema, type RunManifest } from "./manifest";

const manifest: RunManifest = runManifestSchema.parse({
  agent: { name: "acme-agent", version: "1.4.2" },
  model: "claude-x",
  limits: { steps_per_bug: 50, time_per_bug_s: 1800 },
  context: "Baseline",
  memory: "none",
  visible: { hints: false, test_lists: false },
  command: "acme run --chains all",
});

const rules = versionRulesSchema.parse({
  manifest_required: { action: "refuse" },
  max_time_limit_multiplier: { value: 1, action: "flag" },
  no_test_lists: { action: "refuse" },
  no_hints: { action: "flag" },
  verified_min_runs: 3,
});

describe("checkManifest", () => {
  it("passes a manifest within the rules, and anything when there are none", () => {
    expect(manifest.limits.time_limit_multiplier).toBe(1);
    expect(checkManifest(manifest, rules)).toEqual([]);
    expect(checkManifest(null, {})).toEqual([]);
    expect(checkManifest({ ...manifest, visible: { hints: true, test_lists: true } }, {})).toEqual([]);
  });

  it("names every breach by field, with the rule's action", () => {
    const bad = { ...manifest, limits: { ...manifest.limits, time_limit_multiplier: 2 }, visible: { hints: true, test_lists: true } };
    expect(checkManifest(bad, rules).map((b) => [b.field, b.rule, b.action])).toEqual([
      ["limits.time_limit_multiplier", "max_time_limit_multiplier", "flag"],
      ["visible.test_lists", "no_test_lists", "refuse"],
      ["visible.hints", "no_hints", "flag"],
    ]);
    expect(checkManifest(bad, rules)[0]!.message).toBe("2 is over this version's 1");
    expect(checkManifest(null, rules)).toEqual([{ field: "manifest", rule: "manifest_required", action: "refuse", message: "this dataset version asks for a run manifest" }]);
  });

  it("verified: enough reviewed runs and no breach, never without the rule", () => {
    expect(isVerified(rules, { runs: 3, reviewed: true, breaches: 0 })).toBe(true);
    expect(isVerified(rules, { runs: 2, reviewed: true, breaches: 0 })).toBe(false);
    expect(isVerified(rules, { runs: 3, reviewed: false, breaches: 0 })).toBe(false);
    expect(isVerified(rules, { runs: 3, reviewed: true, breaches: 1 })).toBe(false);
    expect(isVerified({}, { runs: 9, reviewed: true, breaches: 0 })).toBe(false);
  });

  it("says the rules in words", () => {
    expect(describeRules(rules)).toHaveLength(5);
    expect(describeRules(rules)[1]).toBe("Time limit multiplier at most 1: a breach is flagged on the row.");
    expect(describeRules({})).toEqual([]);
  });
});

describe("the upload's manifest field", () => {
  const fields = { system: "acme/agent", dataset_version: "v1", mode: "seq" };
  it("is parsed from JSON; an empty field is no manifest", () => {
    expect(parseFields({ ...fields, manifest: JSON.stringify(manifest) }).manifest).toEqual(manifest);
    expect(parseFields({ ...fields, manifest: " " }).manifest).toBeNull();
  });

  it("names the nested field of a bad manifest, an unknown key, and text that is not JSON", () => {
    const at = (m: unknown) => {
      try {
        parseFields({ ...fields, manifest: typeof m === "string" ? m : JSON.stringify(m) });
      } catch (e) {
        return (e as Error).message;
      }
      return "accepted";
    };
    expect(at({ ...manifest, limits: { ...manifest.limits, time_limit_multiplier: -1 } })).toMatch(/^manifest: limits\.time_limit_multiplier: /);
    expect(at({ ...manifest, visible: { hints: "no", test_lists: false } })).toMatch(/^manifest: visible\.hints: /);
    expect(at({ ...manifest, agnet: {} })).toMatch(/^manifest: .*agnet/);
    expect(at({ ...manifest, command: undefined })).toMatch(/^manifest: command: /);
    expect(at("{nope")).toMatch(/^manifest: not JSON/);
  });
});
