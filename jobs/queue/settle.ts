/**
 * Keeps Submission.status in step with its jobs. Called inside the transaction
 * that changed a job, so a submission never shows completed while a chain's
 * results are missing, or running after its last chain finished. An
 * evaluation that ends completed or failed leaves the team a notification in
 * the same transaction.
 */
import { recordNotification, settledEvent } from "./notify";
import { jobStatusSchema, submissionStatusSchema, type SubmissionStatus } from "@/core/schemas/columns";
import type { Tx } from "@/db/tx";
import { settledSubmissionStatus } from "./policy";

export async function settleSubmission(tx: Tx, submissionId: string): Promise<SubmissionStatus> {
  const submission = await tx.submission.findUniqueOrThrow({ where: { id: submissionId }, select: { status: true } });
  const rows = await tx.evaluationJob.findMany({ where: { submissionId }, select: { status: true, attempts: true } });
  const current = submissionStatusSchema.parse(submission.status);
  const next = settledSubmissionStatus(
    current,
    rows.map((r) => ({ status: jobStatusSchema.parse(r.status), attempts: r.attempts })),
  );
  if (next !== current) {
    const ended = next === "completed" || next === "failed" || next === "cancelled";
    await tx.submission.update({ where: { id: submissionId }, data: { status: next, finishedAt: ended ? new Date() : null } });
    const event = settledEvent(next);
    if (event) await recordNotification(tx, { submissionId, event });
  }
  return next;
}
