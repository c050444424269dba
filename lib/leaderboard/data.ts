/**
 * The leaderboard's rows (SPEC §4, §6): one per public system × mode
 * on a dataset version — the newest public completed submission of each, with
 * the other public runs of its entry when it is one of repeated runs (SPEC §7) —
 * read from the scores stored when evaluations completed (lib/leaderboard/aggregates.ts),
 * or rescored from each run's stored chain records: a row of several runs,
 * every row under a bug-date window (over the chains it keeps) or without
 * test-editing patches (SPEC §7). Filtering and sorting are the
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
  chainSolvedShares,
  costPerSolvedChain,
  heldOutScore,
  positionSetSchema,
  relativeChange,
  headlinesInWindow,
  scoreRunsInWindow,
  scoringSchema,
  valuesInWindow,
  type ChainRecord,
  type DatedChain,
  type Estimate,
  type HeldOutScore,
  type PositionRate,
  type RunScores,
  type RunValues,
} from "@/core/scoring";
import { db } from "@/db/client";
import { parseColumn, splitSchema, systemLinksSchema, type Split } from "@/core/schemas/columns";
import { modeSchema, type Mode } from "@/core/schemas/prediction";
import type { RuleBreach } from "@/core/schemas/manifest";
import type { ShortcutKind } from "@/core/trajectory/shortcuts";
import type { Effort } from "@/core/scoring/schemas";
import { getVersionRules } from "@/lib/dataset/data";
import { parseStoredScores, type StoredScores } from "@/lib/leaderboard/stored-scores";
import { systemFactsSelect, type SystemFacts } from "@/lib/teams/systems";
import { storedChainRecords, windowKeeps, windowSummary, type ScoredChains, type WindowSummary } from "@/lib/leaderboard/window";
import { keptPerScore, type ScoreCache } from "@/lib/leaderboard/score-cache";
import { archivedSubmissions } from "@/lib/leaderboard/history";
import { asOfSchema, endOfDay } from "@/lib/leaderboard/as-of";
import { storedRanking, tiersForRows, type RowTierFacts } from "@/lib/leaderboard/tiers";
import { entriesTrust, trustRunSelect } from "@/lib/leaderboard/trust";
import { defaultVersion } from "@/lib/dataset/default-version";

export const leaderboardQuerySchema = z.object({
  /** a dataset version; default the newest with published rows (lib/dataset/default-version.ts) */
  version: z.string().trim().min(1).optional(),
  scoring: scoringSchema.default("strict"),
  /** per-position population: the paper's length-3 chains, or all */
  positions: positionSetSchema.default("length3"),
  /** the bug-date window (SPEC §7); no bound = every chain, as stored */
  window: bugWindowSchema.default({}),
  /** SPEC §7 test edits: `without` scores a bug whose model patch edits tests as unresolved */
  test_edits: z.enum(["with", "without"]).default("with"),
  /** SPEC §6 archived boards: the board as it stood at the end of this day (UTC); none = today's */
  as_of: asOfSchema.optional(),
  /** SPEC §8: the full version's rows, or its Mini split's (never ranked together) */
  split: splitSchema.default("full"),
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
  /** what a solved chain costs (costPerSolvedChain); null without a cost or a solved chain */
  costPerSolvedChain: number | null;
  /** mean over chains of the chain's max peak_context_tokens */
  peakContext: number | null;
  /** per figure, the mean over chains of the chain's summed tokens, steps and wall time; null from scores of an older release */
  effortPerChain: Effort | null;
  /** (this − Oracle) / Oracle for the same system, as a fraction; null for Oracle rows or without one */
  vsOracle: { perBug: number | null; chain: number | null };
  counts: { chains: number; bugs: number; resolved: number; chainsResolved: number };
  finishedAt: Date | null;
  /** the grader version(s) its scores came from (SPEC §6); null from an older release */
  graderVersion: string | null;
  /** approved by a reviewer (every public row is; kept for rows of other provenance later) */
  reviewed: boolean;
  /** a row of k ≥ 2 runs (SPEC §7): its rates above are means over them; null for a single run */
  runs: RowRuns<Estimate> | null;
  /** the version's rules its runs' manifests broke (flagged, not refused), by run */
  breaches: (RuleBreach & { run: number })[];
  /** enough reviewed runs and no breach, by the version's rules (verified_min_runs); false without that rule */
  verified: boolean;
  /** SPEC §7: bugs whose model patch edits tests (over the scored chains, summed over runs), and whether a run's policy flags them */
  testEdits: { bugs: number; flagged: boolean };
  /** SPEC §7: the shortcut scan's flags on the runs' trajectories: per run and kind, the bugs hit */
  shortcuts: RowShortcut[];
  /** the bugs those flags are on, each counted once (a bug flagged for two kinds, or in two runs, is one bug), inside the bug-date window */
  shortcutBugs: number;
  /** SPEC §7 close to gold: graded bugs whose patch is at least `threshold` similar to gold, of those with a similarity (over the scored chains, summed over runs) */
  closeToGold: { bugs: number; of: number; threshold: number };
  /** SPEC §4 rank tiers among the rows of its mode, as last refreshed; null under a window, without test edits, or while the rows differ from those ranked */
  tier: RowTierFacts | null;
  /** SPEC §8 its held-out chain % (one aggregate, with its interval) and the gap to its public chain %; null when the version holds no chain out */
  heldOut: HeldOutScore | null;
};

