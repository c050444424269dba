/**
 * Who may publish what (SPEC §6: nothing a team uploads is public until it
 * chooses to publish and a reviewer approves), as pure functions so the rules
 * are one table, tested without a database. lib/submissions/review.ts applies them.
 *
 *   private ──request (team, evaluation completed)──▶ pending_review
 *   pending_review ──approve (reviewer)──▶ public
 *   pending_review ──reject (reviewer, with a reason)──▶ rejected
 *   rejected ──request again (team)──▶ pending_review
 *   pending_review | public | rejected ──withdraw (team)──▶ private
 */
import { z } from "zod";
import type { AuditAction, SubmissionStatus, Visibility } from "@/core/schemas/columns";

export const VISIBILITY_ACTIONS = ["request_publication", "withdraw", "approve", "reject"] as const;
export const visibilityActionSchema = z.enum(VISIBILITY_ACTIONS);
export type VisibilityAction = z.infer<typeof visibilityActionSchema>;

export const REVIEW_REASON_MAX = 2000;

/** A visibility change as the page's forms and the API send it. */
export const visibilityRequestSchema = z.object({
  action: visibilityActionSchema,
  reason: z.string().trim().max(REVIEW_REASON_MAX, `at most ${REVIEW_REASON_MAX} characters`).optional(),
});
export type VisibilityRequest = z.infer<typeof visibilityRequestSchema>;

/** How a visibility reads on the page ("pending review"). */
export const visibilityLabel = (v: Visibility): string => v.replace("_", " ");

/** The warning every page showing a not-yet-public submission carries (private results marked private). */
export function visibilityNote(v: Visibility): string | null {
  return v === "public" ? null : `${visibilityLabel(v)} — only your team and reviewers can see this`;
}

/**
 * The viewer's ties to a submission besides being on its team now. Each one bars
 * a reviewer's decision on it, so separation of duties holds before a membership
 * starts and after it ends.
 */
export type SubmissionTies = {
  /** was once a member of the submitting team (left, or was removed) */
  formerMember: boolean;
  /** holds an open invitation to the submitting team */
  invited: boolean;
  /** uploaded the submission, or asked for, withdrew or cancelled anything of it as its team */
  tookPart: boolean;
};

export const NO_TIES: SubmissionTies = { formerMember: false, invited: false, tookPart: false };

/** What the viewer is to the submission. */
export type SubmissionRole = { team: boolean; reviewer: boolean; ties: SubmissionTies };

type Rule = {
  from: readonly Visibility[];
  to: Visibility;
  by: "team" | "reviewer";
  audit: AuditAction;
  /** only once the evaluation completed: there must be results to publish */
  needsCompleted?: boolean;
  needsReason?: boolean;
};

const RULES: Record<VisibilityAction, Rule> = {
  request_publication: { from: ["private", "rejected"], to: "pending_review", by: "team", audit: "publication_requested", needsCompleted: true },
  withdraw: { from: ["pending_review", "public", "rejected"], to: "private", by: "team", audit: "publication_withdrawn" },
  approve: { from: ["pending_review"], to: "public", by: "reviewer", audit: "publication_approved" },
  reject: { from: ["pending_review"], to: "rejected", by: "reviewer", audit: "publication_rejected", needsReason: true },
};

const VERBS: Record<VisibilityAction, string> = {
  request_publication: "request publication of",
  withdraw: "withdraw",
  approve: "approve",
  reject: "reject",
};

/** The submission's review fields after a change. */
export type VisibilityChanges = {
  visibility: Visibility;
  publishRequestedAt?: Date | null;
  reviewedAt?: Date | null;
  reviewReason?: string | null;
};

export type TransitionInput = {
  action: VisibilityAction;
  visibility: Visibility;
  status: SubmissionStatus;
  role: SubmissionRole;
  reason?: string | null;
  now: Date;
};

export type Transition =
  | { ok: true; to: Visibility; audit: AuditAction; reason: string | null; changes: VisibilityChanges }
  /** forbidden: not this viewer's to do; state: not from here, or not yet; reason: a rejection needs one */
  | { ok: false; refusal: "forbidden" | "state" | "reason"; message: string };

function changesFor(action: VisibilityAction, to: Visibility, reason: string | null, now: Date): VisibilityChanges {
  switch (action) {
    // a new request starts a new review: the last decision no longer applies
    case "request_publication":
      return { visibility: to, publishRequestedAt: now, reviewedAt: null, reviewReason: null };
    case "withdraw":
      return { visibility: to, publishRequestedAt: null, reviewedAt: null, reviewReason: null };
    case "approve":
    case "reject":
      return { visibility: to, reviewedAt: now, reviewReason: reason };
  }
}

/**
 * Separation of duties: a reviewer on the submitting team does not
 * decide on it. A site with a single reviewer must grant the role to someone
 * outside the team (the message says so).
 */
export const OWN_TEAM_DECISION = "no one decides on their own team's submission: another reviewer must (a site admin can grant the reviewer role)";

const ANOTHER_REVIEWER = "another reviewer must decide on it (a site admin can grant the reviewer role)";

/** A tie that bars a decision: being on the submitting team now, or one of SubmissionTies. */
export type DecisionTie = "team" | keyof SubmissionTies;

