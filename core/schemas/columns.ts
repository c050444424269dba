/**
 * What the database cannot type: closed sets of strings (SQLite has no enums)
 * and JSON kept in String columns (portable between SQLite and PostgreSQL).
 * prisma/schema.prisma names the schema of each such column; every write goes
 * through `columnJson` and every read through `parseColumn`.
 */
import { z } from "zod";
import { modeSchema } from "./prediction";
import { gradedBugSchema } from "./results";

// ---------------------------------------------------------------- closed sets

export const TEAM_ROLES = ["member", "admin"] as const;
export const teamRoleSchema = z.enum(TEAM_ROLES);
export type TeamRole = z.infer<typeof teamRoleSchema>;

export const SUBMISSION_STATUSES = ["queued", "running", "completed", "failed", "cancelled"] as const;
export const submissionStatusSchema = z.enum(SUBMISSION_STATUSES);
export type SubmissionStatus = z.infer<typeof submissionStatusSchema>;

/** Submission.split (SPEC §8): the version's chains ("full", or a chosen subset) or its Mini split's; rows of one are never ranked with the other's. */
export const SPLITS = ["full", "mini"] as const;
export const splitSchema = z.enum(SPLITS);
export type Split = z.infer<typeof splitSchema>;

/** private → pending_review → public | rejected; the team can withdraw back to private. */
export const VISIBILITIES = ["private", "pending_review", "public", "rejected"] as const;
export const visibilitySchema = z.enum(VISIBILITIES);
export type Visibility = z.infer<typeof visibilitySchema>;

export const JOB_STATUSES = ["queued", "running", "done", "failed", "cancelled"] as const;
export const jobStatusSchema = z.enum(JOB_STATUSES);
export type JobStatus = z.infer<typeof jobStatusSchema>;

/** ProposedChain.status (SPEC §8): validating on the workers, then valid or refused; failed when validation could not run */
export const PROPOSED_CHAIN_STATUSES = ["validating", "valid", "refused", "failed"] as const;
export const proposedChainStatusSchema = z.enum(PROPOSED_CHAIN_STATUSES);
export type ProposedChainStatus = z.infer<typeof proposedChainStatusSchema>;

/** ProposedChain.review: a reviewer's decision on a proposed chain */
export const PROPOSAL_REVIEWS = ["pending", "accepted", "rejected"] as const;
export const proposalReviewSchema = z.enum(PROPOSAL_REVIEWS);
export type ProposalReview = z.infer<typeof proposalReviewSchema>;

export const API_TOKEN_SCOPES = ["submit", "read"] as const;
export const apiTokenScopesSchema = z.array(z.enum(API_TOKEN_SCOPES));
export type ApiTokenScopes = z.infer<typeof apiTokenScopesSchema>;

export const AUDIT_ACTIONS = [
  "publication_approved",
  "publication_rejected",
  "submission_rerun",
  "role_granted",
  "role_revoked",
  "submission_cancelled",
  // the team's own visibility changes, so a reviewer sees the whole publication history
  "publication_requested",
  "publication_withdrawn",
  // a site admin re-graded one submission (or "all") from the stored logs
  "results_regraded",
  // the team showed or hid its trajectories (SPEC §7)
  "trajectories_shown",
  "trajectories_hidden",
  // the team deleted its private submission, or the site deleted a cancelled one after its grace period (no actor)
  "submission_deleted",
  // a reviewer accepted or rejected a proposed chain (SPEC §8), with the reason
  "proposed_chain_accepted",
  "proposed_chain_rejected",
  // a team member downloaded a version's held-out problem statements (SPEC §8); the reason names the team
  "held_out_downloaded",
  // a site admin released a dataset version from the admin page (SPEC §8); the reason names its parent and changes
  "version_released",
] as const;
export const auditActionSchema = z.enum(AUDIT_ACTIONS);
export type AuditAction = z.infer<typeof auditActionSchema>;

