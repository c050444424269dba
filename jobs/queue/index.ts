export { claimJob, type ClaimOptions } from "./claim";
export { heartbeatJob, type HeartbeatOptions } from "./heartbeat";
export { chainOfJob, runningLeases, stillRunning, type HeldLease } from "./leases";
export { recordBugProgress } from "./progress";
export { completeJob, type CompleteOptions, type CompleteResult } from "./complete";
export { failJob, releaseJob, type FailOptions, type ReleaseOptions } from "./fail";
export { settleSubmission } from "./settle";
export { backoffMs, failureOutcome, settledSubmissionStatus, type FailureOutcome } from "./policy";
export { reapOrphanSandboxes, jobSandboxLabels, JOB_LABEL, LEASE_LABEL, SUBMISSION_LABEL } from "./reap";
export { startWorkerPool, type WorkerPool, type WorkerPoolOptions } from "./worker";
export {
  DEFAULT_QUEUE_POLICY,
  claimedJobSchema,
  evaluationJobPayloadSchema,
  type BackoffPolicy,
  type ClaimedJob,
  type EvaluationJobPayload,
  type QueueLoaders,
  type QueuePolicy,
} from "./payload";
export { keepScoreRevision, retireScores } from "./scores";
export { cancelEvaluation, enqueueChains, requeueEvaluation, type CancelOutcome } from "./lifecycle";
export { ChainRun, storeAggregates, type ChainRunContext } from "./run-job";
