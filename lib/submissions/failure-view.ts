/**
 * The failure page's pure parts ("failure pages are for
 * reading code"): its labels, why a bug is not a chain error, and the agent's
 * files against the gold files (overshoot and undershoot, SPEC §5's M \ F and
 * F \ M). The failing test's error in its log is lib/submissions/log-excerpt.ts; the
 * patches as numbered, highlighted hunks lib/submissions/diff-view.ts; the page's links
 * lib/submission-urls.ts.
 */
import type { Fingerprint } from "@/core/schemas/results";

// ---------------------------------------------------------------- labels

export const FINGERPRINT_LABELS: Record<Fingerprint, string> = {
  broke_working_code: "broke working code",
  left_unfixed: "left unfixed",
  no_usable_patch: "no usable patch",
};

export const CAUSE_LABELS = {
  overshoot: "an earlier patch edited a file outside its gold patch, and this bug works on that file",
  undershoot: "an earlier patch skipped a file of its gold patch",
  both: "an earlier patch strayed outside its gold patch and one skipped a gold file",
  unattributed: "no file of an earlier patch explains it",
} as const;

/**
 * Why a bug shown in both modes is not a chain error (SPEC §5: position ≥ 2,
 * resolved under Oracle, unresolved under Seq); null when it may be one.
 */
export function notChainErrorReason(order: number, oracleResolved: boolean | null, seqResolved: boolean | null): string | null {
  if (order < 2) return "The first bug of a chain cannot be a chain error: nothing came before it.";
  if (oracleResolved === null || seqResolved === null) return "Not graded in both modes, so it cannot be compared.";
  if (seqResolved) return "Resolved under Seq as well: not a chain error.";
  if (!oracleResolved) return "Unresolved under Oracle too: the bug is hard on its own, not a chain error.";
  return null;
}

// ---------------------------------------------------------------- file sets

/** How an agent's patch relates to a gold file set: SPEC §5 M \ F (overshoot) and F \ M (undershoot). */
export type FileMark = "matched" | "overshoot" | "undershoot";

export function fileMark(inAgent: boolean, inGold: boolean): FileMark | null {
  if (inAgent) return inGold ? "matched" : "overshoot";
  return inGold ? "undershoot" : null;
}

export type FileSetRow = {
  file: string;
  gold: boolean;
  /** one per agent patch compared (this submission's first), null when that patch does not touch the file and gold does not either */
  marks: (FileMark | null)[];
};

/** Every file of the gold patch and of each agent patch, by path, with each agent's mark. */
export function fileSetRows(gold: readonly string[], agents: readonly (readonly string[])[]): FileSetRow[] {
  const goldSet = new Set(gold);
  const agentSets = agents.map((a) => new Set(a));
  const files = [...new Set([...gold, ...agents.flat()])].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return files.map((file) => ({ file, gold: goldSet.has(file), marks: agentSets.map((s) => fileMark(s.has(file), goldSet.has(file))) }));
}

/** The files of one agent (index into `marks`) with a given mark. */
export const filesMarked = (rows: readonly FileSetRow[], agent: number, mark: FileMark): string[] =>
  rows.filter((r) => r.marks[agent] === mark).map((r) => r.file);

/** SPEC §7 close to gold, in words. */
export function goldSimilarityText({ value, threshold }: { value: number | null; threshold: number }): string {
  if (value === null) return "No similarity to gold is recorded for this bug (its gold patch adds no code, or the result predates it).";
  const close = value >= threshold;
  return `Similarity to gold: ${value.toFixed(2)}${close ? `, close to gold (at least ${threshold})` : ` (close to gold from ${threshold})`}. Added lines both patches share (names, strings and layout aside) are marked =.`;
}
