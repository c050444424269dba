/**
 * The workers' queue at a glance: per kind of job, its priority (which a free
 * worker slot takes first, jobs/queue/worker.ts) and how many wait and run.
 */
import { db } from "@/db/client";
import { JOB_PRIORITIES } from "@/jobs/queue/worker";

export type QueueKindRow = { kind: "evaluation" | "validation"; label: string; priority: number; queued: number; running: number };

export async function workerQueue(): Promise<QueueKindRow[]> {
  const open = (status: string) => ({ where: { status } });
  const [eq, er, vq, vr] = await Promise.all([
    db.evaluationJob.count(open("queued")),
    db.evaluationJob.count(open("running")),
    db.validationJob.count(open("queued")),
    db.validationJob.count(open("running")),
  ]);
  return [
    { kind: "evaluation", label: "evaluation (a submission's chain)", priority: JOB_PRIORITIES.evaluation, queued: eq, running: er },
    { kind: "validation", label: "validation (a proposed chain's gold runs)", priority: JOB_PRIORITIES.validation, queued: vq, running: vr },
  ];
}
