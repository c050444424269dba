/**
 * The leaderboard's rows (SPEC §4, §6): one per public system × mode
 * on a dataset version — the newest public completed submission of each —
 * read from the scores stored when evaluations completed (lib/leaderboard/aggregates.ts),
 * or, under a bug-date window (SPEC §7), rescored over the chains it keeps from
 * each submission's stored chain records. Filtering and sorting are the
 * caller's (the page and the JSON API share this module, lib/leaderboard/rows.ts);
 * the relative change against the same system's Oracle row is computed here,
 * where both rows are at hand.
 *
 * Speed: a request reads the rows' facts and each score's computedAt only; the
 * stored scores and chain records are read and parsed once and kept in memory
 * by submission and computedAt (lib/leaderboard/score-cache.ts), so a
 * recomputation (or a re-run, which deletes the row) is seen on the next
 * request. A board is values first (getLeaderboardValues: cheap for every row,
 * windowed or not); intervals are added for the rows a view shows
 * (completeHeadlines, completeRows), the bootstrap under a window running for
 * those rows only, and kept with the board.
 */
import { z } from "zod";
import {
  bugWindowSchema,
  positionSetSchema,
  relativeChange,
  headlinesInWindow,
  scoreRunsInWindow,
  scoringSchema,
  valuesInWindow,
  type Estimate,
  type PositionRate,
  type RunScores,
  type RunValues,
} from "@/evaluator/scoring";
import { db } from "@/lib/db";
import { parseColumn, systemLinksSchema } from "@/lib/schemas/columns";
import { modeSchema, type Mode } from "@/lib/schemas/prediction";
import { parseStoredScores, type StoredScores } from "@/lib/leaderboard/aggregates";
import { systemFactsSelect, type SystemFacts } from "@/lib/teams/systems";
import { storedChainRecords, windowKeeps, windowSummary, type WindowSummary } from "@/lib/leaderboard/window";
import { keptPerScore, type ScoreCache } from "@/lib/leaderboard/score-cache";

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

/**
 * A row's values without their intervals: what filtering, sorting and the
 * per-position tables read. Under a bug-date window these are cheap for every
 * row; the bootstrap runs only for the rows a view shows (completeRows).
 */
export type LeaderboardValueRow = Omit<LeaderboardRow, "perBug" | "chain" | "perPosition"> & {
  perBug: { value: number };
  chain: { value: number };
  perPosition: Omit<PositionRate, "ci">[];
};

/** A leaderboard whose rows may lack intervals; `completeRows` gives them. */
export type LeaderboardValues = Omit<Leaderboard, "rows"> & { rows: LeaderboardValueRow[] };

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
 * The leaderboard of a version under a scoring and position set, every row
 * complete. Answered from memory while the data behind it is unchanged
 * (leaderboardDataVersion); the rows are shared between callers, so treat them
 * as read-only.
 */
export async function getLeaderboard(query: Partial<LeaderboardQuery> = {}): Promise<Leaderboard> {
  const q = leaderboardQuerySchema.parse(query);
  const data = await leaderboardDataVersion();
  return cached(boards, data, queryKey(q), async () => {
    const values = await valuesBoard(q, data);
    const { rows: _, ...meta } = values;
    return { ...meta, rows: await completeRows(values, values.rows) };
  });
}

/** The leaderboard's values (see LeaderboardValueRow): all a view needs to pick its rows. */
export async function getLeaderboardValues(query: Partial<LeaderboardQuery> = {}): Promise<LeaderboardValues> {
  return valuesBoard(leaderboardQuerySchema.parse(query));
}

/**
 * These rows of a board from getLeaderboardValues, complete with their
 * intervals, in the same order: the stored scores' (no window), or the bootstrap
 * over the window's chains for just these rows, kept for the next request.
 */
export async function completeRows(board: LeaderboardValues, rows: readonly LeaderboardValueRow[]): Promise<LeaderboardRow[]> {
  const state = completionOf(board);
  const missing = rows.filter((r) => !state.done.has(r.submissionId));
  if (missing.length > 0) {
    const scored = await state.score(missing.map((r) => r.submissionId));
    for (const r of missing) {
      const full = scored.get(r.submissionId);
      if (!full) throw new RangeError(`no scores for submission ${r.submissionId}`);
      state.done.set(r.submissionId, { ...r, perBug: full.per_bug, chain: full.chain, perPosition: full.per_position });
    }
  }
  return rows.map((r) => state.done.get(r.submissionId)!);
}

/** A row as a ranked table shows it: values, and per-bug % and chain % with their intervals. */
export type LeaderboardShownRow = LeaderboardValueRow & { perBug: Estimate; chain: Estimate };

