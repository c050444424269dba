/**
 * Re-grading stored submissions in the portal (SPEC §7 "Re-grade"):
 * each BugResult's stored log is re-read with the current grader (evaluator/regrade,
 * the same pure function as `chainswe regrade`), changed rows are updated, every row
 * records the grader that produced it, and a completed submission's scores and
 * chain-error analyses are recomputed (lib/leaderboard/aggregates.ts). What changed is kept on
 * the submission (lastRegrade) for its page. A re-grade that changes no verdict leaves
 * every stored score as it was (only the grader fields move).
 *
 * No authorization here: the site-admin action and CLI check first.
 */
import { z } from "zod";
import { GRADER_VERSION, PACKAGE_VERSION } from "@/core/grading";
import { regradeStored, type DirRegrade } from "@/evaluator/regrade";
import { isTeamMember, type Viewer } from "@/lib/authz";
import { db } from "@/db/client";
import { NotFoundError } from "@/core/errors";
import { columnJson, parseColumn, testSplitSchema, type AuditAction } from "@/core/schemas/columns";
import { modeSchema } from "@/core/schemas/prediction";
import { refreshAggregates } from "@/lib/leaderboard/aggregates";
import { storeGoldSimilarity } from "@/lib/submissions/gold-similarity";
import { getChain } from "@/lib/dataset/data";
import { gradedBugFromRow } from "@/lib/submissions/run-results";
import { submissionTies } from "@/lib/submissions/ties";
import { decisionTie, TIE_HOLDERS } from "@/lib/submissions/visibility";

const verdictSchema = z.object({ resolved: z.boolean(), fingerprint: z.string().nullable(), tampered: z.boolean() });

/** Submission.lastRegrade. */
export const submissionRegradeSchema = z.object({
  grader_version: z.string(),
  at: z.string(),
  bugs: z.number().int().nonnegative(),
  changed: z.array(
    z.object({
      continuous_id: z.string(),
      order: z.number().int().positive(),
      swebench_instance_id: z.string(),
      old: verdictSchema,
      new: verdictSchema,
      tests: z.array(z.object({ id: z.string(), list: z.enum(["FAIL_TO_PASS", "PASS_TO_PASS"]), old: z.string(), new: z.string() })),
    }),
  ),
  failures: z.array(z.object({ continuous_id: z.string(), order: z.number().int().positive(), reason: z.string() })),
});
export type SubmissionRegrade = z.infer<typeof submissionRegradeSchema>;

export function parseLastRegrade(text: string | null): SubmissionRegrade | null {
  return text === null ? null : parseColumn(submissionRegradeSchema, text, "Submission.lastRegrade");
}

/** Re-grades one submission from its stored logs; null for an unknown submission. */
export async function regradeSubmission(submissionId: string): Promise<SubmissionRegrade | null> {
  const sub = await db.submission.findUnique({
    where: { id: submissionId },
    select: { mode: true, status: true, system: { select: { name: true } }, datasetVersion: { select: { version: true } } },
  });
  if (!sub) return null;
  const rows = await db.bugResult.findMany({ where: { submissionId }, orderBy: [{ continuousId: "asc" }, { order: "asc" }] });
  const chains = new Map<string, Awaited<ReturnType<typeof getChain>>>();
  for (const id of new Set(rows.map((r) => r.continuousId))) chains.set(id, await getChain(sub.datasetVersion.version, id));
  const out: DirRegrade = { dir: submissionId, grader_version: GRADER_VERSION, package_version: PACKAGE_VERSION, lists_from: "dataset", bugs: rows.length, changed: [], failures: [] };
  const mode = modeSchema.parse(sub.mode);
  const updates = rows.map((r) => {
    const old = gradedBugFromRow(r, mode, sub.system.name, undefined);
    const failuresBefore = out.failures.length;
    const bug = regradeStored(old, r.log, chains.get(r.continuousId) ?? undefined, out);
    if (out.failures.length > failuresBefore) return null;
    return db.bugResult.update({
      where: { id: r.id },
      data: {
        resolved: bug.resolved,
        fingerprint: bug.fingerprint,
        tampered: bug.tampered,
        failToPass: columnJson(testSplitSchema, bug.fail_to_pass),
        passToPass: columnJson(testSplitSchema, bug.pass_to_pass),
        graderVersion: bug.grader_version ?? null,
        packageVersion: bug.package_version ?? null,
        logParser: bug.log_parser ?? null,
      },
    });
  });
  const report: SubmissionRegrade = { grader_version: GRADER_VERSION, at: new Date().toISOString(), bugs: rows.length, changed: out.changed, failures: out.failures };
  await db.$transaction([
    ...updates.filter((u) => u !== null),
    db.submission.update({ where: { id: submissionId }, data: { lastRegrade: columnJson(submissionRegradeSchema, report) } }),
  ]);
  // SPEC §7: similarities to gold are recomputed with the verdicts
  const similarities = await storeGoldSimilarity(submissionId, "all");
  // scores move only when a verdict (or a similarity the row counts) did
  if (sub.status === "completed" && (out.changed.length > 0 || similarities > 0)) await refreshAggregates(submissionId);
  return report;
}

