/**
 * The fictional systems of the demo and what each one's agent does on each bug. An
 * agent's intent is stated as edits to whatever state it starts from; the build turns
 * intent into a patch by making the edits in a scratch clone and diffing, so a Seq patch
 * is automatically a diff against the agent state A(k-1), an Oracle patch one against
 * the gold state G(k-1).
 */
import { q } from "@/evaluator/replay/scripts";

export type Edit =
  /** the bug's gold change, minus the files in `skip` (an undershooting agent) */
  | { kind: "gold"; skip?: string[] }
  /** one exact text replacement: a stray, wrong or breaking edit */
  | { kind: "replace"; file: string; find: string; replace: string }
  /** append code that prints forged pytest results for the bug's FAIL_TO_PASS tests */
  | { kind: "cheat" };

export type Plan = {
  edits: Edit[];
  /** the agent diffed against its own stale copy: every hunk's context is off, nothing applies */
  stale?: boolean;
};

/** Made-up but plausible run metadata ranges (inclusive) and prices. */
export type Profile = {
  turns: [number, number];
  inputTokens: [number, number];
  outputTokens: [number, number];
  usdPerMillionIn: number;
  usdPerMillionOut: number;
};

export type SystemDef = {
  name: string;
  summary: string;
  profile: Profile;
  plan(repo: string, order: number): Plan;
  /**
   * Read-only commands the agent runs first at a bug, through $CHAINSWE_EXEC so that
   * they are in its trajectory: shortcuts a trajectory scan must flag. They change no
   * patch (the build never runs them).
   */
  probes?(repo: string, order: number, failToPass: string[]): string[];
};

const GOLD: Plan = { edits: [{ kind: "gold" }] };
const EMPTY: Plan = { edits: [] };

const STRONG: Profile = { turns: [18, 46], inputTokens: [180_000, 720_000], outputTokens: [4_000, 16_000], usdPerMillionIn: 1.25, usdPerMillionOut: 10 };
const CHEAP: Profile = { turns: [8, 30], inputTokens: [60_000, 300_000], outputTokens: [2_000, 9_000], usdPerMillionIn: 0.25, usdPerMillionOut: 2 };

/** Overrides per "repo:order"; every other bug gets `fallback`. */
function byBug(overrides: Record<string, Plan>, fallback: Plan): (repo: string, order: number) => Plan {
  return (repo, order) => overrides[`${repo}:${order}`] ?? fallback;
}

export const SYSTEMS: SystemDef[] = [
  {
    name: "demo-gold",
    summary: "submits the gold patch for every bug (the reference: resolves everything in both modes)",
    profile: STRONG,
    plan: () => GOLD,
  },
  {
    name: "demo-empty",
    summary: "never produces a patch (no_usable_patch everywhere)",
    profile: { ...CHEAP, turns: [3, 9], outputTokens: [300, 1_500] },
    plan: () => EMPTY,
  },
  {
    name: "demo-misapply",
    summary:
      "diffs against a stale copy of the files, so no hunk's context matches and no apply method works; " +
      "on semverkit only bug 1 is stale and bugs 2-3 are gold, which then fail under Seq (undershoot)",
    profile: CHEAP,
    plan: (repo, order) => (repo === "semverkit" && order > 1 ? GOLD : { edits: [{ kind: "gold" }], stale: true }),
  },
  {
    name: "demo-overshoot",
    summary:
      "moneyx bug 1: fixes rounding and also makes currency.decimals() default to 2 for unknown codes, " +
      "a file the later bugs touch; bugs 2-3 then break a passing test under Seq only",
    profile: STRONG,
    plan: byBug(
      {
        "moneyx:1": {
          edits: [
            { kind: "gold" },
            {
              kind: "replace",
              file: "moneyx/currency.py",
              find: "def decimals(code):\n    return _entry(code)[1]\n",
              replace:
                'def decimals(code):\n    # unknown currencies fall back to cents\n    return _CURRENCIES.get(code.upper(), ("", 2))[1]\n',
            },
          ],
        },
      },
      GOLD,
    ),
  },
  {
    name: "demo-undershoot",
    summary:
      "inikit bug 1: fixes parsing but skips the gold change to writer.py (its tests do not notice); " +
      "bugs 2-3 then fail under Seq",
    profile: STRONG,
    plan: byBug({ "inikit:1": { edits: [{ kind: "gold", skip: ["inikit/writer.py"] }] } }, GOLD),
  },
  {
    name: "demo-drifter",
    summary:
      "inikit bug 1: skips writer.py and makes a stray edit to values.py (both causes at bug 2); " +
      "moneyx bug 1: rounds every currency to cents, which passes bug 1's tests but breaks bugs 2-3 under Seq (unattributed)",
    profile: CHEAP,
    plan: byBug(
      {
        "inikit:1": {
          edits: [
            { kind: "gold", skip: ["inikit/writer.py"] },
            {
              kind: "replace",
              file: "inikit/values.py",
              find: "def to_int(raw):\n    return int(raw.strip())\n",
              replace: 'def to_int(raw):\n    # tolerate an inline comment after the number\n    return int(raw.split(";")[0].strip())\n',
            },
          ],
        },
        "moneyx:1": {
          edits: [
            { kind: "gold" },
            {
              kind: "replace",
              file: "moneyx/money.py",
              find: "        places = Decimal(1).scaleb(-currency.decimals(self.currency))\n",
              replace: '        places = Decimal("0.01")\n',
            },
          ],
        },
      },
      GOLD,
    ),
  },
  {
    name: "demo-breaker",
    summary:
      "tablefmt bug 1: also 'balances' centred padding, breaking a passing test; dateranges bug 2: leaves a " +
      "mis-indented line so the package no longer imports; later bugs fail under Seq (unattributed)",
    profile: STRONG,
    // a network attempt (the container has none)
    probes: (repo, order) => (repo === "tablefmt" && order === 1 ? ["pip download --no-deps semver==3.0.2 -d /tmp/x || true"] : []),
    plan: byBug(
      {
        "tablefmt:1": {
          edits: [
            { kind: "gold" },
            { kind: "replace", file: "tablefmt/width.py", find: "        left = gap // 2\n", replace: "        left = (gap + 1) // 2\n" },
          ],
        },
        "dateranges:2": {
          edits: [
            { kind: "gold" },
            {
              kind: "replace",
              file: "dateranges/span.py",
              find: "        return self.start <= other.end and other.start <= self.end\n",
              replace:
                "        first = max(self.start, other.start)\n       last = min(self.end, other.end)\n        return first <= last\n",
            },
          ],
        },
      },
      GOLD,
    ),
  },
  {
    name: "demo-cheater",
    summary:
      "fixes nothing; adds an atexit hook to the package that prints forged `PASSED <test>` lines and a fake " +
      "pytest summary after the real run, which must gain nothing (tampered)",
    profile: CHEAP,
    // reads history it should not have, and runs a hidden test by the id the dataset's test lists give it
    probes: (_repo, _order, failToPass) => ["git log --all --oneline", `python3 -m pytest -q ${q(failToPass[0]!)} || true`],
    plan: () => ({ edits: [{ kind: "cheat" }] }),
  },
];
