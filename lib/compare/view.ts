/**
 * What the comparison page shows besides the paired difference: who resolved more bugs on each chain both runs cover, the difference as
 * signed points, and the cost-vs-score scatter. Pure: /compare, its export and
 * the tests all call these.
 */
import { chainOutcomes, countResolved, formatPercent, type RunResults, type Scoring } from "@/core/scoring";
import type { Mode } from "@/core/schemas/prediction";

export type ChainWinLoss = {
  continuousId: string;
  length: number;
  /** bugs resolved under the scoring */
  a: number;
  b: number;
  winner: "a" | "b" | "tie";
  /** the first unresolved bug's position in each run, null when all resolved */
  firstUnresolved: { a: number | null; b: number | null };
  /** positions (1-based) that flipped: resolved by A only, and by B only */
  flipped: { a: number[]; b: number[] };
};

const only = (x: boolean[], y: boolean[]): number[] => x.flatMap((r, i) => (r && !y[i] ? [i + 1] : []));

const firstUnresolved = (resolved: boolean[]): number | null => {
  const i = resolved.indexOf(false);
  return i < 0 ? null : i + 1;
};

const coveredChains = (run: RunResults): ((id: string) => boolean) => {
  const selected = run.summary.chains_selected ? new Set(run.summary.chains_selected) : null;
  return (id) => !selected || selected.has(id);
};

/**
 * Per chain both runs cover (as pairedComparison pairs them): who resolved more
 * bugs. The wins, losses and ties it counts equal pairedComparison's.
 */
export function chainWinLoss(a: RunResults, b: RunResults, scoring: Scoring): ChainWinLoss[] {
  const inA = coveredChains(a);
  const inB = coveredChains(b);
  const outcomesB = new Map(chainOutcomes(b, scoring).map((o) => [o.continuous_id, o]));
  return chainOutcomes(a, scoring).flatMap((oa) => {
    const ob = outcomesB.get(oa.continuous_id);
    if (!ob || !inA(oa.continuous_id) || !inB(oa.continuous_id)) return [];
    const ra = countResolved(oa);
    const rb = countResolved(ob);
    return [
      {
        continuousId: oa.continuous_id,
        length: oa.length,
        a: ra,
        b: rb,
        winner: ra > rb ? "a" : ra < rb ? "b" : "tie",
        firstUnresolved: { a: firstUnresolved(oa.resolved), b: firstUnresolved(ob.resolved) },
        flipped: { a: only(oa.resolved, ob.resolved), b: only(ob.resolved, oa.resolved) },
      },
    ];
  });
}

/** The positions that flipped, in words: `2, 3 by A; 1 by B`, or "" when none did. */
export function flippedText(f: ChainWinLoss["flipped"]): string {
  return [f.a.length ? `${f.a.join(", ")} by A` : "", f.b.length ? `${f.b.join(", ")} by B` : ""].filter(Boolean).join("; ");
}

/** A p-value as printed: three decimals, or `< 0.001`. */
export const formatP = (p: number): string => (p < 0.001 ? "< 0.001" : p.toFixed(3));

/** A difference in percentage points with its sign: `+12.5`, `−3.0`, `0.0`. */
export function formatPoints(value: number): string {
  const text = formatPercent(value);
  return value > 0 && text !== "0.0" ? `+${text}` : text;
}

/** What the cost-vs-score scatter needs of a leaderboard row. */
export type ScatterSource = {
  submissionId: string;
  system: { name: string };
  mode: Mode;
  costPerChain: number | null;
  perBug: { value: number };
};

export type ScatterPoint = {
  submissionId: string;
  label: string;
  system: string;
  mode: Mode;
  cost: number;
  perBug: number;
  picked: "a" | "b" | null;
  /** on the cost–score Pareto frontier of the plotted points: no other is as cheap and as good, and better at one */
  frontier: boolean;
};

/**
 * The points no other point dominates (as cheap or cheaper and as good or
 * better, strictly so in one): the best per-bug % each cost buys. Two points
 * with the same cost and score are both on it.
 */
export function paretoFrontier<P extends { submissionId: string; cost: number; perBug: number }>(points: readonly P[]): Set<string> {
  const byCost = [...points].sort((a, b) => a.cost - b.cost || b.perBug - a.perBug);
  const on = new Set<string>();
  let best: P | null = null;
  for (const p of byCost) {
    if (best === null || p.perBug > best.perBug || (p.perBug === best.perBug && p.cost === best.cost)) {
      on.add(p.submissionId);
      if (best === null || p.perBug > best.perBug) best = p;
    }
  }
  return on;
}

