/**
 * What a bug-date window (SPEC §7) reads from the database: a version's chains
 * with their bug dates, and each submission's chain records (stored with its
 * scores when its evaluation completed). The scoring itself is the evaluator's
 * (scoreRunsInWindow, chainErrorBreakdownOf); this module only reads, keeps
 * in memory what never changes, and fills a record left empty by an older
 * release. A version's held-out chains (SPEC §8) are never in a public
 * board's population: its rows are scored over the public chains (inside the
 * window, when one is set), as a window narrows them.
 */
import { chainRecords, chainsInWindow, isWindowSet, type BugWindow, type ChainRecord, type DatedChain, type WindowKeeps } from "@/core/scoring";
import { db } from "@/db/client";
import { columnJson } from "@/core/schemas/columns";
import { parseStoredChains, storedChainsSchema } from "@/lib/leaderboard/stored-scores";
import { runResultsForSubmission } from "@/lib/submissions/run-results";
import { keptPerScore, type ScoreCache } from "@/lib/leaderboard/score-cache";
import { getVersionRules } from "@/lib/dataset/data";

/** What a page and the API say of a window: its ends and what it keeps. */
export type WindowSummary = {
  from: string | null;
  until: string | null;
  chains: number;
  bugs: number;
  totalChains: number;
  totalBugs: number;
  /** chains left out only because a bug's date is not a date */
  undated: number;
};

export function windowSummary(w: BugWindow, keeps: WindowKeeps): WindowSummary {
  return { from: w.from ?? null, until: w.until ?? null, chains: keeps.chains, bugs: keeps.bugs, totalChains: keeps.totalChains, totalBugs: keeps.totalBugs, undated: keeps.undated };
}

type Cache<T> = Map<string, Promise<T>>;
const store = globalThis as { chainsweDatedChains?: Cache<DatedChain[]>; chainsweChainRecords?: ScoreCache<ChainRecord[]> };
/** By DatasetVersion id: a version's chains never change (a re-import is a new id). */
const dated: Cache<DatedChain[]> = (store.chainsweDatedChains ??= new Map());
/** By submission, as of its scores' computedAt (a recomputation is seen on the next request). */
const records: ScoreCache<ChainRecord[]> = (store.chainsweChainRecords ??= new Map());
const RECORDS_LIMIT = 5_000;

/** The version's chains, in dataset order, each with its bugs' dates in order; null for an unknown version. */
export async function datedChains(version: string): Promise<DatedChain[] | null> {
  const v = await db.datasetVersion.findUnique({ where: { version }, select: { id: true } });
  if (!v) return null;
  let hit = dated.get(v.id);
  if (!hit) {
    if (dated.size >= 32) dated.clear();
    hit = db.chain
      .findMany({
        where: { datasetVersionId: v.id },
        // the import's order, as the run summaries list it (lib/submissions/run-results.ts)
        orderBy: { id: "asc" },
        select: { continuousId: true, bugs: { orderBy: { order: "asc" }, select: { date: true } } },
      })
      .then((rows) => rows.map((c) => ({ continuous_id: c.continuousId, dates: c.bugs.map((b) => b.date) })));
    dated.set(v.id, hit);
    hit.catch(() => dated.get(v.id) === hit && dated.delete(v.id));
  }
  return hit;
}

/**
 * The chains a public board of the version scores. `chains`: its public chains
 * (held-out ones left out); `keeps`: what the window keeps of them (all of them
 * with no bound); `narrowed`: fewer than every chain of the version, so the
 * stored scores (over all of them) do not serve; `set`: a window bound is set.
 * Null when neither narrows (no bound, no held-out chain) or the version is unknown.
 */
export type ScoredChains = {
  chains: DatedChain[];
  keeps: WindowKeeps;
  /** the held-out chains the window keeps (all of them with no bound), scored apart (SPEC §8) */
  heldOut: DatedChain[];
  narrowed: boolean;
  set: boolean;
};

/** `heldOut: false`: every chain of the version is public (a Mini board: its chains are drawn from the public ones). */
export async function windowKeeps(version: string, w: BugWindow | undefined, opts: { heldOut?: boolean } = {}): Promise<ScoredChains | null> {
  const set = isWindowSet(w);
  const heldOutIds = new Set(opts.heldOut === false ? [] : ((await getVersionRules(version))?.held_out ?? []));
  if (!set && heldOutIds.size === 0) return null;
  const all = await datedChains(version);
  if (!all) return null;
  const chains = all.filter((c) => !heldOutIds.has(c.continuous_id));
  const keeps = chainsInWindow(chains, w ?? {});
  const held = all.filter((c) => heldOutIds.has(c.continuous_id));
  const heldKept = chainsInWindow(held, w ?? {}).inside;
  return { chains, keeps, heldOut: held.filter((c) => heldKept.has(c.continuous_id)), narrowed: keeps.chains < all.length, set };
}

/**
 * Each submission's chain records as of its scores' computedAt. A score stored
 * before records were (an older release) gets them now, from its graded bugs.
 */
export async function storedChainRecords(subs: readonly { id: string; computedAt: Date }[]): Promise<Map<string, ChainRecord[]>> {
  return keptPerScore(records, RECORDS_LIMIT, subs, "chains", async (submissionId, text, current) => {
    if (text !== null) return parseStoredChains(text);
    // a revision kept without records: today's results are not what it was scored from
    if (!current) return null;
    const run = await runResultsForSubmission(submissionId);
    if (!run) return null;
    const list = chainRecords(run);
    await db.submissionScore.update({ where: { submissionId }, data: { chains: columnJson(storedChainsSchema, list) } });
    return list;
  });
}

/** A window's facts as an export's metadata (JSON fields beside the rows). */
export function windowMeta(w: WindowSummary | null): { bug_from: string | null; bug_until: string | null; window_chains: number | null; window_bugs: number | null } {
  return { bug_from: w?.from ?? null, bug_until: w?.until ?? null, window_chains: w?.chains ?? null, window_bugs: w?.bugs ?? null };
}
