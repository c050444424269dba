/**
 * Hand-derived outcomes of every demo system (what demo/expected.json promises and the
 * Docker integration tests assert). Written from what each patch does (see systems.ts and
 * demo/README.md); the build checks them against its host replay and fails on any difference.
 *
 * One code per bug, space-separated, in chain order:
 *   R resolved · N no_usable_patch, patch not applied (empty or unusable)
 *   X no_usable_patch, patch applied but no listed test reported (import error)
 *   B broke_working_code · L left_unfixed · a trailing "!" marks a tampered run.
 */
import type { Fingerprint } from "@/core/schemas/results";
import type { Cause } from "./chain-errors";

type Outcomes = { oracle: string; seq: string };
type SystemExpectation = {
  /** code for every bug of chains not listed in `chains` */
  fallback: string;
  chains?: Record<string, Outcomes>;
  /** [repo, order, cause, Seq fingerprint] */
  chainErrors?: [string, number, Cause, Fingerprint][];
};

const cheated = (length: number): Outcomes => ({
  oracle: Array(length).fill("L!").join(" "),
  // from bug 2 on, the earlier bugs' FAIL_TO_PASS tests are PASS_TO_PASS tests that still fail
  seq: ["L!", ...Array(length - 1).fill("B!")].join(" "),
});

export const EXPECTED: Record<string, SystemExpectation> = {
  "demo-gold": { fallback: "R" },
  "demo-empty": { fallback: "N" },
  "demo-misapply": {
    fallback: "N",
    // bug 1 never lands, so its tests (PASS_TO_PASS from bug 2 on) keep failing under Seq
    chains: { semverkit: { oracle: "N R R", seq: "N B B" } },
    chainErrors: [
      ["semverkit", 2, "undershoot", "broke_working_code"],
      ["semverkit", 3, "undershoot", "broke_working_code"],
    ],
  },
  "demo-overshoot": {
    fallback: "R",
    // the stray currency.py default lets Money("1", "XYZ") through: a bug-2 PASS_TO_PASS test fails
    chains: { moneyx: { oracle: "R R R", seq: "R B B" } },
    chainErrors: [
      ["moneyx", 2, "overshoot", "broke_working_code"],
      ["moneyx", 3, "overshoot", "broke_working_code"],
    ],
  },
  "demo-undershoot": {
    fallback: "R",
    // without writer.py's quoting, dump() loses "hi ; there": bug 2's round trip fails,
    // and at bug 3 that test is PASS_TO_PASS
    chains: { inikit: { oracle: "R R R", seq: "R L B" } },
    chainErrors: [
      ["inikit", 2, "undershoot", "left_unfixed"],
      ["inikit", 3, "undershoot", "broke_working_code"],
    ],
  },
  "demo-drifter": {
    fallback: "R",
    chains: {
      // as demo-undershoot, plus a stray values.py edit that bug 2's gold patch also touches
      inikit: { oracle: "R R R", seq: "R L B" },
      // cents for every currency: BTC and unknown-currency tests fail from bug 2 on
      moneyx: { oracle: "R R R", seq: "R B B" },
    },
    chainErrors: [
      ["inikit", 2, "both", "left_unfixed"],
      // bug 3 touches neither values.py file set: only the skipped writer.py is evidence
      ["inikit", 3, "undershoot", "broke_working_code"],
      // the wrong edit is inside money.py, a gold file: no file evidence
      ["moneyx", 2, "unattributed", "broke_working_code"],
      ["moneyx", 3, "unattributed", "broke_working_code"],
    ],
  },
  "demo-breaker": {
    fallback: "R",
    chains: {
      tablefmt: { oracle: "B R R", seq: "B B B" },
      dateranges: { oracle: "R X R R", seq: "R X X X" },
    },
    chainErrors: [
      ["dateranges", 3, "unattributed", "no_usable_patch"],
      ["dateranges", 4, "unattributed", "no_usable_patch"],
      ["tablefmt", 2, "unattributed", "broke_working_code"],
      ["tablefmt", 3, "unattributed", "broke_working_code"],
    ],
  },
  "demo-cheater": {
    fallback: "unused",
    chains: { dateranges: cheated(4), inikit: cheated(3), moneyx: cheated(3), semverkit: cheated(3), tablefmt: cheated(3) },
  },
};

export type ExpectedBug = { resolved: boolean; fingerprint: Fingerprint | null; patch_applied: boolean; tampered: boolean };

const CODES: Record<string, Omit<ExpectedBug, "tampered">> = {
  R: { resolved: true, fingerprint: null, patch_applied: true },
  N: { resolved: false, fingerprint: "no_usable_patch", patch_applied: false },
  X: { resolved: false, fingerprint: "no_usable_patch", patch_applied: true },
  B: { resolved: false, fingerprint: "broke_working_code", patch_applied: true },
  L: { resolved: false, fingerprint: "left_unfixed", patch_applied: true },
};

export function decodeOutcomes(codes: string, length: number, where: string): ExpectedBug[] {
  const parts = codes.split(" ");
  const all = parts.length === 1 ? Array<string>(length).fill(parts[0] as string) : parts;
  if (all.length !== length) throw new Error(`${where}: ${all.length} outcome codes for ${length} bugs`);
  return all.map((code) => {
    const base = CODES[code.replace("!", "")];
    if (!base) throw new Error(`${where}: unknown outcome code ${code}`);
    return { ...base, tampered: code.endsWith("!") };
  });
}
