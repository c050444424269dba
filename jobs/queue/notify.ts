/**
 * Writing a notification, inside the transaction that made the change (the
 * evaluation settling, jobs/queue/settle.ts; a reviewer's decision,
 * lib/submissions/review.ts), so it exists exactly when the change does. Only
 * the row: the delivery loop (lib/notifications/deliveries.ts) works out webhooks and e-mail
 * from it afterwards, outside the transaction.
 *
 * Telling the team must never undo the change: an error here is logged and
 * swallowed. (On PostgreSQL a statement that failed would still end the
 * transaction; both statements here are a read by primary key and an insert
 * of rows that reference it, which fail only when the database does.)
 */
import type { Tx } from "@/db/tx";
import { coerceError } from "@/core/errors";
import type { NotificationEvent, SubmissionStatus } from "@/core/schemas/columns";

export type NotificationInput = { submissionId: string; event: NotificationEvent; reason?: string | null; now?: Date };

export async function recordNotification(tx: Tx, n: NotificationInput): Promise<void> {
  try {
    const submission = await tx.submission.findUnique({ where: { id: n.submissionId }, select: { system: { select: { teamId: true } } } });
    if (!submission) return;
    await tx.notification.create({
      data: { teamId: submission.system.teamId, submissionId: n.submissionId, event: n.event, reason: n.reason ?? null, createdAt: n.now ?? new Date() },
    });
  } catch (e) {
    process.stderr.write(`${new Date().toISOString()} [notifications] not recorded (${n.event} of ${n.submissionId}): ${coerceError(e).message}\n`);
  }
}

/** The notification an evaluation's end makes, if any: completed and failed tell the team, a cancel (the team's own doing) does not. */
export function settledEvent(status: SubmissionStatus): NotificationEvent | null {
  return status === "completed" ? "evaluation_completed" : status === "failed" ? "evaluation_failed" : null;
}