export type RowShortcut = { run: number; kind: ShortcutKind; bugs: number };

type Span = { min: number; max: number };
/** How a row's runs spread, and chain pass^k (with its interval once the row is complete). */
export type RowRuns<PassK> = {
  k: number;
  /** the runs' submissions, run 1..k */
  submissionIds: string[];
  perBug: Span;
  chain: Span;
  passK: PassK;
  perPosition: (Span & { position: number })[];
  byRun: { perBug: number; chain: number }[];
};

/**
 * A row's values without their intervals: what filtering, sorting and the
 * per-position tables read. Under a bug-date window these are cheap for every
 * row; the bootstrap runs only for the rows a view shows (completeRows).
 */
export type LeaderboardValueRow = Omit<LeaderboardRow, "perBug" | "chain" | "perPosition" | "runs"> & {
  perBug: { value: number };
  chain: { value: number };
  perPosition: Omit<PositionRate, "ci">[];
  runs: RowRuns<{ value: number }> | null;
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
  /** the day an archived board stands as of (SPEC §6); null for today's board */
  asOf: string | null;
  /** whose rows: the full version's, or its Mini split's (SPEC §8) */
  split: Split;
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
      state.done.set(r.submissionId, { ...r, perBug: full.per_bug, chain: full.chain, perPosition: full.per_position, runs: r.runs && full.runs ? { ...r.runs, passK: full.runs.pass_k } : null });
    }
  }
  return rows.map((r) => state.done.get(r.submissionId)!);
}

/** A row as a ranked table shows it: values, and per-bug % and chain % (and pass^k) with their intervals. */
export type LeaderboardShownRow = Omit<LeaderboardValueRow, "runs"> & { perBug: Estimate; chain: Estimate; runs: RowRuns<Estimate> | null };

/** These rows with per-bug % and chain % complete (what the leaderboard page shows; per-position intervals are not computed). */
export async function completeHeadlines(board: LeaderboardValues, rows: readonly LeaderboardValueRow[]): Promise<LeaderboardShownRow[]> {
  const state = completionOf(board);
  const missing = rows.filter((r) => !state.done.has(r.submissionId) && !state.headlines.has(r.submissionId));
  if (missing.length > 0) {
    const scored = await state.scoreHeadlines(missing.map((r) => r.submissionId));
    for (const r of missing) {
      const h = scored.get(r.submissionId);
      if (!h) throw new RangeError(`no scores for submission ${r.submissionId}`);
      state.headlines.set(r.submissionId, { ...r, perBug: h.per_bug, chain: h.chain, runs: r.runs && h.pass_k ? { ...r.runs, passK: h.pass_k } : null });
    }
  }
  return rows.map((r) => state.done.get(r.submissionId) ?? state.headlines.get(r.submissionId)!);
}

function completionOf(board: LeaderboardValues): Completion {
  const state = completions.get(board);
  if (!state) throw new RangeError("rows are completed on a board from getLeaderboardValues");
  return state;
}

const queryKey = (q: LeaderboardQuery) => `${q.version ?? ""}\0${q.scoring}\0${q.positions}\0${q.window.from ?? ""}\0${q.window.until ?? ""}\0${q.test_edits}\0${q.as_of ?? ""}\0${q.split}`;

/** pass_k: only for a row of several runs */
type Headline = { per_bug: Estimate; chain: Estimate; pass_k?: Estimate };
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
 * dataset version is added or removed, or its rules set; team names never
 * change. One query of eight aggregates over small tables, so callers can keep what they derived from
 * the leaderboard while it is unchanged.
 */
