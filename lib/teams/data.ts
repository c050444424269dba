/**
 * Teams and their members, for the /teams pages. Every function takes the
 * Viewer first and checks it with the rules of lib/authz.ts: an unknown team is
 * NotFoundError; a visitor who tries to change something is UnauthorizedError;
 * a signed-in viewer who can see the team (team pages are public) but may not
 * do this is ForbiddenError. Bad input is a FieldError naming the form field,
 * and nothing is changed.
 *
 * Members join by invitation only (./team-invitations.ts).
 *
 * A team always keeps at least one admin: the change that would leave it with
 * none (the last admin leaving or demoting themself) is refused.
 */
import { countCreation } from "@/lib/accounts/creation-limits";
import { z } from "zod";
import { oneLine } from "@/core/schemas/text";
import { isTeamAdmin, isTeamMember } from "@/lib/authz";
import { db, isUniqueViolation } from "@/db/client";
import { FieldError, ForbiddenError, NotFoundError, UnauthorizedError } from "@/core/errors";
import { teamRoleSchema, type TeamRole } from "@/core/schemas/columns";
import { systemRowSelect, teamSlug, toSystemRow, type SystemRow } from "@/lib/teams/systems";
import { sentInvitations, type SentInvitation } from "@/lib/teams/invitations";
import type { Viewer } from "@/lib/accounts/users";

export { createSystem, updateSystem, systemInputSchema, systemWarnings, type SystemInput, type SystemRow } from "@/lib/teams/systems";

// ---------------------------------------------------------------- inputs

export const teamNameSchema = oneLine(z.string().trim().min(2, "at least 2 characters").max(60, "at most 60 characters").regex(/[a-zA-Z0-9]/, "needs a letter or digit"));

/** The create-team form. */
export const newTeamSchema = z.object({ name: teamNameSchema });

/** The change-role control on a member's row. */
export const memberRoleSchema = z.object({ role: teamRoleSchema });

// ---------------------------------------------------------------- reading

export type TeamSummary = { slug: string; name: string; role: TeamRole; members: number; systems: number };

/** The viewer's own teams, by name; none for a visitor. */
export async function listTeams(viewer: Viewer | null): Promise<TeamSummary[]> {
  if (!viewer) return [];
  const rows = await db.teamMember.findMany({
    where: { userId: viewer.id },
    orderBy: { team: { name: "asc" } },
    select: { role: true, team: { select: { slug: true, name: true, _count: { select: { members: true, systems: true } } } } },
  });
  return rows.map(({ role, team }) => ({
    slug: team.slug,
    name: team.name,
    role: teamRoleSchema.parse(role),
    members: team._count.members,
    systems: team._count.systems,
  }));
}

export type MemberRow = { userId: string; username: string | null; name: string | null; role: TeamRole; joinedAt: Date; isViewer: boolean };

export type TeamView = {
  id: string;
  slug: string;
  name: string;
  createdAt: Date;
  systems: SystemRow[];
  /** null unless the viewer is a member (or a site admin): membership lists are the team's business */
  members: MemberRow[] | null;
  /** the viewer's role in the team, null when not a member */
  role: TeamRole | null;
  /** may create and edit the team's systems */
  canEditSystems: boolean;
  /** may invite, remove and change members */
  canManageMembers: boolean;
  /** the open invitations, for those who manage members; null for anyone else */
  invitations: SentInvitation[] | null;
};

/** A team by slug: its systems for everyone, its members for its members. */
export async function getTeam(viewer: Viewer | null, slug: string): Promise<TeamView> {
  const team = await db.team.findUnique({
    where: { slug },
    select: {
      id: true,
      slug: true,
      name: true,
      createdAt: true,
      systems: { orderBy: { name: "asc" }, select: systemRowSelect },
      members: {
        orderBy: [{ role: "asc" }, { createdAt: "asc" }],
        select: { role: true, createdAt: true, user: { select: { id: true, username: true, name: true } } },
      },
    },
  });
  if (!team) throw new NotFoundError("team");
  const member = isTeamMember(viewer, team.id);
  const admin = isTeamAdmin(viewer, team.id);
  const role = viewer?.teams.find((t) => t.id === team.id)?.role ?? null;
  return {
    id: team.id,
    slug: team.slug,
    name: team.name,
    createdAt: team.createdAt,
    systems: team.systems.map(toSystemRow),
    members:
      member || admin
        ? team.members.map((m) => ({
            userId: m.user.id,
            username: m.user.username,
            name: m.user.name,
            role: teamRoleSchema.parse(m.role),
            joinedAt: m.createdAt,
            isViewer: m.user.id === viewer?.id,
          }))
        : null,
    role,
    canEditSystems: member,
    canManageMembers: admin,
    invitations: await sentInvitations(viewer, team.id),
  };
}

