/**
 * What a bug's failure page shows of its trajectory (SPEC §7 "Trajectories"):
 * the timeline and its shortcut hits to whoever may read trajectories
 * (canReadTrajectories), only the kinds of the hits to everyone else who may
 * read the submission; and, in Seq, which earlier bugs' patches were carried
 * into the bug's start state.
 */
import { canReadTrajectories, type Viewer } from "@/lib/authz";
import { db } from "@/lib/db";
import { shortcutHitsSchema, shortcutKinds, type ShortcutHit, type ShortcutKind } from "@/evaluator/trajectory/shortcuts";
import { firstItems, itemCount, parseTimeline, type Timeline } from "@/evaluator/trajectory/timeline";
import { parseColumn, type Visibility } from "@/lib/schemas/columns";
import type { Mode } from "@/lib/schemas/prediction";
import { trajectoryOutcomeSchema, type TrajectoryOutcome } from "@/lib/schemas/trajectory";
import { failurePageUrl, rawTrajectoryUrl } from "@/lib/submissions/urls";

export type TrajectoryView =
  /** no trajectory was uploaded for this bug */
  | { state: "none" }
  /** the team keeps its trajectories private (or the submission is not public yet): the flags only */
  | { state: "hidden"; kinds: ShortcutKind[] }
  | {
      state: "visible";
      /** the first MAX_TIMELINE_ITEMS items */
      timeline: Timeline;
      /** the items shown, and the whole log's; and the calls in it */
      shown: number;
      items: number;
      calls: number;
      outcome: TrajectoryOutcome | null;
      shortcuts: ShortcutHit[];
      steps: number;
      /** the log as uploaded */
      rawUrl: string;
    };

/** What a page shows of one log: a real agent's bug is far shorter; a longer (or forged) log is read in full from rawUrl. */
export const MAX_TIMELINE_ITEMS = 500;

export async function bugTrajectory(
  viewer: Viewer | null,
  submission: { id: string; teamId: string; visibility: Visibility },
  continuousId: string,
  order: number,
): Promise<TrajectoryView> {
  const row = await db.trajectory.findUnique({
    where: { submissionId_continuousId_order: { submissionId: submission.id, continuousId, order } },
    select: { shortcuts: true, submission: { select: { trajectoriesPublic: true } } },
  });
  if (!row) return { state: "none" };
  const shortcuts = parseColumn(shortcutHitsSchema, row.shortcuts, "Trajectory.shortcuts");
  if (!canReadTrajectories(viewer, { ...submission, trajectoriesPublic: row.submission.trajectoriesPublic })) {
    return { state: "hidden", kinds: shortcutKinds(shortcuts) };
  }
  // the log only once the viewer may read it: it may be megabytes
  const full = await db.trajectory.findUniqueOrThrow({
    where: { submissionId_continuousId_order: { submissionId: submission.id, continuousId, order } },
    select: { log: true, outcome: true, steps: true, calls: true },
  });
  const timeline = parseTimeline(full.log);
  const shown = firstItems(timeline, MAX_TIMELINE_ITEMS);
  return {
    state: "visible",
    timeline: shown,
    shown: itemCount(shown),
    items: itemCount(timeline),
    calls: full.calls,
    rawUrl: rawTrajectoryUrl(submission.id, continuousId, order),
    outcome: full.outcome === null ? null : parseColumn(trajectoryOutcomeSchema, full.outcome, "Trajectory.outcome"),
    shortcuts,
    steps: full.steps,
  };
}

/** An earlier bug of the chain and what its patch left in the later start states (Seq). */
export type CarriedPatch = {
  order: number;
  swebenchInstanceId: string;
  url: string;
  /** applied: its patch is in the start state; not_applied: nothing of it is; empty: it had none; not_graded: no result yet */
  carried: "applied" | "not_applied" | "empty" | "not_graded";
  applyMethod: string | null;
};

/** Seq and Seq+Mem: bugs 1..order-1 and whether each one's patch was carried; null in Oracle (every start state is gold). */
export async function carriedPatches(submissionId: string, mode: Mode, continuousId: string, earlier: { order: number; swebenchInstanceId: string }[]): Promise<CarriedPatch[] | null> {
  if (mode === "oracle") return null;
  const orders = earlier.map((b) => b.order);
  const [results, predictions] = await Promise.all([
    db.bugResult.findMany({ where: { submissionId, continuousId, order: { in: orders } }, select: { order: true, patchApplied: true, applyMethod: true } }),
    db.prediction.findMany({ where: { submissionId, continuousId, order: { in: orders } }, select: { order: true, modelPatch: true } }),
  ]);
  const result = new Map(results.map((r) => [r.order, r]));
  const patch = new Map(predictions.map((p) => [p.order, p.modelPatch]));
  return earlier.map((b) => {
    const r = result.get(b.order);
    const empty = (patch.get(b.order) ?? "").trim() === "";
    return {
      order: b.order,
      swebenchInstanceId: b.swebenchInstanceId,
      url: `${failurePageUrl(submissionId, continuousId, b.order)}#patches-heading`,
      carried: empty ? "empty" : !r ? "not_graded" : r.patchApplied ? "applied" : "not_applied",
      applyMethod: r?.applyMethod ?? null,
    };
  });
}