/** Rows with a cost become points (the two picked ones and the Pareto frontier marked); rows without one are named so the page can say so. */
export function scatterPoints(rows: readonly ScatterSource[], picked: { a?: string; b?: string }): { points: ScatterPoint[]; withoutCost: string[] } {
  const points: ScatterPoint[] = [];
  const withoutCost: string[] = [];
  for (const r of rows) {
    const label = `${r.system.name} (${r.mode})`;
    if (r.costPerChain === null) {
      withoutCost.push(label);
      continue;
    }
    const mark = r.submissionId === picked.a ? "a" : r.submissionId === picked.b ? "b" : null;
    points.push({ submissionId: r.submissionId, label, system: r.system.name, mode: r.mode, cost: r.costPerChain, perBug: r.perBug.value, picked: mark, frontier: false });
  }
  const frontier = paretoFrontier(points);
  for (const p of points) p.frontier = frontier.has(p.submissionId);
  return { points, withoutCost };
}

/** Pixels between the middles of two markers of a pile, and the room a tag needs beside its point. */
export const MARK_PX = 11;
const TAG_ROOM_PX = { x: 90, y: 16 };

/** Where a point is drawn: moved `dodge` pixels sideways out of a pile, and its tag (null where it would run into another). */
export type PointMark = { dodge: number; tag: string | null; tagLeft: boolean };

/**
 * Piles and tags, in the plot's pixels (`scale`: pixels per dollar and per
 * percentage point). Points whose markers would overlap form a pile, drawn as
 * a row in cost order around the pile's middle; piles whose rows would touch
 * merge, until none does, so every marker can be hovered or tapped. Each pile
 * gets one tag (its best point's system, "+N" for the rest) unless a tag
 * already sits too close, best scores first; a tag in the right half of the
 * plot sits left of its point.
 */
export function placeMarks(points: readonly ScatterPoint[], scale: { x: number; y: number }, plotWidth: number): Map<string, PointMark> {
  const px = (p: ScatterPoint) => ({ x: p.cost * scale.x, y: p.perBug * scale.y });
  const row = (pile: ScatterPoint[]) => {
    const sorted = pile.toSorted((a, b) => a.cost - b.cost || b.perBug - a.perBug || a.submissionId.localeCompare(b.submissionId));
    const middle = sorted.reduce((n, p) => n + px(p).x, 0) / sorted.length;
    return sorted.map((p, i) => ({ p, x: middle + (i - (sorted.length - 1) / 2) * MARK_PX, y: px(p).y }));
  };
  const touch = (a: ScatterPoint[], b: ScatterPoint[]) => row(a).some((m) => row(b).some((o) => Math.abs(m.x - o.x) < MARK_PX && Math.abs(m.y - o.y) < MARK_PX));
  let piles = points.map((p) => [p]);
  for (let merged = true; merged; ) {
    merged = false;
    outer: for (const [i, a] of piles.entries()) {
      for (const b of piles.slice(i + 1)) {
        if (touch(a, b)) {
          piles = [...piles.filter((q) => q !== a && q !== b), [...a, ...b]];
          merged = true;
          break outer;
        }
      }
    }
  }
  const byScore = (a: ScatterPoint, b: ScatterPoint) => b.perBug - a.perBug || a.cost - b.cost || a.submissionId.localeCompare(b.submissionId);
  const best = (pile: ScatterPoint[]) => pile.toSorted(byScore)[0]!;
  const marks = new Map<string, PointMark>();
  const tags: { x: number; y: number }[] = [];
  for (const pile of piles.toSorted((a, b) => byScore(best(a), best(b)))) {
    for (const m of row(pile)) marks.set(m.p.submissionId, { dodge: m.x - px(m.p).x, tag: null, tagLeft: false });
    const head = best(pile);
    const at = { x: row(pile).find((m) => m.p === head)!.x, y: px(head).y };
    if (tags.some((t) => Math.abs(t.x - at.x) < TAG_ROOM_PX.x && Math.abs(t.y - at.y) < TAG_ROOM_PX.y)) continue;
    marks.set(head.submissionId, { ...marks.get(head.submissionId)!, tag: pile.length === 1 ? head.system : `${head.system} +${pile.length - 1}`, tagLeft: at.x > plotWidth / 2 });
    tags.push(at);
  }
  return marks;
}
