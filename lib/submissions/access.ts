/**
 * Who may read a submission (lib/authz.ts): one question that the page, the
 * API routes, the downloads and the failure pages all ask. What a viewer may
 * not read is NotFoundError, whether it exists or not. With the answer come
 * the chains of its version the viewer may not see (held out, SPEC §8), so
 * every reader of a submission leaves them out.
 */
import { canActForTeam, canReadSubmission, canReview, type Viewer } from "@/lib/authz";
import { db } from "@/db/client";
import { NotFoundError } from "@/core/errors";
import { hiddenChains } from "@/core/dataset/held-out";
import { versionRulesSchema } from "@/core/schemas/manifest";
import {
  parseColumn,
  submissionStatusSchema,
  visibilitySchema,
  type SubmissionStatus,
  type Visibility,
} from "@/core/schemas/columns";
import { submissionTies } from "@/lib/submissions/ties";
import { NO_TIES, type SubmissionRole } from "@/lib/submissions/visibility";

export type ReadableSubmission = {
  id: string;
  teamId: string;
  visibility: Visibility;
  status: SubmissionStatus;
  role: SubmissionRole;
  /** the held-out chains of its version, unless the viewer is a reviewer: nothing of them is shown (SPEC §8) */
  hidden: ReadonlySet<string>;
};

/** What the viewer is to the submission; its ties are looked up for reviewers only (no one else decides). */
async function roleFor(viewer: Viewer | null, s: { id: string; teamId: string; submittedById: string | null }): Promise<SubmissionRole> {
  const reviewer = canReview(viewer);
  return {
    team: canActForTeam(viewer, s.teamId),
    reviewer,
    ties: viewer && reviewer ? await submissionTies(viewer.id, s) : NO_TIES,
  };
}

/** The submission's access facts, or NotFoundError when it does not exist or the viewer may not read it. */
export async function readableSubmission(viewer: Viewer | null, id: string): Promise<ReadableSubmission> {
  const row = await db.submission.findUnique({ where: { id }, select: { id: true, visibility: true, status: true, submittedById: true, system: { select: { teamId: true } }, datasetVersion: { select: { rules: true } } } });
  if (!row) throw new NotFoundError("submission");
  const visibility = visibilitySchema.parse(row.visibility);
  const teamId = row.system.teamId;
  if (!canReadSubmission(viewer, { teamId, visibility })) throw new NotFoundError("submission");
  const role = await roleFor(viewer, { id, teamId, submittedById: row.submittedById });
  const hidden = hiddenChains(parseColumn(versionRulesSchema, row.datasetVersion.rules, "DatasetVersion.rules").held_out, role.reviewer);
  return { id, teamId, visibility, status: submissionStatusSchema.parse(row.status), role, hidden };
}
