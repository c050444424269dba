/**
 * Team invitations: the only way into a team. A team admin invites a user by
 * username; only that user can accept (becoming a member with the offered
 * role) or decline; the team's admins can withdraw it. So no one is put in a
 * team, and under its submissions, without their consent.
 *
 * Invariants: at most one open invitation per team and user; an invitation
 * older than INVITATION_DAYS is dead (not listed, cannot be accepted, and a new
 * one replaces it); a team holds at most MAX_OPEN_INVITATIONS open ones, so an
 * admin cannot flood the site's users. An invitation that is unknown, dead, or
 * not the viewer's to answer is NotFoundError, so ids cannot be probed.
 */
import { z } from "zod";
import { env } from "@/env";
import { rateStore } from "@/lib/accounts/rate-events";
import { countUsernameProbe } from "@/lib/auth/login-attempts";
import { isTeamAdmin } from "@/lib/authz";
import { db, isUniqueViolation } from "@/db/client";
import { FieldError, ForbiddenError, LimitError, NotFoundError, UnauthorizedError } from "@/core/errors";
import { teamRoleSchema, type TeamRole } from "@/core/schemas/columns";
import { usernameSchema, type Viewer } from "@/lib/accounts/users";

export const INVITATION_DAYS = 14;
export const MAX_OPEN_INVITATIONS = 50;

/** The invite form on a team's page. */
export const inviteSchema = z.object({ username: usernameSchema, role: teamRoleSchema.default("member") });

/** What the invitee does with an invitation; "withdraw" is the team admins'. */
export const invitationAnswerSchema = z.enum(["accept", "decline", "withdraw"]);
export type InvitationAnswer = z.infer<typeof invitationAnswerSchema>;

const liveSince = (now: Date) => new Date(now.getTime() - INVITATION_DAYS * 86_400_000);

/** Invitations made after this are open (not yet expired); answered ones are deleted. */
export const openInvitationsSince = liveSince;

/** An open invitation as its invitee sees it (on /teams). */
export type ReceivedInvitation = { id: string; team: { slug: string; name: string }; role: TeamRole; invitedBy: string | null; createdAt: Date };

/** An open invitation as the team's admins see it (on the team's page). */
export type SentInvitation = { id: string; username: string | null; role: TeamRole; invitedBy: string | null; createdAt: Date };

/** The viewer's open invitations, newest first; none for a visitor. */
export async function receivedInvitations(viewer: Viewer | null, now = new Date()): Promise<ReceivedInvitation[]> {
  if (!viewer) return [];
  const rows = await db.teamInvitation.findMany({
    where: { userId: viewer.id, createdAt: { gt: liveSince(now) } },
    orderBy: { createdAt: "desc" },
    select: { id: true, role: true, createdAt: true, team: { select: { slug: true, name: true } }, invitedBy: { select: { username: true, name: true } } },
  });
  return rows.map((r) => ({ id: r.id, team: r.team, role: teamRoleSchema.parse(r.role), invitedBy: r.invitedBy.username ?? r.invitedBy.name, createdAt: r.createdAt }));
}

/** A team's open invitations, for its admins (and site admins); null for anyone else. */
export async function sentInvitations(viewer: Viewer | null, teamId: string, now = new Date()): Promise<SentInvitation[] | null> {
  if (!isTeamAdmin(viewer, teamId)) return null;
  const rows = await db.teamInvitation.findMany({
    where: { teamId, createdAt: { gt: liveSince(now) } },
    orderBy: { createdAt: "desc" },
    select: { id: true, role: true, createdAt: true, user: { select: { username: true } }, invitedBy: { select: { username: true, name: true } } },
  });
  return rows.map((r) => ({ id: r.id, username: r.user.username, role: teamRoleSchema.parse(r.role), invitedBy: r.invitedBy.username ?? r.invitedBy.name, createdAt: r.createdAt }));
}