// ---------------------------------------------------------------- changing

/** A new team with the viewer as its admin; a name (or one differing only in case or punctuation) already used is refused. */
export async function createTeam(viewer: Viewer | null, input: z.input<typeof newTeamSchema>): Promise<{ id: string; slug: string }> {
  if (!viewer) throw new UnauthorizedError("sign in to create a team");
  const { name } = newTeamSchema.parse(input);
  const slug = teamSlug(name);
  const taken = await db.team.findFirst({ where: { OR: [{ name }, { slug }] }, select: { name: true } });
  if (taken) throw teamNameTaken(taken.name);
  await countCreation("team", viewer.id);
  try {
    return await db.team.create({
      data: { name, slug, members: { create: { userId: viewer.id, role: "admin" } } },
      select: { id: true, slug: true },
    });
  } catch (e) {
    // created by someone else between the check and the insert
    if (isUniqueViolation(e)) throw teamNameTaken(name);
    throw e;
  }
}

function teamNameTaken(existing: string): FieldError {
  return new FieldError("name", `the name is taken (by the team "${existing}")`);
}

/** The team, for a change: unknown slug → NotFoundError, visitor → UnauthorizedError. */
export async function teamForChange(viewer: Viewer | null, slug: string): Promise<{ viewer: Viewer; teamId: string }> {
  const team = await db.team.findUnique({ where: { slug }, select: { id: true } });
  if (!team) throw new NotFoundError("team");
  if (!viewer) throw new UnauthorizedError("sign in to change a team");
  return { viewer, teamId: team.id };
}

/** ForbiddenError unless the viewer is one of the team's admins; `what` names what they may not do. */
export function assertTeamAdmin(viewer: Viewer, teamId: string, what = "manage its members"): void {
  if (!isTeamAdmin(viewer, teamId)) throw new ForbiddenError(`only the team's admins can ${what}`);
}

/** Makes a member an admin or a plain member (team admins only). */
export async function setMemberRole(viewer: Viewer | null, slug: string, userId: string, input: z.input<typeof memberRoleSchema>): Promise<void> {
  const { viewer: v, teamId } = await teamForChange(viewer, slug);
  assertTeamAdmin(v, teamId);
  const { role } = memberRoleSchema.parse(input);
  await db.$transaction(async (tx) => {
    const { count } = await tx.teamMember.updateMany({ where: { teamId, userId }, data: { role } });
    if (count === 0) throw new NotFoundError("member");
    // counted after the write, inside the transaction, so two admins demoting each other cannot both succeed
    if ((await tx.teamMember.count({ where: { teamId, role: "admin" } })) === 0) {
      throw new FieldError("role", "a team needs an admin: make another member admin first");
    }
  });
}

/** Removes a member: team admins remove anyone, members remove themselves (leave). The membership is kept as a FormerMember. */
export async function removeMember(viewer: Viewer | null, slug: string, userId: string): Promise<void> {
  const { viewer: v, teamId } = await teamForChange(viewer, slug);
  const leaving = v.id === userId && isTeamMember(v, teamId);
  if (!leaving) assertTeamAdmin(v, teamId);
  await db.$transaction(async (tx) => {
    const member = await tx.teamMember.findUnique({ where: { teamId_userId: { teamId, userId } }, select: { role: true, createdAt: true } });
    const { count } = await tx.teamMember.deleteMany({ where: { teamId, userId } });
    if (!member || count === 0) throw new NotFoundError("member");
    if ((await tx.teamMember.count({ where: { teamId, role: "admin" } })) === 0) {
      throw new FieldError("member", "a team needs an admin: make another member admin before the last admin leaves");
    }
    // kept for good: whoever was ever in the team never decides on its submissions (lib/submissions/ties.ts)
    await tx.formerMember.create({ data: { teamId, userId, role: member.role, joinedAt: member.createdAt } });
  });
}