export async function leaderboardDataVersion(): Promise<string> {
  const [row] = await db.$queryRaw<Record<string, unknown>[]>`SELECT
    (SELECT max("updatedAt") FROM "Submission") AS s, (SELECT count(*) FROM "Submission") AS sn,
    (SELECT max("computedAt") FROM "SubmissionScore") AS c, (SELECT count(*) FROM "SubmissionScore") AS cn,
    (SELECT max("updatedAt") FROM "System") AS y, (SELECT count(*) FROM "DatasetVersion") AS v,
    (SELECT max("rulesSetAt") FROM "DatasetVersion") AS r, (SELECT max("computedAt") FROM "VersionRanking") AS t`;
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

/** Every dataset version, the newest first (the default view: lib/dataset/default-version.ts). */
export async function versionsNewestFirst(): Promise<string[]> {
  return (await db.datasetVersion.findMany({ orderBy: { createdAt: "desc" }, select: { version: true } })).map((v) => v.version);
}

async function readLeaderboard(q: LeaderboardQuery): Promise<LeaderboardValues> {
  const versions = await versionsNewestFirst();
  const version = q.version ?? (await defaultVersion(versions));
  const meta = { version, versions, scoring: q.scoring, positions: q.positions, asOf: q.as_of ?? null, split: q.split };
  if (!version || !versions.includes(version)) return withCompletion({ ...meta, window: null, rows: [] }, { score: async () => new Map(), scoreHeadlines: async () => new Map() });
  // a Mini board's chains are drawn from the public ones (SPEC §8)
  const window = await windowKeeps(version, q.window, { heldOut: q.split === "full" });
  // an archived board: the submissions public at the end of that day, each with the scores it had then
  const archived = q.as_of ? await archivedOn(version, q.as_of) : null;
  const found = await db.submission.findMany({
    // archived: every submission of the version, kept below if it was on the board then
    where: archived ? { datasetVersion: { version }, split: q.split } : { visibility: "public", status: "completed", datasetVersion: { version }, split: q.split, score: { isNot: null } },
    orderBy: [{ finishedAt: "desc" }, { id: "desc" }],
    select: {
      ...trustRunSelect,
      mode: true,
      finishedAt: true,
      runOfId: true,
      score: { select: { computedAt: true, graderVersion: true } },
      system: { select: { ...systemFactsSelect, team: { select: { name: true, slug: true } } } },
    },
  });
  const subs = archived ? asArchived(found, archived, endOfDay(q.as_of!)) : found.map((s) => ({ ...s, score: s.score! }));
  // the newest public entry of each system × mode stands for it: a single run, or every public run of its entry (SPEC §7)
  const entryOf = (s: (typeof subs)[number]) => s.runOfId ?? s.id;
  const runsOf = new Map<string, typeof subs>();
  for (const s of subs) runsOf.set(entryOf(s), [...(runsOf.get(entryOf(s)) ?? []), s]);
  const seen = new Set<string>();
  const newest = subs.flatMap((s) => {
    const key = `${s.system.id}\0${s.mode}`;
    if (seen.has(key)) return [];
    seen.add(key);
    const runs = runsOf.get(entryOf(s))!.toSorted((a, b) => a.run - b.run);
    return [{ ...runs[0]!, finishedAt: s.finishedAt, runs }];
  });
  const toScore = newest.map((s) => ({ id: s.id, system: s.system.name, mode: modeSchema.parse(s.mode), runs: s.runs.map((r) => ({ id: r.id, computedAt: r.score.computedAt })) }));
  // every run's chain records, read once: they count test edits for every row and rescore the rows that need it
  const records = await storedChainRecords(toScore.flatMap((r) => r.runs));
  const scoring = await rowScoring(toScore, q, window, records);
  const rules = (await getVersionRules(version)) ?? {};
  const scored = (id: string) => (window?.narrowed ? window.keeps.inside.has(id) : true);
  const trust = await entriesTrust(newest.map((s) => s.runs), rules, records, scored);
  const heldOut = heldOutOf(toScore, window, records, q);
  const rows: LeaderboardValueRow[] = [];
  for (const [i, s] of newest.entries()) {
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
      costPerSolvedChain: costPerSolvedChain(v),
      peakContext: v.peak_context_tokens,
      effortPerChain: v.effort_per_chain ?? null,
      vsOracle: { perBug: null, chain: null },
      counts: { chains: v.counts.chains, bugs: v.counts.bugs, resolved: v.counts.resolved, chainsResolved: v.counts.chains_resolved },
      finishedAt: s.finishedAt,
      graderVersion: [...new Set(s.runs.flatMap((r) => (r.score.graderVersion ? [r.score.graderVersion] : [])))].join(", ") || null,
      runs: v.runs ? rowRuns(v.runs, s.runs.map((r) => r.id), { value: v.runs.pass_k }) : null,
      ...trust[i]!,
      tier: null,
      heldOut: heldOut.get(s.id) ?? null,
    });
  }
  // tiers rank every chain with test edits as graded: none under a window that drops chains or without test edits
  if (!window?.narrowed && q.test_edits === "with") {
    const tiers = tiersForRows(rows.map((r) => ({ submissionId: r.submissionId, mode: r.mode, submissionIds: r.runs?.submissionIds ?? [r.submissionId] })), await storedRanking(version), q.scoring);
    for (const r of rows) r.tier = tiers.get(r.submissionId) ?? null;
  }
  const oracleOf = new Map(rows.filter((r) => r.mode === "oracle").map((r) => [r.system.id, r]));
  for (const r of rows) {
    const oracle = r.mode === "oracle" ? undefined : oracleOf.get(r.system.id);
    if (oracle) r.vsOracle = { perBug: relativeChange(r.perBug.value, oracle.perBug.value), chain: relativeChange(r.chain.value, oracle.chain.value) };
  }
  return withCompletion({ ...meta, window: window?.set ? windowSummary(q.window, window.keeps) : null, rows }, scoring.scorers);
}

