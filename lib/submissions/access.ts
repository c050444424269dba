/**
 * Who may read a submission (lib/authz.ts): one question that the page, the
 * API routes, the downloads and the failure pages all ask. What a viewer may
 * not read is NotFoundError, whether it exists or not.
 */
import { canActForTeam, canReadSubmission, canReview, type Viewer } from "@/lib/authz";
import { db } from "@/lib/db";
import { NotFoundError } from "@/lib/errors";
import {
  submissionStatusSchema,
  visibilitySchema,
  type SubmissionStatus,
  type Visibility,
} from "@/lib/schemas/columns";
import type { SubmissionRole } from "@/lib/submissions/visibility";


export type ReadableSubmission = { id: string; teamId: string; visibility: Visibility; status: SubmissionStatus; role: SubmissionRole };

export const roleFor = (viewer: Viewer | null, teamId: string): SubmissionRole => ({
  team: canActForTeam(viewer, teamId),
  reviewer: canReview(viewer),
});

/** The submission's access facts, or NotFoundError when it does not exist or the viewer may not read it. */
export async function readableSubmission(viewer: Viewer | null, id: string): Promise<ReadableSubmission> {
  const row = await db.submission.findUnique({ where: { id }, select: { id: true, visibility: true, status: true, system: { select: { teamId: true } } } });
  if (!row) throw new NotFoundError("submission");
  const visibility = visibilitySchema.parse(row.visibility);
  const teamId = row.system.teamId;
  if (!canReadSubmission(viewer, { teamId, visibility })) throw new NotFoundError("submission");
  return { id, teamId, visibility, status: submissionStatusSchema.parse(row.status), role: roleFor(viewer, teamId) };
}