/** Notification.event: what a team is told about one of its submissions (lib/notifications) */
export const NOTIFICATION_EVENTS = ["evaluation_completed", "evaluation_failed", "publication_approved", "publication_rejected"] as const;
export const notificationEventSchema = z.enum(NOTIFICATION_EVENTS);
export type NotificationEvent = z.infer<typeof notificationEventSchema>;

/** NotificationDelivery.channel */
export const DELIVERY_CHANNELS = ["webhook", "email"] as const;
export const deliveryChannelSchema = z.enum(DELIVERY_CHANNELS);
export type DeliveryChannel = z.infer<typeof deliveryChannelSchema>;

/** NotificationDelivery.status */
export const DELIVERY_STATUSES = ["pending", "delivered", "failed"] as const;
export const deliveryStatusSchema = z.enum(DELIVERY_STATUSES);
export type DeliveryStatus = z.infer<typeof deliveryStatusSchema>;

// ---------------------------------------------------------------- JSON columns

const countRow = { chains: z.number().int().nonnegative(), bugs: z.number().int().nonnegative() };

/**
 * DatasetVersion.stats (core/dataset/stats.ts computes it). The fields after `repos`
 * came later and are optional, so versions imported before them still parse.
 */
export const datasetStatsSchema = z.object({
  ...countRow,
  repos: z.number().int().nonnegative(),
  avg_length: z.number().nonnegative().optional(),
  /** earliest and latest bug date, YYYY-MM-DD */
  date_span: z.object({ from: z.string(), to: z.string() }).nullable().optional(),
  /** the paper's Table 7 */
  by_source: z.array(z.object({ source: z.string(), ...countRow })).optional(),
  /** the paper's Table 9 */
  by_repo: z.array(z.object({ repo: z.string(), ...countRow })).optional(),
});
export type DatasetStats = z.infer<typeof datasetStatsSchema>;

/** DatasetVersion.modes: the modes a version accepts submissions in. */
export const datasetModesSchema = z.array(modeSchema).min(1);

/** Chain.extra, Bug.extra: a record's fields SPEC §1 does not name, kept as given. */
export const extraFieldsSchema = z.record(z.string(), z.unknown());

/** Bug.failToPass, Bug.passToPass */
export const testIdsSchema = z.array(z.string());

/** Bug.testCmds: run in order in one shell */
export const testCmdsSchema = z.array(z.string().min(1)).min(1);

/** BugResult.failToPass, BugResult.passToPass */
export const testSplitSchema = gradedBugSchema.shape.fail_to_pass;

/** BugResult.modelFiles, goldFiles, testFiles, discardedFiles */
export const fileListSchema = z.array(z.string());

/** System.links: paper, repository, model card… */
export const systemLinksSchema = z.array(z.object({ label: z.string().min(1), url: z.url() }));
export type SystemLinks = z.infer<typeof systemLinksSchema>;

/** Submission.metadata: what the team says about the run, shown beside its results. */
export const submissionMetadataSchema = z.record(
  z.string(),
  z.union([z.string(), z.number(), z.boolean(), z.null()]),
);
export type SubmissionMetadata = z.infer<typeof submissionMetadataSchema>;

/** EvaluationJob.progress: the running attempt's bugs, in order, as each is graded. */
export const jobProgressSchema = z.array(
  z.object({
    order: z.number().int().positive(),
    resolved: z.boolean(),
    fingerprint: z.string().nullable(),
  }),
);
export type JobProgress = z.infer<typeof jobProgressSchema>;

// ---------------------------------------------------------------- reading and writing

/** The text stored for a JSON column, validated first so nothing malformed is written. */
export function columnJson<S extends z.ZodType>(schema: S, value: z.input<S>): string {
  return JSON.stringify(schema.parse(value));
}

/** A JSON column read back; a stored value that no longer parses is a bug, named by column. */
export function parseColumn<S extends z.ZodType>(schema: S, text: string, column: string): z.output<S> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new Error(`${column}: stored value is not JSON (${(e as Error).message})`);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new Error(`${column}: stored value does not match its schema: ${parsed.error.message}`);
  return parsed.data;
}
