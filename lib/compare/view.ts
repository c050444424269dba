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
};

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
      },
    ];
  });
}

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
  /** the point's place among the points drawn on top of each other (0 when alone): its marker is moved sideways by this many marker widths, so each can be hovered or tapped */
  dodge: number;
  /** the text drawn beside the point, where there is room for one ("demo-gold", "demo-gold +4" for a pile); null where it would run into another */
  tag: string | null;
  /** the tag sits left of the point (in the right half of the plot, where a tag on the right would run off it) */
  tagLeft: boolean;
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
    points.push({ submissionId: r.submissionId, label, system: r.system.name, mode: r.mode, cost: r.costPerChain, perBug: r.perBug.value, picked: mark, frontier: false, dodge: 0, tag: null, tagLeft: false });
  }
  const frontier = paretoFrontier(points);
  for (const p of points) p.frontier = frontier.has(p.submissionId);
  placeMarks(points);
  return { points, withoutCost };
}

/** How close two points are, as shares of the plot (x: of the largest cost; y: of 100 %), to be drawn as one pile, and to leave no room for two tags. */
const PILE = { x: 0.04, y: 0.03 };
const TAG_ROOM = { x: 0.14, y: 0.07 };

/**
 * Piles and tags. Points within PILE of one another, directly or through
 * others, form a pile, drawn as a row in cost order (`dodge`: the marker's
 * place from the row's middle) so each can be hovered or tapped. Each pile
 * gets one tag unless a tag already sits too close (the best scores are tagged
 * first). Distances are shares of the plot, so the rule holds at every width.
 */
export function placeMarks(points: ScatterPoint[]): void {
  const xSpan = Math.max(...points.map((p) => p.cost), 0) || 1;
  const near = (a: ScatterPoint, b: ScatterPoint, room: { x: number; y: number }) => Math.abs(a.cost - b.cost) / xSpan < room.x && Math.abs(a.perBug - b.perBug) / 100 < room.y;
  let piles: ScatterPoint[][] = [];
  for (const p of points) {
    const joined = piles.filter((q) => q.some((o) => near(o, p, PILE)));
    piles = [...piles.filter((q) => !joined.includes(q)), [...joined.flat(), p]];
  }
  const byScore = (a: ScatterPoint, b: ScatterPoint) => b.perBug - a.perBug || a.cost - b.cost;
  const best = (pile: ScatterPoint[]) => pile.toSorted(byScore)[0]!;
  const tagged: ScatterPoint[] = [];
  for (const pile of piles.toSorted((a, b) => byScore(best(a), best(b)))) {
    pile.sort((a, b) => a.cost - b.cost || b.perBug - a.perBug || a.submissionId.localeCompare(b.submissionId));
    pile.forEach((p, i) => (p.dodge = i - (pile.length - 1) / 2));
    const head = best(pile);
    if (tagged.some((t) => near(t, head, TAG_ROOM))) continue;
    head.tag = pile.length === 1 ? head.system : `${head.system} +${pile.length - 1}`;
    head.tagLeft = head.cost / xSpan > 0.5;
    tagged.push(head);
  }
}
