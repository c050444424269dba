/**
 * Chain construction (paper §3.2), pure: instances per repository in date order,
 * runs of pairwise-joined neighbours, every contiguous window of a run, and the
 * ChainSWE record of a window with the join reason and overlap it was kept for.
 */
import { z } from "zod";
import type { Chain } from "@/core/schemas/dataset";
import type { Instance } from "./instances";
import { OVERLAP_LEVELS, pairwiseOverlap, type Footprint, type OverlapLevel, type PairOverlap } from "./overlap";

export const JOIN_REASONS = ["successor", "apply_check"] as const;
export type JoinReason = (typeof JOIN_REASONS)[number];

/** What `mine` records on each candidate chain (its `mining` field). */
export const miningRecordSchema = z.object({
  /** link k joins bug k and bug k+1 */
  links: z.array(z.object({ from: z.string(), to: z.string(), reason: z.enum(JOIN_REASONS) })),
  overlap_level: z.enum(OVERLAP_LEVELS),
  overlap: z.array(z.object({ a: z.number().int(), b: z.number().int(), files: z.array(z.string()), symbols: z.array(z.string()) })),
  footprints: z.array(z.object({ files: z.array(z.string()), symbols: z.array(z.string()) })),
});
export type MiningRecord = z.infer<typeof miningRecordSchema>;

/** Instances grouped by repository, each group by created date (then id, so ties are stable). */
export function byRepository(instances: Instance[]): Map<string, Instance[]> {
  const groups = new Map<string, Instance[]>();
  for (const i of instances) groups.set(i.repo, [...(groups.get(i.repo) ?? []), i]);
  for (const list of groups.values()) {
    list.sort((a, b) => a.created_at.localeCompare(b.created_at) || a.instance_id.localeCompare(b.instance_id));
  }
  return new Map([...groups].sort(([a], [b]) => a.localeCompare(b)));
}

/** A maximal run of neighbours joined pairwise; links[k] joins members k and k+1. */
export type Run<T> = { members: T[]; links: JoinReason[] };

/** Splits a date-ordered list where two neighbours do not join (joins[k] is about k and k+1). */
export function joinRuns<T>(sorted: T[], joins: (JoinReason | null)[]): Run<T>[] {
  const runs: Run<T>[] = [];
  let current: Run<T> | null = null;
  sorted.forEach((item, k) => {
    if (current && joins[k - 1]) {
      current.members.push(item);
      current.links.push(joins[k - 1]!);
    } else {
      current = { members: [item], links: [] };
      runs.push(current);
    }
  });
  return runs.filter((r) => r.members.length >= 2);
}

/** Every contiguous window of a run with 2..maxLength members, shortest first. */
export function windows<T>(run: Run<T>, maxLength: number): Run<T>[] {
  const out: Run<T>[] = [];
  const n = run.members.length;
  for (let length = 2; length <= Math.min(n, maxLength); length++) {
    for (let start = 0; start + length <= n; start++) {
      out.push({ members: run.members.slice(start, start + length), links: run.links.slice(start, start + length - 1) });
    }
  }
  return out;
}

const day = (iso: string) => iso.slice(0, 10);

export function chainId(members: Instance[]): string {
  return `${members[0]!.instance_id}+${members.length}`;
}

/** The window as a ChainSWE record (SPEC §1): it starts from its first bug's base commit and image. */
export function windowChain(window: Run<Instance>, footprints: Footprint[], overlap: PairOverlap[], level: OverlapLevel): Chain {
  const { members } = window;
  const first = members[0]!;
  const sources = new Set(members.map((m) => m.source));
  const mining: MiningRecord = {
    links: window.links.map((reason, k) => ({ from: members[k]!.instance_id, to: members[k + 1]!.instance_id, reason })),
    overlap_level: level,
    overlap,
    footprints,
  };
  return {
    continuous_id: chainId(members),
    repo: first.repo,
    base_commit: first.base_commit,
    source: sources.size === 1 ? first.source : "mixed",
    date_range: `${day(first.created_at)}..${day(members[members.length - 1]!.created_at)}`,
    docker_image: first.image_name,
    log_parser: first.log_parser,
    swebench_instance_ids: members.map((m) => m.instance_id),
    bug_fixes: members.map((m, k) => ({
      order: k + 1,
      swebench_instance_id: m.instance_id,
      commit_hash: m.commit_hash,
      problem_statement: m.problem_statement,
      date: m.created_at,
      source: m.source,
      patch: m.patch,
      test_patch: m.test_patch,
      FAIL_TO_PASS: m.FAIL_TO_PASS,
      PASS_TO_PASS: m.PASS_TO_PASS,
      test_cmds: m.test_cmds,
    })),
    mining,
  };
}

export type WindowVerdict = { chain: Chain } | { dropped: string; reason: string };

/**
 * The overlap filter over every window of a run: a window whose bugs share nothing
 * pairwise is dropped (paper §3.2); kept windows carry the pairs that overlap.
 */
export function candidateWindows(run: Run<Instance>, footprintOf: Map<string, Footprint>, maxLength: number, level: OverlapLevel): WindowVerdict[] {
  return windows(run, maxLength).map((w) => {
    const footprints = w.members.map((m) => footprintOf.get(m.instance_id) ?? { files: [], symbols: [] });
    const overlap = pairwiseOverlap(footprints, level);
    if (overlap.length === 0) return { dropped: chainId(w.members), reason: `no pairwise ${level} overlap between its gold patches` };
    return { chain: windowChain(w, footprints, overlap, level) };
  });
}
