/**
 * The leaderboard's rows (SPEC §4, §6): one per public system × mode
 * on a dataset version — the newest public completed submission of each —
 * read from the scores stored when evaluations completed (lib/leaderboard/aggregates.ts),
 * never recomputed per request. Filtering and sorting are the caller's (the
 * page and the JSON API share this function, lib/leaderboard/rows.ts); the
 * relative change against the same system's Oracle row is computed here, where
 * both rows are at hand.
 *
 * Speed: a request reads the rows' facts and each score's
 * computedAt only; the stored scores (a few KB of JSON per submission) are read
 * and parsed once per computation and kept in memory, keyed by submission and
 * computedAt, so a recomputation (or a re-run, which deletes the row) is seen
 * on the next request.
 */
import { z } from "zod";
import { bugWindowSchema, positionSetSchema, relativeChange, scoreRunsInWindow, scoringSchema, type Estimate, type PositionRate, type RunScores } from "@/evaluator/scoring";
import { db } from "@/lib/db";
import { parseColumn, systemLinksSchema } from "@/lib/schemas/columns";
import { modeSchema, type Mode } from "@/lib/schemas/prediction";
import { parseStoredScores, type StoredScores } from "@/lib/leaderboard/aggregates";
import { systemFactsSelect, type SystemFacts } from "@/lib/teams/systems";
import { storedChainRecords, windowKeeps, windowSummary, type WindowSummary } from "@/lib/leaderboard/window";

export const leaderboardQuerySchema = z.object({
  /** a dataset version; default the newest */
  version: z.string().trim().min(1).optional(),
  scoring: scoringSchema.default("strict"),
  /** per-position population: the paper's length-3 chains, or all */
  positions: positionSetSchema.default("length3"),
  /** the bug-date window (SPEC §7); no bound = every chain, as stored */
  window: bugWindowSchema.default({}),
});
export type LeaderboardQuery = z.infer<typeof leaderboardQuerySchema>;

export type LeaderboardRow = {
  submissionId: string;
  system: SystemFacts;
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
  /** what the bug-date window keeps; null when none is set */
  window: WindowSummary | null;
  rows: LeaderboardRow[];
};

/**
 * The leaderboard of a version under a scoring and position set. Answered from
 * memory while the data behind it is unchanged (leaderboardDataVersion); the
 * rows are shared between callers, so treat them as read-only.
 */
export async function getLeaderboard(query: Partial<LeaderboardQuery> = {}): Promise<Leaderboard> {
  const q = leaderboardQuerySchema.parse(query);
  const data = await leaderboardDataVersion();
  if (boards.data !== data) {
    boards.data = data;
    boards.byQuery.clear();
  }
  const key = `${q.version ?? ""}\0${q.scoring}\0${q.positions}\0${q.window.from ?? ""}\0${q.window.until ?? ""}`;
  let board = boards.byQuery.get(key);
  if (!board) {
    // any version string can be asked for: keep the map small
    if (boards.byQuery.size >= 64) boards.byQuery.clear();
    board = readLeaderboard(q);
    boards.byQuery.set(key, board);
    // a failed read is not kept
    board.catch(() => boards.byQuery.get(key) === board && boards.byQuery.delete(key));
  }
  return board;
}

/**
 * A fingerprint of everything the leaderboard is made of: every change to a
 * submission (status, visibility, review) bumps its updatedAt, as every change
 * to a system does; scores are rewritten with a new computedAt or deleted; a
 * dataset version is added or removed; team names never change. One query of
 * six aggregates over small tables, so callers can keep what they derived from
 * the leaderboard while it is unchanged.
 */
export async function leaderboardDataVersion(): Promise<string> {
  const [row] = await db.$queryRaw<Record<string, unknown>[]>`SELECT
    (SELECT max("updatedAt") FROM "Submission") AS s, (SELECT count(*) FROM "Submission") AS sn,
    (SELECT max("computedAt") FROM "SubmissionScore") AS c, (SELECT count(*) FROM "SubmissionScore") AS cn,
    (SELECT max("updatedAt") FROM "System") AS y, (SELECT count(*) FROM "DatasetVersion") AS v`;
  return Object.values(row ?? {})
    .map((v) => (v instanceof Date ? v.toISOString() : String(v)))
    .join("|");
}

/**
 * Something derived from the leaderboard (e.g. the API's serialized answer for
 * one query), computed once and kept while the data behind the leaderboard is
 * unchanged (leaderboardDataVersion). `key` must name everything `compute` reads.
 */
export async function derivedFromLeaderboard<T>(key: string, compute: () => Promise<T>): Promise<T> {
  const data = await leaderboardDataVersion();
  if (derived.data !== data || derived.byKey.size >= 256) {
    derived.data = data;
    derived.byKey.clear();
  }
  let value = derived.byKey.get(key) as Promise<T> | undefined;
  if (!value) {
    value = compute();
    derived.byKey.set(key, value);
    value.catch(() => derived.byKey.get(key) === value && derived.byKey.delete(key));
  }
  return value;
}

type DerivedCache = { data: string | null; byKey: Map<string, Promise<unknown>> };
const derived: DerivedCache = ((globalThis as { chainsweLeaderboardDerived?: DerivedCache }).chainsweLeaderboardDerived ??= { data: null, byKey: new Map() });

type BoardCache = { data: string | null; byQuery: Map<string, Promise<Leaderboard>> };
/** On globalThis: the page and the API route are separate bundles but one process. */
const boards: BoardCache = ((globalThis as { chainsweLeaderboards?: BoardCache }).chainsweLeaderboards ??= { data: null, byQuery: new Map() });