/** Re-grades every submission with results; per submission, how many verdicts changed. */
export async function regradeAllSubmissions(log: (line: string) => void = () => {}): Promise<{ id: string; changed: number; failures: number }[]> {
  const subs = await db.submission.findMany({ where: { results: { some: {} } }, select: { id: true }, orderBy: { createdAt: "asc" } });
  const done = [];
  for (const { id } of subs) {
    const r = await regradeSubmission(id);
    if (!r) continue;
    log(`submission ${id}: ${r.changed.length} verdict(s) changed, ${r.failures.length} not re-graded`);
    done.push({ id, changed: r.changed.length, failures: r.failures.length });
  }
  return done;
}

/**
 * The site admin's re-grade (admin page): one submission, or every one when `submissionId`
 * is null. Anyone else gets not-found, as for the admin page itself. Logged in the audit log.
 *
 * Unlike a reviewer's decision, it is not refused to an admin tied to the submission (on
 * its team, once on it, invited to it, or who took part): the current grader re-reads the
 * stored logs and the admin chooses nothing but which submission. Its audit row names the
 * tie instead (one row per tied submission for a re-grade of all); docs/SECURITY.md says
 * why admins are trusted.
 */
export async function regradeAsSiteAdmin(viewer: Viewer | null, submissionId: string | null): Promise<{ submissions: number; changed: number }> {
  if (!viewer?.isSiteAdmin) throw new NotFoundError("page");
  const done = submissionId === null ? await regradeAllSubmissions() : await regradeOne(submissionId);
  const grader = `grader ${GRADER_VERSION}`;
  const row = (targetId: string, reason: string) => ({ actorId: viewer.id, action: "results_regraded" satisfies AuditAction, targetType: "submission", targetId, reason });
  if (submissionId !== null) {
    const tie = await adminTie(viewer, submissionId);
    await db.auditLog.create({ data: row(submissionId, tie ? `${grader}; by ${tie}` : grader) });
  } else {
    await db.auditLog.create({ data: row("all", grader) });
    for (const { id } of done) {
      const tie = await adminTie(viewer, id);
      if (tie) await db.auditLog.create({ data: row(id, `${grader}; by ${tie} (re-grade of all)`) });
    }
  }
  return { submissions: done.length, changed: done.reduce((n, d) => n + d.changed, 0) };
}

/** Who the admin is to the submission when tied to it ("a member of the submitting team"), else null. */
async function adminTie(viewer: Viewer, id: string): Promise<string | null> {
  const s = await db.submission.findUnique({ where: { id }, select: { submittedById: true, system: { select: { teamId: true } } } });
  if (!s) return null;
  const ties = await submissionTies(viewer.id, { id, teamId: s.system.teamId, submittedById: s.submittedById });
  const tie = decisionTie({ team: isTeamMember(viewer, s.system.teamId), ties });
  return tie ? TIE_HOLDERS[tie] : null;
}

async function regradeOne(id: string): Promise<{ id: string; changed: number; failures: number }[]> {
  const r = await regradeSubmission(id);
  if (!r) throw new NotFoundError("submission");
  return [{ id, changed: r.changed.length, failures: r.failures.length }];
}