/** These rows with per-bug % and chain % complete (what the leaderboard page shows; per-position intervals are not computed). */
export async function completeHeadlines(board: LeaderboardValues, rows: readonly LeaderboardValueRow[]): Promise<LeaderboardShownRow[]> {
  const state = completionOf(board);
  const missing = rows.filter((r) => !state.done.has(r.submissionId) && !state.headlines.has(r.submissionId));
  if (missing.length > 0) {
    const scored = await state.scoreHeadlines(missing.map((r) => r.submissionId));
    for (const r of missing) {
      const h = scored.get(r.submissionId);
      if (!h) throw new RangeError(`no scores for submission ${r.submissionId}`);
      state.headlines.set(r.submissionId, { ...r, perBug: h.per_bug, chain: h.chain });
    }
  }
  return rows.map((r) => state.done.get(r.submissionId) ?? state.headlines.get(r.submissionId)!);
}

function completionOf(board: LeaderboardValues): Completion {
  const state = completions.get(board);
  if (!state) throw new RangeError("rows are completed on a board from getLeaderboardValues");
  return state;
}

const queryKey = (q: LeaderboardQuery) => `${q.version ?? ""}\0${q.scoring}\0${q.positions}\0${q.window.from ?? ""}\0${q.window.until ?? ""}`;

type Headline = { per_bug: Estimate; chain: Estimate };
type Scorers = {
  score: (ids: string[]) => Promise<Map<string, RunScores>>;
  scoreHeadlines: (ids: string[]) => Promise<Map<string, Headline>>;
};
type Completion = Scorers & { done: Map<string, LeaderboardRow>; headlines: Map<string, LeaderboardShownRow> };
/**
 * Per values board: its completed rows and how to complete more. On globalThis
 * with the boards: the page and the API route are separate bundles, each with
 * its own copy of this module, and either may complete a board the other read.
 */
const completions: WeakMap<LeaderboardValues, Completion> = ((globalThis as { chainsweLeaderboardCompletions?: WeakMap<LeaderboardValues, Completion> }).chainsweLeaderboardCompletions ??= new WeakMap());

type QueryCache<T> = { data: string | null; byQuery: Map<string, Promise<T>> };

/** The value for `key` while the data is `data`: computed once, a failed computation not kept; any key can be asked for, so the map stays small. */
function cached<T>(cache: QueryCache<T>, data: string, key: string, compute: () => Promise<T>, limit = 64): Promise<T> {
  if (cache.data !== data) {
    cache.data = data;
    cache.byQuery.clear();
  }
  let value = cache.byQuery.get(key);
  if (!value) {
    if (cache.byQuery.size >= limit) cache.byQuery.clear();
    value = compute();
    cache.byQuery.set(key, value);
    value.catch(() => cache.byQuery.get(key) === value && cache.byQuery.delete(key));
  }
  return value;
}

/** `data`: the fingerprint already read by the caller, if any (one query per request). */
async function valuesBoard(q: LeaderboardQuery, data?: string): Promise<LeaderboardValues> {
  return cached(valueBoards, data ?? (await leaderboardDataVersion()), queryKey(q), () => readLeaderboard(q));
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
  return cached(derived as QueryCache<T>, await leaderboardDataVersion(), key, compute, 256);
}

/** On globalThis: the page and the API route are separate bundles but one process. */
const caches = globalThis as { chainsweLeaderboards?: QueryCache<Leaderboard>; chainsweLeaderboardValues?: QueryCache<LeaderboardValues> };
const boards = (caches.chainsweLeaderboards ??= { data: null, byQuery: new Map() });
const valueBoards = (caches.chainsweLeaderboardValues ??= { data: null, byQuery: new Map() });
const derived = ((globalThis as { chainsweLeaderboardDerived?: QueryCache<unknown> }).chainsweLeaderboardDerived ??= { data: null, byQuery: new Map() });

/** Every dataset version, the newest (the default view) first. */
export async function versionsNewestFirst(): Promise<string[]> {
  return (await db.datasetVersion.findMany({ orderBy: { createdAt: "desc" }, select: { version: true } })).map((v) => v.version);
}

