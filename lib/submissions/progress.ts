/**
 * How far a submission's evaluation has got: what the submission page polls
 * and `chainswe worker` users watch. Chains count jobs; bugs count BugResults,
 * which land a whole chain at a time (jobs/queue/complete.ts). Each job
 * also lists its bugs: final from BugResult rows once the chain is handed in,
 * provisional from EvaluationJob.progress while it runs (jobs/queue/progress.ts).
 */
import { db } from "@/db/client";
import {
  jobProgressSchema,
  jobStatusSchema,
  parseColumn,
  submissionStatusSchema,
  type JobProgress,
  type JobStatus,
  type SubmissionStatus,
} from "@/core/schemas/columns";
import { modeSchema, type Mode } from "@/core/schemas/prediction";

export type BugState = "resolved" | "unresolved" | "pending";

export type BugProgressEntry = {
  order: number;
  swebenchInstanceId: string;
  state: BugState;
  /** null unless unresolved */
  fingerprint: string | null;
  /** from the running attempt, not yet handed in: may still be dropped (lease lost) */
  provisional: boolean;
};

export type ChainJobProgress = {
  continuousId: string;
  status: JobStatus;
  attempts: number;
  /** why the last attempt failed (kept while a retry waits) */
  lastError: string | null;
  /** not claimed again before this time */
  runAfter: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  bugs: number;
  bugsGraded: number;
  bugsResolved: number;
  /** every bug of the chain, in order */
  bugStates: BugProgressEntry[];
};

export type SubmissionProgress = {
  id: string;
  status: SubmissionStatus;
  mode: Mode;
  datasetVersion: string;
  chains: { total: number; done: number; failed: number; cancelled: number };
  bugs: { total: number; graded: number; resolved: number };
  jobs: ChainJobProgress[];
};

type ChainBug = { order: number; swebenchInstanceId: string };
type Verdict = { resolved: boolean; fingerprint: string | null };

/** The bugs of each chain of the submission's dataset version. */
async function chainBugs(datasetVersionId: string, chainIds: string[]): Promise<Map<string, ChainBug[]>> {
  const chains = await db.chain.findMany({
    where: { datasetVersionId, continuousId: { in: chainIds } },
    select: { continuousId: true, bugs: { select: { order: true, swebenchInstanceId: true }, orderBy: { order: "asc" } } },
  });
  return new Map(chains.map((c) => [c.continuousId, c.bugs]));
}

/** Handed-in verdicts per chain, by order. */
async function gradedVerdicts(submissionId: string): Promise<Map<string, Map<number, Verdict>>> {
  const rows = await db.bugResult.findMany({ where: { submissionId }, select: { continuousId: true, order: true, resolved: true, fingerprint: true } });
  const byChain = new Map<string, Map<number, Verdict>>();
  for (const r of rows) {
    const chain = byChain.get(r.continuousId) ?? new Map<number, Verdict>();
    chain.set(r.order, { resolved: r.resolved, fingerprint: r.fingerprint });
    byChain.set(r.continuousId, chain);
  }
  return byChain;
}

/**
 * Each bug's state: its result once handed in; while the chain runs, what the
 * running attempt has graded so far (provisional); else pending.
 */
export function bugStates(bugs: ChainBug[], graded: Map<number, Verdict> | undefined, running: JobProgress | null): BugProgressEntry[] {
  const live = new Map((running ?? []).map((p) => [p.order, p]));
  return bugs.map(({ order, swebenchInstanceId }) => {
    const final = graded?.get(order);
    const verdict = final ?? (graded?.size ? undefined : live.get(order));
    if (!verdict) return { order, swebenchInstanceId, state: "pending", fingerprint: null, provisional: false };
    return {
      order,
      swebenchInstanceId,
      state: verdict.resolved ? "resolved" : "unresolved",
      fingerprint: verdict.resolved ? null : verdict.fingerprint,
      provisional: !final,
    };
  });
}

/** The submission's progress, or null when there is no such submission. */
export async function getSubmissionProgress(id: string): Promise<SubmissionProgress | null> {
  const submission = await db.submission.findUnique({
    where: { id },
    select: {
      status: true,
      mode: true,
      datasetVersionId: true,
      datasetVersion: { select: { version: true } },
      jobs: { orderBy: [{ createdAt: "asc" }, { id: "asc" }] },
    },
  });
  if (!submission) return null;
  const [bugsByChain, graded] = await Promise.all([
    chainBugs(submission.datasetVersionId, submission.jobs.map((j) => j.continuousId)),
    gradedVerdicts(id),
  ]);
  const jobs: ChainJobProgress[] = submission.jobs.map((j) => {
    const status = jobStatusSchema.parse(j.status);
    const verdicts = graded.get(j.continuousId);
    // only a running attempt's progress means anything; a failed or cancelled one's is stale
    const running = status === "running" ? parseColumn(jobProgressSchema, j.progress, "EvaluationJob.progress") : null;
    const finals = [...(verdicts?.values() ?? [])];
    return {
      continuousId: j.continuousId,
      status,
      attempts: j.attempts,
      lastError: j.lastError,
      runAfter: j.runAfter,
      startedAt: j.startedAt,
      finishedAt: j.finishedAt,
      bugs: bugsByChain.get(j.continuousId)?.length ?? 0,
      bugsGraded: finals.length,
      bugsResolved: finals.filter((v) => v.resolved).length,
      bugStates: bugStates(bugsByChain.get(j.continuousId) ?? [], verdicts, running),
    };
  });
  const count = (s: JobStatus) => jobs.filter((j) => j.status === s).length;
  const sum = (f: (j: ChainJobProgress) => number) => jobs.reduce((n, j) => n + f(j), 0);
  return {
    id,
    status: submissionStatusSchema.parse(submission.status),
    mode: modeSchema.parse(submission.mode),
    datasetVersion: submission.datasetVersion.version,
    chains: { total: jobs.length, done: count("done"), failed: count("failed"), cancelled: count("cancelled") },
    bugs: { total: sum((j) => j.bugs), graded: sum((j) => j.bugsGraded), resolved: sum((j) => j.bugsResolved) },
    jobs,
  };
}