/** Who holds each tie, as the audit log names them ("by …"). */
export const TIE_HOLDERS: Record<DecisionTie, string> = {
  team: "a member of the submitting team",
  formerMember: "a former member of the submitting team",
  invited: "someone invited to the submitting team",
  tookPart: "someone who took part in the submission",
};

/** The viewer's first tie to the submission, its team now first; null when there is none. */
export function decisionTie(role: Pick<SubmissionRole, "team" | "ties">): DecisionTie | null {
  if (role.team) return "team";
  return (["formerMember", "invited", "tookPart"] as const).find((k) => role.ties[k]) ?? null;
}

/** What a reviewer decides on: a team's submission, or a user's chain proposal (lib/proposals/review.ts), whose "team" is the proposer's teams. */
export type DecisionSubject = "submission" | "proposal";

const CONFLICTS: Record<DecisionSubject, Record<DecisionTie, string>> = {
  submission: {
    team: OWN_TEAM_DECISION,
    formerMember: `you were a member of the submitting team: ${ANOTHER_REVIEWER}`,
    invited: `you are invited to the submitting team: ${ANOTHER_REVIEWER}`,
    tookPart: `you took part in this submission (uploaded it, or acted on it for its team): ${ANOTHER_REVIEWER}`,
  },
  proposal: {
    team: `no one decides on a proposal of their own team's members: ${ANOTHER_REVIEWER}`,
    formerMember: `you were a member of a team of the proposer: ${ANOTHER_REVIEWER}`,
    invited: `you are invited to a team of the proposer: ${ANOTHER_REVIEWER}`,
    tookPart: `you proposed this chain, and no one decides on their own proposal: ${ANOTHER_REVIEWER}`,
  },
};

/** Why this viewer may not take a reviewer's decision on the submission (or proposal): its team now, or any tie; null when free to. */
export function decisionConflict(role: SubmissionRole, subject: DecisionSubject = "submission"): string | null {
  const tie = decisionTie(role);
  return tie ? CONFLICTS[subject][tie] : null;
}

/** A reviewer's decision this viewer may take on the submission: a reviewer with no tie to it. */
export const mayDecide = (role: SubmissionRole): boolean => role.reviewer && decisionConflict(role) === null;

/** The change `action` makes, or why it is refused. */
export function visibilityTransition(input: TransitionInput): Transition {
  const rule = RULES[input.action];
  const verb = VERBS[input.action];
  const conflict = rule.by === "reviewer" && input.role.reviewer ? decisionConflict(input.role) : null;
  if (conflict) return { ok: false, refusal: "forbidden", message: conflict };
  if (!(rule.by === "team" ? input.role.team : input.role.reviewer)) {
    return { ok: false, refusal: "forbidden", message: `only ${rule.by === "team" ? "the submitting team" : "a reviewer"} can ${verb} a submission` };
  }
  if (!rule.from.includes(input.visibility)) {
    return { ok: false, refusal: "state", message: `cannot ${verb} a submission that is ${visibilityLabel(input.visibility)}` };
  }
  if (rule.needsCompleted && input.status !== "completed") {
    return { ok: false, refusal: "state", message: `cannot ${verb} a submission whose evaluation is ${input.status}: publish once it completed` };
  }
  const reason = input.reason?.trim() || null;
  if (rule.needsReason && !reason) return { ok: false, refusal: "reason", message: "required: tell the team why" };
  return { ok: true, to: rule.to, audit: rule.audit, reason, changes: changesFor(input.action, rule.to, reason, input.now) };
}

export type SubmissionActions = {
  cancel: boolean;
  rerun: boolean;
  /** the predictions (the team's patches): never public */
  predictions: boolean;
  /** upload the next run of this submission's entry (SPEC §7 repeated runs): the team */
  add_run: boolean;
  /** delete it and everything stored with it: the team, while private and not being evaluated */
  delete: boolean;
} & Record<VisibilityAction, boolean>;

const OPEN_STATUSES: readonly SubmissionStatus[] = ["queued", "running"];

export const isEvaluationOpen = (status: SubmissionStatus): boolean => OPEN_STATUSES.includes(status);

/**
 * Why the viewer may not delete the submission now, or null: a team deletes its
 * own submission while it is private (never what the public or reviewers were
 * shown) and no evaluation of it runs.
 */
export function deletionRefusal(role: SubmissionRole, visibility: Visibility, status: SubmissionStatus): string | null {
  if (!role.team) return "only the submitting team can delete its submission";
  if (isEvaluationOpen(status)) return `its evaluation is ${status}: cancel it first`;
  if (visibility !== "private") return `it is ${visibilityLabel(visibility)}: only a private submission can be deleted (withdraw it first)`;
  return null;
}

/** Which buttons the submission page offers this viewer. */
export function availableActions(role: SubmissionRole, visibility: Visibility, status: SubmissionStatus): SubmissionActions {
  const can = (action: VisibilityAction) =>
    visibilityTransition({ action, visibility, status, role, reason: "-", now: new Date(0) }).ok;
  return {
    cancel: role.team && isEvaluationOpen(status),
    rerun: mayDecide(role),
    predictions: role.team || role.reviewer,
    add_run: role.team,
    delete: deletionRefusal(role, visibility, status) === null,
    request_publication: can("request_publication"),
    withdraw: can("withdraw"),
    approve: can("approve"),
    reject: can("reject"),
  };
}
