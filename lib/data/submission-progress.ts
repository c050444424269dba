/**
 * How far a submission's evaluation has got: what the submission page polls
 * and `chainswe worker` users watch. Chains count jobs; bugs count BugResults,
 * which land a whole chain at a time (evaluator/queue/complete.ts).
 */
import { db } from "@/lib/db";
import { jobStatusSchema, submissionStatusSchema, type JobStatus, type SubmissionStatus } from "@/lib/schemas/columns";
import { modeSchema, type Mode } from "@/lib/schemas/prediction";

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

/** Bugs per chain of the submission's dataset version. */
async function chainLengths(datasetVersionId: string, chainIds: string[]): Promise<Map<string, number>> {
  const chains = await db.chain.findMany({
    where: { datasetVersionId, continuousId: { in: chainIds } },
    select: { continuousId: true, _count: { select: { bugs: true } } },
  });
  return new Map(chains.map((c) => [c.continuousId, c._count.bugs]));
}

/** Graded and resolved bugs per chain. */
async function gradedCounts(submissionId: string): Promise<Map<string, { graded: number; resolved: number }>> {
  const groups = await db.bugResult.groupBy({ by: ["continuousId", "resolved"], where: { submissionId }, _count: { _all: true } });
  const counts = new Map<string, { graded: number; resolved: number }>();
  for (const g of groups) {
    const c = counts.get(g.continuousId) ?? { graded: 0, resolved: 0 };
    c.graded += g._count._all;
    if (g.resolved) c.resolved += g._count._all;
    counts.set(g.continuousId, c);
  }
  return counts;
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
  const [lengths, graded] = await Promise.all([
    chainLengths(submission.datasetVersionId, submission.jobs.map((j) => j.continuousId)),
    gradedCounts(id),
  ]);
  const jobs: ChainJobProgress[] = submission.jobs.map((j) => ({
    continuousId: j.continuousId,
    status: jobStatusSchema.parse(j.status),
    attempts: j.attempts,
    lastError: j.lastError,
    runAfter: j.runAfter,
    startedAt: j.startedAt,
    finishedAt: j.finishedAt,
    bugs: lengths.get(j.continuousId) ?? 0,
    bugsGraded: graded.get(j.continuousId)?.graded ?? 0,
    bugsResolved: graded.get(j.continuousId)?.resolved ?? 0,
  }));
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