/**
 * Each row's held-out score (SPEC §8): its runs' chain records on the public
 * chains the board scores and on the held-out ones, compared by heldOutScore.
 * None when the version holds no chain out (or the window keeps no chain of one side).
 */
function heldOutOf(rows: RowToScore[], window: ScoredChains | null, records: ReadonlyMap<string, ChainRecord[]>, q: LeaderboardQuery): Map<string, HeldOutScore> {
  const out = new Map<string, HeldOutScore>();
  if (!window || window.heldOut.length === 0 || window.keeps.chains === 0) return out;
  const heldInside = new Set(window.heldOut.map((c) => c.continuous_id));
  const opts = { scoring: q.scoring, withoutTestEdits: q.test_edits === "without" };
  for (const r of rows) {
    const runs = r.runs.map((x) => records.get(x.id));
    if (!runs.every((x) => x !== undefined)) continue;
    const row = { run: { system: r.system, mode: r.mode }, runs: runs as ChainRecord[][] };
    out.set(r.id, heldOutScore(chainSolvedShares(window.chains, window.keeps.inside, row, opts), chainSolvedShares(window.heldOut, heldInside, row, opts)));
  }
  return out;
}

/** The version's submissions on its board at the end of `asOf`, with the scores each had then (lib/leaderboard/history.ts). */
async function archivedOn(version: string, asOf: string): Promise<Map<string, { computedAt: Date; graderVersion: string | null }>> {
  return new Map((await archivedSubmissions(version, asOf)).map((a) => [a.id, { computedAt: a.computedAt, graderVersion: a.graderVersion }]));
}

/**
 * Submissions as they stood at `end`: the scores they had then, and the time
 * their evaluation had finished by then (a later re-run moved finishedAt; the
 * scores' computation stands for it), newest first as the board orders them.
 */