async function readLeaderboard(q: LeaderboardQuery): Promise<LeaderboardValues> {
  const versions = await versionsNewestFirst();
  const version = q.version ?? versions[0] ?? null;
  const meta = { version, versions, scoring: q.scoring, positions: q.positions };
  if (!version || !versions.includes(version)) return withCompletion({ ...meta, window: null, rows: [] }, { score: async () => new Map(), scoreHeadlines: async () => new Map() });
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
  const scoring = await rowScoring(
    newest.map((s) => ({ id: s.id, computedAt: s.score!.computedAt, system: s.system.name, mode: modeSchema.parse(s.mode) })),
    q,
    window,
  );
  const rows: LeaderboardValueRow[] = [];
  for (const s of newest) {
    const v = scoring.values.get(s.id);
    if (!v) continue; // deleted since the first query (a re-run): gone on the next request too
    const { team, links, ...system } = s.system;
    rows.push({
      submissionId: s.id,
      system: { ...system, links: parseColumn(systemLinksSchema, links, "System.links") },
      team,
      mode: modeSchema.parse(s.mode),
      perBug: { value: v.per_bug },
      chain: { value: v.chain },
      perPosition: v.per_position,
      costPerChain: v.cost_per_chain,
      peakContext: v.peak_context_tokens,
      vsOracle: { perBug: null, chain: null },
      counts: { chains: v.counts.chains, bugs: v.counts.bugs, resolved: v.counts.resolved, chainsResolved: v.counts.chains_resolved },
      finishedAt: s.finishedAt,
      reviewed: s.reviewedAt !== null,
    });
  }
  const oracleOf = new Map(rows.filter((r) => r.mode === "oracle").map((r) => [r.system.id, r]));
  for (const r of rows) {
    const oracle = r.mode === "oracle" ? undefined : oracleOf.get(r.system.id);
    if (oracle) r.vsOracle = { perBug: relativeChange(r.perBug.value, oracle.perBug.value), chain: relativeChange(r.chain.value, oracle.chain.value) };
  }
  return withCompletion({ ...meta, window: window && windowSummary(q.window, window.keeps), rows }, scoring.scorers);
}

function withCompletion(board: LeaderboardValues, scorers: Scorers): LeaderboardValues {
  completions.set(board, { ...scorers, done: new Map(), headlines: new Map() });
  return board;
}

type RowToScore = { id: string; computedAt: Date; system: string; mode: LeaderboardRow["mode"] };

/**
 * Each row's values under the query, and how to complete rows with their
 * intervals: from the stored scores when no window is set or the window keeps
 * every chain (the same numbers); otherwise from each row's chain records over
 * the chains inside, the bootstrap run for the rows asked for, together (they
 * share its resamples).
 */
async function rowScoring(subs: RowToScore[], q: LeaderboardQuery, window: Awaited<ReturnType<typeof windowKeeps>>): Promise<{ values: Map<string, RunValues>; scorers: Scorers }> {
  const values = new Map<string, RunValues>();
  if (!window || window.keeps.chains === window.keeps.totalChains) {
    const scores = await storedScores(subs);
    const full = new Map<string, RunScores>();
    for (const s of subs) {
      const stored = scores.get(s.id)?.[q.scoring][q.positions];
      if (!stored) continue;
      full.set(s.id, stored);
      values.set(s.id, { ...stored, per_bug: stored.per_bug.value, chain: stored.chain.value, per_position: stored.per_position });
    }
    return { values, scorers: { score: async () => full, scoreHeadlines: async () => full } };
  }
  const none = { score: async () => new Map(), scoreHeadlines: async () => new Map() };
  if (window.keeps.chains === 0) return { values, scorers: none };
  const records = await storedChainRecords(subs);
  const runs = new Map(subs.filter((s) => records.has(s.id)).map((s) => [s.id, { run: { system: s.system, mode: s.mode }, records: records.get(s.id)! }]));
  const opts = { scoring: q.scoring, positions: q.positions };
  const { chains, keeps } = window;
  for (const [id, run] of runs) values.set(id, valuesInWindow(chains, keeps.inside, run, opts));
  // together: the rows asked for share the bootstrap's resamples
  const byId = <T>(ids: string[], scored: T[]) => new Map(ids.map((id, i) => [id, scored[i]!]));
  return {
    values,
    scorers: {
      score: async (ids) => byId(ids, scoreRunsInWindow(chains, keeps.inside, ids.map((id) => runs.get(id)!), opts)),
      scoreHeadlines: async (ids) => byId(ids, headlinesInWindow(chains, keeps.inside, ids.map((id) => runs.get(id)!), opts)),
    },
  };
}

// ---------------------------------------------------------------- parsed scores, kept between requests

const CACHE_LIMIT = 50_000;
/** Stored scores in memory, kept on globalThis so the page and the API route (separate bundles) share them. */
const cache: ScoreCache<StoredScores> = ((globalThis as { chainsweLeaderboardScores?: ScoreCache<StoredScores> }).chainsweLeaderboardScores ??= new Map());

/** The stored scores of these submissions as of their computedAt: from memory, or read and parsed once. */
async function storedScores(subs: { id: string; computedAt: Date }[]): Promise<Map<string, StoredScores>> {
  return keptPerScore(cache, CACHE_LIMIT, subs, "scores", (_, text) => (text === null ? null : parseStoredScores(text)));
}