/** Every dataset version, the newest (the default view) first. */
export async function versionsNewestFirst(): Promise<string[]> {
  return (await db.datasetVersion.findMany({ orderBy: { createdAt: "desc" }, select: { version: true } })).map((v) => v.version);
}

async function readLeaderboard(q: LeaderboardQuery): Promise<Leaderboard> {
  const versions = await versionsNewestFirst();
  const version = q.version ?? versions[0] ?? null;
  const board = { version, versions, scoring: q.scoring, positions: q.positions };
  if (!version || !versions.includes(version)) return { ...board, window: null, rows: [] };
  const window = await windowKeeps(version, q.window);
  const subs = await db.submission.findMany({
    where: { visibility: "public", status: "completed", datasetVersion: { version }, score: { isNot: null } },
    orderBy: [{ finishedAt: "desc" }, { id: "desc" }],
    select: {
      id: true,
      mode: true,
      finishedAt: true,
      reviewedAt: true,
      score: { select: { computedAt: true } },
      system: { select: { ...systemFactsSelect, team: { select: { name: true, slug: true } } } },
    },
  });
  // the newest public submission of each system × mode stands for it
  const seen = new Set<string>();
  const newest = subs.filter((s) => {
    const key = `${s.system.id}\0${s.mode}`;
    if (seen.has(key) || !s.score) return false;
    seen.add(key);
    return true;
  });
  const scored = await rowScores(
    newest.map((s) => ({ id: s.id, computedAt: s.score!.computedAt, system: s.system.name, mode: modeSchema.parse(s.mode) })),
    q,
    window,
  );
  const rows: LeaderboardRow[] = [];
  for (const s of newest) {
    const score = scored.get(s.id);
    if (!score) continue; // deleted since the first query (a re-run): gone on the next request too
    const { team, links, ...system } = s.system;
    rows.push({
      submissionId: s.id,
      system: { ...system, links: parseColumn(systemLinksSchema, links, "System.links") },
      team,
      mode: modeSchema.parse(s.mode),
      perBug: score.per_bug,
      chain: score.chain,
      perPosition: score.per_position,
      costPerChain: score.cost_per_chain,
      peakContext: score.peak_context_tokens,
      vsOracle: { perBug: null, chain: null },
      counts: {
        chains: score.counts.chains,
        bugs: score.counts.bugs,
        resolved: score.counts.resolved,
        chainsResolved: score.counts.chains_resolved,
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
  return { ...board, window: window && windowSummary(q.window, window.keeps), rows };
}

type RowToScore = { id: string; computedAt: Date; system: string; mode: LeaderboardRow["mode"] };

/**
 * Each row's scores under the query: the stored ones when no window is set or
 * the window keeps every chain (the same numbers); otherwise every row rescored
 * over the chains inside, all rows at once (they share the bootstrap's resamples).
 */
async function rowScores(subs: RowToScore[], q: LeaderboardQuery, window: Awaited<ReturnType<typeof windowKeeps>>): Promise<Map<string, RunScores>> {
  const out = new Map<string, RunScores>();
  if (!window || window.keeps.chains === window.keeps.totalChains) {
    const scores = await storedScores(subs);
    for (const s of subs) {
      const stored = scores.get(s.id);
      if (stored) out.set(s.id, stored[q.scoring][q.positions]);
    }
    return out;
  }
  if (window.keeps.chains === 0) return out;
  const records = await storedChainRecords(subs);
  const kept = subs.filter((s) => records.has(s.id));
  const scored = scoreRunsInWindow(
    window.chains,
    window.keeps.inside,
    kept.map((s) => ({ run: { system: s.system, mode: s.mode }, records: records.get(s.id)! })),
    { scoring: q.scoring, positions: q.positions },
  );
  kept.forEach((s, i) => out.set(s.id, scored[i]!));
  return out;
}

// ---------------------------------------------------------------- parsed scores, kept between requests

type CachedScores = { computedAt: number; scores: StoredScores };
const CACHE_LIMIT = 50_000;
/** Stored scores in memory, kept on globalThis so the page and the API route (separate bundles) share them. */
const cache: Map<string, CachedScores> = ((globalThis as { chainsweLeaderboardScores?: Map<string, CachedScores> }).chainsweLeaderboardScores ??= new Map());

/** The stored scores of these submissions as of their computedAt: from memory, or read and parsed once. */
async function storedScores(subs: { id: string; computedAt: Date }[]): Promise<Map<string, StoredScores>> {
  const out = new Map<string, StoredScores>();
  const missing: string[] = [];
  for (const s of subs) {
    const hit = cache.get(s.id);
    if (hit && hit.computedAt === s.computedAt.getTime()) out.set(s.id, hit.scores);
    else missing.push(s.id);
  }
  if (cache.size + missing.length > CACHE_LIMIT) cache.clear();
  // in chunks: SQLite limits the number of bound parameters per statement
  for (let i = 0; i < missing.length; i += 500) {
    const rows = await db.submissionScore.findMany({ where: { submissionId: { in: missing.slice(i, i + 500) } }, select: { submissionId: true, scores: true, computedAt: true } });
    for (const r of rows) {
      const scores = parseStoredScores(r.scores);
      cache.set(r.submissionId, { computedAt: r.computedAt.getTime(), scores });
      out.set(r.submissionId, scores);
    }
  }
  return out;
}
