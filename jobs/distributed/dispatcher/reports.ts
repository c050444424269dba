/**
 * Storing what the workers report, under the lease the chain was dispatched
 * with: a report from a superseded attempt changes nothing, and one seen twice
 * lands once (the queue's own lease-checked writes).
 */
import { chainOfJob, completeJob, failJob, recordBugProgress, releaseJob, storeAggregates, type QueueLoaders, type QueuePolicy } from "@/jobs/queue";
import { fromWireError, type Report } from "../protocol";

export type ReportContext = { policy: QueuePolicy; loaders: QueueLoaders; log: (line: string) => void };

const name = (jobId: string, leaseOwner: string) => `job ${jobId} (${leaseOwner})`;

export async function storeReport(r: Report, o: ReportContext): Promise<void> {
  const lease = { jobId: r.jobId, workerId: r.leaseOwner };
  switch (r.kind) {
    case "progress":
      await recordBugProgress({ ...lease, bug: r.bug });
      return;
    case "graded": {
      const done = await completeJob({ ...lease, bugs: r.bugs });
      o.log(`${name(r.jobId, r.leaseOwner)}: ${done.accepted ? `graded by ${r.workerId}, ${r.bugs.filter((b) => b.bug.resolved).length}/${r.bugs.length} resolved` : "graded again or superseded; ignored"}`);
      if (done.accepted && done.submissionStatus === "completed") await storeAggregates(done.submissionId, o.loaders, o.log);
      return;
    }
    case "failed": {
      const continuousId = (await chainOfJob(r.jobId)) ?? "?";
      const outcome = await failJob({ ...lease, error: fromWireError(r.error, continuousId), policy: o.policy });
      o.log(`${name(r.jobId, r.leaseOwner)}: failed on ${r.workerId}: ${outcome ? (outcome.status === "failed" ? `for good: ${outcome.lastError}` : `retry after ${outcome.runAfter.toISOString()}: ${outcome.lastError.split("\n")[0]}`) : "superseded; ignored"}`);
      return;
    }
    case "released":
      await releaseJob({ ...lease, reason: `${r.workerId}: ${r.reason}` });
      o.log(`${name(r.jobId, r.leaseOwner)}: released by ${r.workerId} (${r.reason})`);
  }
}
