/**
 * `mine`, the shell around plan.ts: per repository, date-ordered instances are joined
 * where git says so (successor, else apply check), each gold patch is mapped to the
 * files, classes and functions it modifies, and every window of a joined run that
 * passes the overlap filter becomes a candidate chain. Nothing runs in Docker here.
 */
import type { Chain } from "@/core/schemas/dataset";
import { isImmediateSuccessor, repoClone, resolvedState, type ResolvedState } from "./git";
import type { Instance } from "./instances";
import { changedLines, footprint, touchedSymbols, type Footprint, type OverlapLevel } from "./overlap";
import { byRepository, candidateWindows, joinRuns, type JoinReason } from "./plan";
import { pythonDefinitions } from "./python-symbols";

/** Something mining left out, and why: an instance, a link between two neighbours, or a window. */
export type MiningDrop = { kind: "instance" | "link" | "window"; id: string; reason: string };

export type MineOptions = {
  instances: Instance[];
  reposDir: string;
  maxLength: number;
  level: OverlapLevel;
  /** one tick per instance examined */
  onProgress?: (done: number, total: number, detail: string) => void;
};

export type MineResult = { candidates: Chain[]; dropped: MiningDrop[]; links: { from: string; to: string; reason: JoinReason }[] };

const defsOf = async (text: string | null, file: string | null) => (text !== null && file?.endsWith(".py") ? pythonDefinitions(text) : []);

/** What a gold patch modifies, read from the bug's base commit and its resolved state. */
export async function goldFootprint(state: ResolvedState, patch: string): Promise<Footprint> {
  const changes = changedLines(patch);
  const symbols = await Promise.all(
    changes.map(async (c) => {
      const [oldDefs, newDefs] = await Promise.all([
        defsOf(c.from ? await state.before(c.from) : null, c.from),
        defsOf(c.to ? await state.after(c.to) : null, c.to),
      ]);
      return touchedSymbols(c, oldDefs, newDefs);
    }),
  );
  return footprint(changes, symbols);
}

async function joinReason(repoDir: string, prev: { instance: Instance; state: ResolvedState }, next: Instance): Promise<JoinReason | string> {
  if (await isImmediateSuccessor(repoDir, prev.instance.base_commit, next.base_commit)) return "successor";
  const check = await prev.state.applies(next.test_patch, next.patch);
  return check.ok ? "apply_check" : `not the base's successor, and on ${prev.instance.instance_id}'s resolved state its ${check.why}`;
}

type RepoScan = { sorted: Instance[]; joins: (JoinReason | null)[]; footprints: Map<string, Footprint> };

/** Walks one repository's instances in date order, keeping one resolved worktree at a time. */
async function scanRepository(repoDir: string, sorted: Instance[], result: MineResult, tick: (detail: string) => void): Promise<RepoScan> {
  const joins: (JoinReason | null)[] = [];
  const footprints = new Map<string, Footprint>();
  let prev: { instance: Instance; state: ResolvedState } | null = null;
  try {
    for (const [k, instance] of sorted.entries()) {
      if (k > 0) {
        const reason = prev ? await joinReason(repoDir, prev, instance) : `${sorted[k - 1]!.instance_id} was left out`;
        const joined = reason === "successor" || reason === "apply_check";
        joins.push(joined ? reason : null);
        const link = { from: sorted[k - 1]!.instance_id, to: instance.instance_id };
        if (joined) result.links.push({ ...link, reason });
        else result.dropped.push({ kind: "link", id: `${link.from} -> ${link.to}`, reason });
      }
      await prev?.state.remove();
      prev = null;
      const state = await resolvedState(repoDir, instance.base_commit, instance.test_patch, instance.patch);
      if ("error" in state) result.dropped.push({ kind: "instance", id: instance.instance_id, reason: state.error });
      else {
        prev = { instance, state };
        footprints.set(instance.instance_id, await goldFootprint(state, instance.patch));
      }
      tick(instance.instance_id);
    }
  } finally {
    await prev?.state.remove();
  }
  return { sorted, joins, footprints };
}

export async function mine(o: MineOptions): Promise<MineResult> {
  const result: MineResult = { candidates: [], dropped: [], links: [] };
  let done = 0;
  const tick = (detail: string) => o.onProgress?.(++done, o.instances.length, detail);
  for (const [repo, sorted] of byRepository(o.instances)) {
    const repoDir = await repoClone(o.reposDir, repo).catch((e: Error) => e);
    if (repoDir instanceof Error) {
      for (const i of sorted) {
        result.dropped.push({ kind: "instance", id: i.instance_id, reason: repoDir.message });
        tick(i.instance_id);
      }
      continue;
    }
    const scan = await scanRepository(repoDir, sorted, result, tick);
    // an instance left out breaks the run on both sides (its joins are null)
    const usable = scan.sorted.map((i) => scan.footprints.has(i.instance_id));
    const joins = scan.joins.map((j, k) => (usable[k] && usable[k + 1] ? j : null));
    for (const run of joinRuns(scan.sorted, joins)) {
      for (const verdict of candidateWindows(run, scan.footprints, o.maxLength, o.level)) {
        if ("chain" in verdict) result.candidates.push(verdict.chain);
        else result.dropped.push({ kind: "window", id: verdict.dropped, reason: verdict.reason });
      }
    }
  }
  return result;
}