/**
 * Invites a user by username (team admins only); a member, or someone already
 * invited, is a FieldError. Usernames are shown to no one but teammates and
 * site admins, so "no user" (which tells a name does not exist) counts as a
 * username probe of the sender's address, as sign-up's "taken" does; an
 * invitation sent is not counted (it costs one of the team's open ones).
 */
export async function inviteMember(
  viewer: Viewer | null,
  slug: string,
  input: z.input<typeof inviteSchema>,
  now = new Date(),
  who: { address: string | null } = { address: null },
): Promise<void> {
  const team = await db.team.findUnique({ where: { slug }, select: { id: true } });
  if (!team) throw new NotFoundError("team");
  if (!viewer) throw new UnauthorizedError("sign in to change a team");
  if (!isTeamAdmin(viewer, team.id)) throw new ForbiddenError("only the team's admins can invite members");
  const { username, role } = inviteSchema.parse(input);
  const probe = await countUsernameProbe(rateStore(), who.address, env().CHAINSWE_USERNAME_PROBES_PER_HOUR, now.getTime());
  const user = await db.user.findUnique({ where: { username }, select: { id: true } });
  if (!user) throw new FieldError("username", `no user "${username}"`);
  await probe.takeBack();
  if (await db.teamMember.findUnique({ where: { teamId_userId: { teamId: team.id, userId: user.id } }, select: { id: true } })) {
    throw new FieldError("username", `"${username}" is already a member`);
  }
  const invited = () => new FieldError("username", `"${username}" is already invited`);
  await db.$transaction(async (tx) => {
    // a dead invitation is replaced, a live one refused
    await tx.teamInvitation.deleteMany({ where: { teamId: team.id, userId: user.id, createdAt: { lte: liveSince(now) } } });
    if (await tx.teamInvitation.findUnique({ where: { teamId_userId: { teamId: team.id, userId: user.id } }, select: { id: true } })) throw invited();
    const open = await tx.teamInvitation.count({ where: { teamId: team.id, createdAt: { gt: liveSince(now) } } });
    if (open >= MAX_OPEN_INVITATIONS) throw new LimitError(`the team has ${open} open invitations: withdraw some, or wait until they expire`, 429);
    try {
      await tx.teamInvitation.create({ data: { teamId: team.id, userId: user.id, role, invitedById: viewer.id, createdAt: now } });
    } catch (e) {
      if (isUniqueViolation(e)) throw invited();
      throw e;
    }
  });
}

/**
 * Accepts or declines an invitation (its invitee only) or withdraws it (the
 * team's admins only). Accepting makes the invitee a member with the offered
 * role; someone who became a member meanwhile keeps their role.
 */
export async function answerInvitation(viewer: Viewer | null, id: string, answer: InvitationAnswer, now = new Date()): Promise<{ team: { slug: string; name: string } }> {
  if (!viewer) throw new UnauthorizedError("sign in to answer an invitation");
  const invitation = await db.teamInvitation.findUnique({
    where: { id },
    select: { id: true, teamId: true, userId: true, role: true, createdAt: true, team: { select: { slug: true, name: true } } },
  });
  const mayAnswer = answer === "withdraw" ? isTeamAdmin(viewer, invitation?.teamId ?? "") : invitation?.userId === viewer.id;
  if (!invitation || invitation.createdAt <= liveSince(now) || !mayAnswer) throw new NotFoundError("invitation");
  await db.$transaction(async (tx) => {
    const { count } = await tx.teamInvitation.deleteMany({ where: { id } });
    // answered twice at once: the other answer won
    if (count === 0) throw new NotFoundError("invitation");
    if (answer !== "accept") return;
    const member = await tx.teamMember.findUnique({ where: { teamId_userId: { teamId: invitation.teamId, userId: viewer.id } }, select: { id: true } });
    if (!member) await tx.teamMember.create({ data: { teamId: invitation.teamId, userId: viewer.id, role: teamRoleSchema.parse(invitation.role) } });
  });
  return { team: invitation.team };
}
