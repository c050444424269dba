/** Leaderboard rows and views for the pure leaderboard tests (lib/leaderboard-*.test.ts): a row of a named system, defaults for the rest. */
import { costPerSolvedChain } from "@/core/scoring/score-run";
import type { LeaderboardRow } from "@/lib/leaderboard/data";
import { leaderboardViewSchema, type LeaderboardView } from "@/lib/leaderboard/url";
import type { Mode } from "@/core/schemas/prediction";
import { parseViewQuery } from "@/lib/view-query";

/** The view of these URL parameters. */
export const leaderboardView = (params: Record<string, string> = {}): LeaderboardView => parseViewQuery(leaderboardViewSchema, params).query;

let n = 0;
export function leaderboardRow(over: {
  name: string;
  model?: string;
  config?: string;
  mode?: Mode;
  perBug?: number;
  chain?: number;
  cost?: number | null;
  vs?: number | null;
  day?: string | null;
  openWeights?: boolean;
  trainingCutoff?: string | null;
}): LeaderboardRow {
  const perBug = over.perBug ?? 50;
  return {
    submissionId: `s${++n}`,
    system: {
      id: over.name,
      name: over.name,
      model: over.model ?? `${over.name}-model`,
      scaffold: "scaffold",
      contextConfig: over.config ?? "Baseline",
      openWeights: over.openWeights ?? false,
      openScaffold: false,
      releaseDate: null,
      trainingCutoff: over.trainingCutoff ?? null,
      links: [],
    },
    team: { name: "Team", slug: "team" },
    mode: over.mode ?? "oracle",
    perBug: { value: perBug, ci: [perBug - 4.1, perBug + 4.1] },
    chain: { value: over.chain ?? 20, ci: [15, 25] },
    perPosition: [],
    costPerChain: over.cost === undefined ? 1 : over.cost,
    costPerSolvedChain: costPerSolvedChain({ cost_per_chain: over.cost === undefined ? 1 : over.cost, chain: over.chain ?? 20 }),
    peakContext: 48_200,
    vsOracle: { perBug: over.vs ?? null, chain: null },
    counts: { chains: 5, bugs: 16, resolved: 8, chainsResolved: 1 },
    finishedAt: over.day === null ? null : new Date(`${over.day ?? "2025-03-01"}T12:00:00Z`),
    graderVersion: "0.1.0",
    reviewed: true,
    runs: null,
    breaches: [],
    verified: false,
    testEdits: { bugs: 0, flagged: false },
    shortcuts: [],
    shortcutBugs: 0,
    effortPerChain: null,
    closeToGold: { bugs: 0, of: 16, threshold: 0.9 },
    tier: null,
    heldOut: null,
  };
}
