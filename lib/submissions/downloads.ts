/**
 * A submission's files as a viewer may download them: results.jsonl (the
 * evaluator's own line writer), one bug's test log, and the predictions (the
 * team's patches: the team and reviewers only, even once public). Held-out
 * chains (SPEC §8) are in none of them but for reviewers.
 */
import { resultLine } from "@/evaluator/replay/output";
import { canReadTrajectories, type Viewer } from "@/lib/authz";
import { db } from "@/db/client";
import { NotFoundError } from "@/core/errors";
import { parseColumn } from "@/core/schemas/columns";
import { predictionMetaSchema } from "@/core/schemas/prediction";
import { runResultsForSubmission } from "@/lib/submissions/run-results";
import { runWithout } from "@/core/dataset/held-out";
import { readableSubmission } from "@/lib/submissions/access";
import { STORED_LOG, STORED_PATCH, storedLog, storedPatch } from "@/lib/submissions/staged-texts";

/** The submission's graded bugs as SPEC §3 results.jsonl lines (the evaluator's own serializer), chain by chain. */
export async function resultsJsonl(viewer: Viewer | null, id: string): Promise<string> {
  const { hidden } = await readableSubmission(viewer, id);
  const run = await runResultsForSubmission(id);
  return (run ? runWithout(run, hidden).bugs : []).map(resultLine).join("");
}

const fileSafe = (s: string) => s.replace(/[^A-Za-z0-9._-]/g, "_");

/** One graded bug's full test log, with the name to download it under. */
export async function bugLog(viewer: Viewer | null, id: string, continuousId: string, order: number): Promise<{ filename: string; text: string }> {
  const { hidden } = await readableSubmission(viewer, id);
  const row = Number.isInteger(order) && !hidden.has(continuousId)
    ? await db.bugResult.findUnique({ where: { submissionId_continuousId_order: { submissionId: id, continuousId, order } }, select: { log: true } })
    : null;
  if (!row) throw new NotFoundError(`log of bug ${order} of ${continuousId}`);
  return { filename: `${fileSafe(id)}-${fileSafe(continuousId)}-${order}.log`, text: row.log };
}

/** One bug's trajectory log as uploaded, for whoever may read the submission's trajectories (canReadTrajectories). */
export async function bugTrajectoryLog(viewer: Viewer | null, id: string, continuousId: string, order: number): Promise<{ filename: string; text: string }> {
  const access = await readableSubmission(viewer, id);
  const row = Number.isInteger(order) && !access.hidden.has(continuousId)
    ? await db.trajectory.findUnique({ where: { submissionId_continuousId_order: { submissionId: id, continuousId, order } }, select: { ...STORED_LOG, submission: { select: { trajectoriesPublic: true } } } })
    : null;
  if (!row || !canReadTrajectories(viewer, { teamId: access.teamId, visibility: access.visibility, trajectoriesPublic: row.submission.trajectoriesPublic })) {
    throw new NotFoundError(`trajectory of bug ${order} of ${continuousId}`);
  }
  return { filename: `${fileSafe(id)}-${fileSafe(continuousId)}-${order}.trajectory.log`, text: storedLog(row) };
}

/** The team's predictions as a predictions JSONL file (SPEC §2): the team and reviewers only. */
export async function predictionsJsonl(viewer: Viewer | null, id: string): Promise<string> {
  const access = await readableSubmission(viewer, id);
  if (!access.role.team && !access.role.reviewer) throw new NotFoundError("predictions");
  return storedPredictionsJsonl(id, access.hidden);
}

/** The submission's predictions as the JSONL download gives them (but the `hidden` chains'), for callers that checked who may have them (or only hash them). */
export async function storedPredictionsJsonl(id: string, hidden: ReadonlySet<string>): Promise<string> {
  const sub = await db.submission.findUniqueOrThrow({
    where: { id },
    select: {
      system: { select: { name: true } },
      jobs: { select: { continuousId: true }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] },
      predictions: { orderBy: [{ continuousId: "asc" }, { order: "asc" }], select: { continuousId: true, swebenchInstanceId: true, order: true, meta: true, ...STORED_PATCH } },
    },
  });
  const chainOrder = new Map(sub.jobs.map((j, i) => [j.continuousId, i]));
  const sorted = sub.predictions.filter((p) => !hidden.has(p.continuousId)).sort((a, b) => (chainOrder.get(a.continuousId) ?? 0) - (chainOrder.get(b.continuousId) ?? 0) || a.order - b.order);
  return sorted
    .map((p) =>
      JSON.stringify({
        continuous_id: p.continuousId,
        swebench_instance_id: p.swebenchInstanceId,
        order: p.order,
        model_name_or_path: sub.system.name,
        model_patch: storedPatch(p),
        ...parseColumn(predictionMetaSchema, p.meta, "Prediction.meta"),
      }) + "\n",
    )
    .join("");
}
