/**
 * What a bug's failure page shows of its trajectory (SPEC §7 "Trajectories"):
 * the timeline and its shortcut hits to whoever may read trajectories
 * (canReadTrajectories), only the kinds of the hits to everyone else who may
 * read the submission; and, in Seq, which earlier bugs' patches were carried
 * into the bug's start state.
 */
import { canReadTrajectories, type Viewer } from "@/lib/authz";
import { db } from "@/db/client";
import { shortcutHitsSchema, shortcutKinds, type ShortcutHit, type ShortcutKind } from "@/core/trajectory/shortcuts";
import { clipItems, codePointSlice, pageOfCall, pageSpan, parseTimeline, timelinePage, timelinePages, type Timeline } from "@/core/trajectory/timeline";
import { parseColumn, type Visibility } from "@/core/schemas/columns";
import type { Mode } from "@/core/schemas/prediction";
import { trajectoryOutcomeSchema, type TrajectoryOutcome } from "@/core/schemas/trajectory";
import { TIMELINE_PAGE_ITEMS, timelinePagesSchema } from "@/lib/submissions/trajectories";
import { failurePageUrl, rawTrajectoryUrl } from "@/lib/submissions/urls";
import { STORED_LOG, STORED_PATCH, storedLog, storedPatch } from "@/lib/submissions/staged-texts";

export type TrajectoryView =
  /** no trajectory was uploaded for this bug */
  | { state: "none" }
  /** the team keeps its trajectories private (or the submission is not public yet): the flags only */
  | { state: "hidden"; kinds: ShortcutKind[] }
  | {
      state: "visible";
      /** one page of the timeline: TIMELINE_PAGE_ITEMS items, each text shown up to MAX_SHOWN_CHARS */
      timeline: Timeline;
      /** this page (1-based) of `pages`; `cut`: the page's slice of the log ended before its items did */
      page: number;
      pages: number;
      cut: boolean;
      /** the whole log's items and calls */
      items: number;
      calls: number;
      outcome: TrajectoryOutcome | null;
      /** the hits stored (at most MAX_STORED_HITS), each with the page its call is on; and how many the scan found */
      shortcuts: (ShortcutHit & { page: number })[];
      shortcutHits: number;
      steps: number;
      /** the log as uploaded */
      rawUrl: string;
    };

/** What one page reads of the log at most, and shows of one text (a command, an output, the agent's text); the raw log has the rest. */
export const MAX_PAGE_CHARS = 128 * 1024;
export const MAX_SHOWN_CHARS = 16 * 1024;

const EMPTY_TIMELINE: Timeline = { steps: [], calls: [], declaredSteps: 0 };


/** `length` code points of a bug's stored log from code point `from`, cut by the database: the rest of the log never leaves it. */
async function logSlice(submissionId: string, continuousId: string, order: number, from: number, length: number): Promise<string> {
  const [row] = await db.$queryRaw<{ slice: string | null }[]>`SELECT substr(COALESCE(st."text", t."log"), CAST(${from + 1} AS INTEGER), CAST(${length} AS INTEGER)) AS slice
    FROM "Trajectory" t LEFT JOIN "StagedText" st ON st."id" = t."logTextId"
    WHERE t."submissionId" = ${submissionId} AND t."continuousId" = ${continuousId} AND t."order" = CAST(${order} AS INTEGER)`;
  return row?.slice ?? "";
}

export async function bugTrajectory(
  viewer: Viewer | null,
  submission: { id: string; teamId: string; visibility: Visibility },
  continuousId: string,
  order: number,
  /** the timeline's page (`?page=`); out of range is the nearest */
  page = 1,
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
  // the log only once the viewer may read it, and only the page's slice of it: a log may be megabytes
  const where = { submissionId_continuousId_order: { submissionId: submission.id, continuousId, order } };
  const full = await db.trajectory.findUniqueOrThrow({ where, select: { outcome: true, steps: true, calls: true, items: true, pages: true, shortcutHits: true } });
  let starts = parseColumn(timelinePagesSchema, full.pages, "Trajectory.pages");
  let read = (from: number, length: number) => logSlice(submission.id, continuousId, order, from, length);
  if (starts.length === 0) {
    // a log stored before pages were: read whole once per view
    const log = storedLog(await db.trajectory.findUniqueOrThrow({ where, select: STORED_LOG }));
    starts = log === "" ? [] : timelinePages(log, parseTimeline(log), TIMELINE_PAGE_ITEMS);
    read = async (from, length) => codePointSlice(log, from, length);
  }
  const shown = Math.min(Math.max(1, page), Math.max(1, starts.length));
  const span = pageSpan(starts, shown, MAX_PAGE_CHARS);
  const { timeline, cut } = span ? timelinePage(await read(span.from, span.length), span.start, MAX_PAGE_CHARS) : { timeline: EMPTY_TIMELINE, cut: false };
  return {
    state: "visible",
    timeline: clipItems(timeline, MAX_SHOWN_CHARS),
    page: shown,
    pages: Math.max(1, starts.length),
    cut,
    items: full.items,
    calls: full.calls,
    rawUrl: rawTrajectoryUrl(submission.id, continuousId, order),
    outcome: full.outcome === null ? null : parseColumn(trajectoryOutcomeSchema, full.outcome, "Trajectory.outcome"),
    shortcuts: shortcuts.map((h) => ({ ...h, page: pageOfCall(starts, h.call) })),
    shortcutHits: Math.max(full.shortcutHits, shortcuts.length),
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
    db.prediction.findMany({ where: { submissionId, continuousId, order: { in: orders } }, select: { order: true, ...STORED_PATCH } }),
  ]);
  const result = new Map(results.map((r) => [r.order, r]));
  const patch = new Map(predictions.map((p) => [p.order, storedPatch(p)]));
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
