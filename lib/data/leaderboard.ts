/**
 * The leaderboard's rows (SPEC §4, §6; issue 4): one per public system × mode
 * on a dataset version — the newest public completed submission of each —
 * read from the scores stored when evaluations completed (lib/data/aggregates.ts),
 * never recomputed per request. Filtering and sorting are the caller's (the
 * page and the JSON API share this function); the relative change against the
 * same system's Oracle row is computed here, where both rows are at hand.
 */
import { z } from "zod";
import { relativeChange, type Estimate, type PositionRate } from "@/evaluator/scoring";
import { db } from "@/lib/db";
import { parseColumn, systemLinksSchema, type SystemLinks } from "@/lib/schemas/columns";
import { modeSchema, type Mode } from "@/lib/schemas/prediction";
import { parseStoredScores } from "./aggregates";

export const leaderboardQuerySchema = z.object({
  /** a dataset version; default the newest */
  version: z.string().trim().min(1).optional(),
  scoring: z.enum(["strict", "lenient"]).default("strict"),
  /** per-position population: the paper's length-3 chains, or all */
  positions: z.enum(["length3", "all"]).default("length3"),
});
export type LeaderboardQuery = z.infer<typeof leaderboardQuerySchema>;

export type LeaderboardRow = {
  submissionId: string;
  system: {
    id: string;
    name: string;
    model: string;
    scaffold: string;
    contextConfig: string;
    openWeights: boolean;
    openScaffold: boolean;
    links: SystemLinks;
  };
  team: { name: string; slug: string };
  mode: Mode;
  perBug: Estimate;
  chain: Estimate;
  perPosition: PositionRate[];
  /** mean over chains of the chain's summed cost_usd; null when no bug reported one */
  costPerChain: number | null;
  /** mean over chains of the chain's max peak_context_tokens */
  peakContext: number | null;
  /** (this − Oracle) / Oracle for the same system, as a fraction; null for Oracle rows or without one */
  vsOracle: { perBug: number | null; chain: number | null };
  counts: { chains: number; bugs: number; resolved: number; chainsResolved: number };
  finishedAt: Date | null;
  /** approved by a reviewer (every public row is; kept for rows of other provenance later) */
  reviewed: boolean;
};

export type Leaderboard = {
  version: string | null;
  versions: string[];
  scoring: LeaderboardQuery["scoring"];
  positions: LeaderboardQuery["positions"];
  rows: LeaderboardRow[];
};

export async function getLeaderboard(query: Partial<LeaderboardQuery> = {}): Promise<Leaderboard> {
  const q = leaderboardQuerySchema.parse(query);
  const versions = (await db.datasetVersion.findMany({ orderBy: { createdAt: "desc" }, select: { version: true } })).map((v) => v.version);
  const version = q.version ?? versions[0] ?? null;
  if (!version || !versions.includes(version)) return { version, versions, scoring: q.scoring, positions: q.positions, rows: [] };
  const subs = await db.submission.findMany({
    where: { visibility: "public", status: "completed", datasetVersion: { version }, score: { isNot: null } },
    orderBy: [{ finishedAt: "desc" }, { id: "desc" }],
    select: {
      id: true,
      mode: true,
      finishedAt: true,
      reviewedAt: true,
      score: { select: { scores: true } },
      system: {
        select: {
          id: true,
          name: true,
          model: true,
          scaffold: true,
          contextConfig: true,
          openWeights: true,
          openScaffold: true,
          links: true,
          team: { select: { name: true, slug: true } },
        },
      },
    },
  });
  // the newest public submission of each system × mode stands for it
  const seen = new Set<string>();
  const rows: LeaderboardRow[] = [];
  for (const s of subs) {
    const key = `${s.system.id}\0${s.mode}`;
    if (seen.has(key) || !s.score) continue;
    seen.add(key);
    const scored = parseStoredScores(s.score.scores)[q.scoring][q.positions];
    const { team, links, ...system } = s.system;
    rows.push({
      submissionId: s.id,
      system: { ...system, links: parseColumn(systemLinksSchema, links, "System.links") },
      team,
      mode: modeSchema.parse(s.mode),
      perBug: scored.per_bug,
      chain: scored.chain,
      perPosition: scored.per_position,
      costPerChain: scored.cost_per_chain,
      peakContext: scored.peak_context_tokens,
      vsOracle: { perBug: null, chain: null },
      counts: {
        chains: scored.counts.chains,
        bugs: scored.counts.bugs,
        resolved: scored.counts.resolved,
        chainsResolved: scored.counts.chains_resolved,
      },
      finishedAt: s.finishedAt,
      reviewed: s.reviewedAt !== null,
    });
  }
  const oracleOf = new Map(rows.filter((r) => r.mode === "oracle").map((r) => [r.system.id, r]));
  for (const r of rows) {
    const oracle = r.mode === "oracle" ? undefined : oracleOf.get(r.system.id);
    if (oracle) r.vsOracle = { perBug: relativeChange(r.perBug.value, oracle.perBug.value), chain: relativeChange(r.chain.value, oracle.chain.value) };
  }
  return { version, versions, scoring: q.scoring, positions: q.positions, rows };
}
