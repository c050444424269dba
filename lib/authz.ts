/**
 * Who may do what: pure functions of the viewer and the thing
 * asked about, so every page, route handler and server action asks the same
 * question the same way, and the rules are tested without a server.
 *
 * A thing the viewer may not read is answered as if it did not exist (404), so
 * ids cannot be probed; `forbidden` is only for things the viewer can see but
 * not change.
 */
import type { Visibility } from "@/core/schemas/columns";
import type { Viewer } from "@/lib/accounts/users";

export type { Viewer } from "@/lib/accounts/users";

/** What authorization needs to know about a submission. */
export type SubmissionAccess = { teamId: string; visibility: Visibility };

export const isReviewer = (v: Viewer | null): boolean => !!v && (v.isReviewer || v.isSiteAdmin);

export const isTeamMember = (v: Viewer | null, teamId: string): boolean => !!v && v.teams.some((t) => t.id === teamId);

export const isTeamAdmin = (v: Viewer | null, teamId: string): boolean =>
  !!v && (v.isSiteAdmin || v.teams.some((t) => t.id === teamId && t.role === "admin"));

/** Results, logs and predictions: public ones to all; others to the team and to reviewers. */
export const canReadSubmission = (v: Viewer | null, s: SubmissionAccess): boolean =>
  s.visibility === "public" || isTeamMember(v, s.teamId) || isReviewer(v);

/** A bug's trajectory (SPEC §7): the team and reviewers; everyone once the submission is public, if the team chose to show them. */
export const canReadTrajectories = (v: Viewer | null, s: SubmissionAccess & { trajectoriesPublic: boolean }): boolean =>
  (s.visibility === "public" && s.trajectoriesPublic) || isTeamMember(v, s.teamId) || isReviewer(v);

/** Submit for, cancel, ask to publish or withdraw: any member of the owning team. */
export const canActForTeam = (v: Viewer | null, teamId: string): boolean => isTeamMember(v, teamId);

/** Approve or reject publication, re-run: reviewers and site admins. */
export const canReview = isReviewer;