function asArchived<S extends { id: string; finishedAt: Date | null }>(subs: S[], archived: ReadonlyMap<string, { computedAt: Date; graderVersion: string | null }>, end: Date) {
  return subs
    .flatMap((s) => {
      const score = archived.get(s.id);
      if (!score) return [];
      return [{ ...s, score, finishedAt: s.finishedAt && s.finishedAt < end ? s.finishedAt : score.computedAt }];
    })
    .toSorted((a, b) => b.finishedAt.getTime() - a.finishedAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
}

function withCompletion(board: LeaderboardValues, scorers: Scorers): LeaderboardValues {
  completions.set(board, { ...scorers, done: new Map(), headlines: new Map() });
  return board;
}


/** A row's spread as the API and pages name it. */
export function rowRuns<P>(runs: NonNullable<RunValues["runs"]>, submissionIds: string[], passK: P): RowRuns<P> {
  return {
    k: runs.k,
    submissionIds,
    perBug: runs.per_bug,
    chain: runs.chain,
    passK,
    perPosition: runs.per_position,
    byRun: runs.by_run.map((r) => ({ perBug: r.per_bug, chain: r.chain })),
  };
}

/** A row to score: keyed by its first run's id; its runs, 1..k, each as of its scores' computedAt. */
type RowToScore = { id: string; system: string; mode: LeaderboardRow["mode"]; runs: { id: string; computedAt: Date }[] };

/**
 * Each row's values under the query, and how to complete rows with their
 * intervals. A single run with no window (or one keeping every chain) and
 * test edits counted as graded is its stored scores. Otherwise the row is
 * rescored from its runs' chain records: under a window over the chains
 * inside, the rows asked for together (they share the bootstrap's resamples);
 * with no window over the chains its run 1 covers, one row at a time.
 */
async function rowScoring(
  rows: RowToScore[],
  q: LeaderboardQuery,
  window: Awaited<ReturnType<typeof windowKeeps>>,
  records: ReadonlyMap<string, ChainRecord[]>,
): Promise<{ values: Map<string, RunValues>; scorers: Scorers }> {
  const values = new Map<string, RunValues>();
  const windowed = window?.narrowed ? window : null;
  // stored scores count every bug as graded; without test-editing patches every row is rescored from its records
  const fromStored = (r: RowToScore) => !windowed && q.test_edits === "with" && r.runs.length === 1;
  const stored = rows.filter(fromStored);
  const rescored = rows.filter((r) => !fromStored(r));
  const full = new Map<string, RunScores>();
  const scores = await storedScores(stored.map((r) => r.runs[0]!));
  for (const r of stored) {
    const s = scores.get(r.id)?.[q.scoring][q.positions];
    if (!s) continue;
    full.set(r.id, s);
    // a stored score is one run's: no spread
    const { runs: _, ...one } = s;
    values.set(r.id, { ...one, per_bug: s.per_bug.value, chain: s.chain.value, per_position: s.per_position });
  }
  const toScore = new Map<string, { run: { system: string; mode: Mode }; runs: ChainRecord[][] }>();
  for (const r of rescored) {
    const runs = r.runs.map((x) => records.get(x.id));
    if (runs.every((x) => x !== undefined)) toScore.set(r.id, { run: { system: r.system, mode: r.mode }, runs: runs as ChainRecord[][] });
  }
  const opts = { scoring: q.scoring, positions: q.positions, withoutTestEdits: q.test_edits === "without" };
  // the chains a rescored row is scored over: the window's, or (no window) those its run 1 covers
  const chainsOf = (id: string): { chains: DatedChain[]; inside: ReadonlySet<string> } => {
    if (windowed) return { chains: windowed.chains, inside: windowed.keeps.inside };
    const covered = toScore.get(id)!.runs[0]!.map((c) => ({ continuous_id: c.continuous_id, dates: [] }));
    return { chains: covered, inside: new Set(covered.map((c) => c.continuous_id)) };
  };
  if (!windowed || windowed.keeps.chains > 0) {
    for (const [id, row] of toScore) {
      const { chains, inside } = chainsOf(id);
      values.set(id, valuesInWindow(chains, inside, row, opts));
    }
  }
  // rows asked for together share the bootstrap's resamples when they share the chains (under a window); otherwise one by one
  const rescore = <T>(ids: string[], score: (chains: DatedChain[], inside: ReadonlySet<string>, rows: { run: { system: string; mode: Mode }; runs: ChainRecord[][] }[]) => T[]): Map<string, T> => {
    const out = new Map<string, T>();
    const asked = ids.filter((id) => toScore.has(id) && values.has(id));
    const batches = windowed ? [asked] : asked.map((id) => [id]);
    for (const batch of batches) {
      if (batch.length === 0) continue;
      const { chains, inside } = chainsOf(batch[0]!);
      score(chains, inside, batch.map((id) => toScore.get(id)!)).forEach((v, i) => out.set(batch[i]!, v));
    }
    return out;
  };
  const storedOf = (ids: string[]) => new Map(ids.flatMap((id) => (full.has(id) ? [[id, full.get(id)!] as const] : [])));
  return {
    values,
    scorers: {
      score: async (ids) => new Map([...storedOf(ids), ...rescore(ids, (c, i, r) => scoreRunsInWindow(c, i, r, opts))]),
      scoreHeadlines: async (ids) => new Map<string, Headline>([...storedOf(ids), ...rescore(ids, (c, i, r) => headlinesInWindow(c, i, r, opts))]),
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
