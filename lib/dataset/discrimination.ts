/**
 * The chains that still discriminate (SPEC §4), as the dataset pages and
 * GET /api/v1/dataset/[version]/discrimination show them: the figures the
 * ranking refresh stored (lib/leaderboard/discrimination.ts) for one scoring
 * and mode, less the chains the viewer may not see (held out, SPEC §8).
 */
import type { Scoring } from "@/core/scoring";
import { MODES, type Mode } from "@/core/schemas/prediction";
import { storedDiscrimination, type ModeDiscrimination } from "@/lib/leaderboard/discrimination";

export type DiscriminationView = {
  version: string;
  scoring: Scoring;
  /** the mode shown, and every mode with figures */
  mode: Mode;
  modes: Mode[];
  computedAt: Date;
  rows: number;
  top_n: number;
  chains: (ModeDiscrimination["chains"][number] & { mode: Mode })[];
  bugs: (ModeDiscrimination["bugs"][number] & { mode: Mode })[];
  fit: ModeDiscrimination["fit"];
  /** chains shown that separate the top N rows */
  discriminating: number;
};

/** The mode to show: the one asked for, else the one with the most rows (ties: Oracle, Seq, Seq+Mem). */
function chosenMode(figures: readonly ModeDiscrimination[], asked: Mode | undefined): ModeDiscrimination | undefined {
  if (asked) return figures.find((f) => f.mode === asked);
  return [...figures].sort((a, b) => b.rows - a.rows || MODES.indexOf(a.mode) - MODES.indexOf(b.mode))[0];
}

/** A scoring and mode's figures, held-out chains left out; null when none are stored for them (no refresh yet, or no row in the mode). */
export function discriminationView(
  version: string,
  stored: Awaited<ReturnType<typeof storedDiscrimination>>,
  hidden: ReadonlySet<string>,
  q: { scoring: Scoring; mode?: Mode; chain?: string },
): DiscriminationView | null {
  if (!stored) return null;
  const figures = stored.figures[q.scoring];
  const m = chosenMode(figures, q.mode);
  if (!m) return null;
  const shown = (id: string) => !hidden.has(id) && (q.chain === undefined || id === q.chain);
  const chains = m.chains.filter((c) => shown(c.continuous_id)).map((c) => ({ ...c, mode: m.mode }));
  return {
    version,
    scoring: q.scoring,
    mode: m.mode,
    modes: MODES.filter((mode) => figures.some((f) => f.mode === mode)),
    computedAt: stored.computedAt,
    rows: m.rows,
    top_n: m.top_n,
    chains,
    bugs: m.bugs.filter((b) => shown(b.continuous_id)).map((b) => ({ ...b, mode: m.mode })),
    fit: m.fit,
    discriminating: chains.filter((c) => c.separates_top).length,
  };
}

/** The stored figures of a version for a viewer. */
export async function getDiscriminationView(version: string, hidden: ReadonlySet<string>, q: { scoring: Scoring; mode?: Mode; chain?: string }): Promise<DiscriminationView | null> {
  return discriminationView(version, await storedDiscrimination(version), hidden, q);
}

/** The flags of an item, in words: "solved by all", "solved by none", "does not separate the top 10". */
export function discriminationFlags(item: { solved_by_all: boolean; solved_by_none: boolean; separates_top: boolean }, topN: number): string[] {
  return [item.solved_by_all && "solved by all", item.solved_by_none && "solved by none", !item.separates_top && `does not separate the top ${topN}`].filter((f): f is string => !!f);
}

const NUMBER_WORDS = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"];

/** "3 of 5 chains still discriminate among the top ten rows" (or among all the rows, when there are fewer). */
export function discriminationSummary(view: Pick<DiscriminationView, "discriminating" | "rows" | "top_n"> & { chains: readonly unknown[] }): string {
  const top = Math.min(view.rows, view.top_n);
  const among = view.rows >= view.top_n ? `the top ${NUMBER_WORDS[top] ?? top} rows` : `all ${NUMBER_WORDS[top] ?? top} row${top === 1 ? "" : "s"} (fewer than ${NUMBER_WORDS[view.top_n] ?? view.top_n})`;
  return `${view.discriminating} of ${view.chains.length} chains still discriminate among ${among}`;
}

/** One chain's figures (the chain and its bugs) in every mode with figures, strict scoring. */
export async function chainDiscriminationViews(version: string, chain: string, hidden: ReadonlySet<string>): Promise<DiscriminationView[]> {
  const stored = await storedDiscrimination(version);
  return MODES.flatMap((mode) => {
    const v = stored?.figures.strict.some((f) => f.mode === mode) ? discriminationView(version, stored, hidden, { scoring: "strict", mode, chain }) : null;
    return v && v.chains.length > 0 ? [v] : [];
  });
}
