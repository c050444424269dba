/**
 * People: sign-up with a username and password, sign-in checks, site roles, and
 * the Viewer (who is asking, with their teams) that every authorization check
 * takes. Roles are read from the database on each request, so a revoked role
 * or membership takes effect at once (sessions only carry the user id).
 */
import { z } from "zod";
import { hashPassword, verifyPassword } from "@/lib/auth/password";
import { db } from "@/lib/db";
import { FieldError } from "@/lib/errors";
import { teamRoleSchema, type TeamRole } from "@/lib/schemas/columns";

export const usernameSchema = z
  .string()
  .trim()
  .regex(/^[a-zA-Z0-9][a-zA-Z0-9_-]{2,31}$/, "3 to 32 letters, digits, - or _, starting with a letter or digit");

export const passwordSchema = z.string().min(10, "at least 10 characters").max(200, "at most 200 characters");

/** The sign-up form and `chainswe admin create`. */
export const signUpSchema = z.object({
  username: usernameSchema,
  password: passwordSchema,
  name: z.string().trim().max(100).optional(),
  email: z.email().optional(),
});
export type SignUp = z.infer<typeof signUpSchema>;

export type ViewerTeam = { id: string; slug: string; name: string; role: TeamRole };

/** Who is asking. `null` where a function takes `Viewer | null` is a visitor. */
export type Viewer = {
  id: string;
  username: string | null;
  name: string | null;
  isReviewer: boolean;
  isSiteAdmin: boolean;
  teams: ViewerTeam[];
};

/** Creates a user; a taken username or email is an InputError naming the field. */
export async function createUser(input: SignUp, roles: { isSiteAdmin?: boolean; isReviewer?: boolean } = {}): Promise<{ id: string }> {
  const data = signUpSchema.parse(input);
  if (await db.user.findUnique({ where: { username: data.username }, select: { id: true } })) {
    throw new FieldError("username", `"${data.username}" is taken`);
  }
  if (data.email && (await db.user.findUnique({ where: { email: data.email }, select: { id: true } }))) {
    throw new FieldError("email", `"${data.email}" is already registered`);
  }
  return db.user.create({
    data: {
      username: data.username,
      name: data.name ?? data.username,
      email: data.email ?? null,
      passwordHash: await hashPassword(data.password),
      isSiteAdmin: roles.isSiteAdmin ?? false,
      isReviewer: roles.isReviewer ?? false,
    },
    select: { id: true },
  });
}

/** The user id for a correct username and password, else null (no hint which was wrong). */
export async function authenticate(username: string, password: string): Promise<string | null> {
  const user = await db.user.findUnique({ where: { username: username.trim() }, select: { id: true, passwordHash: true } });
  if (!user?.passwordHash) {
    // spend the same time as a real check, so response times do not reveal which usernames exist
    await verifyPassword(password, DUMMY_HASH);
    return null;
  }
  return (await verifyPassword(password, user.passwordHash)) ? user.id : null;
}
const DUMMY_HASH = "scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=";

export async function viewerById(userId: string): Promise<Viewer | null> {
  const user = await db.user.findUnique({
    where: { id: userId },
    select: {
      id: true,
      username: true,
      name: true,
      isReviewer: true,
      isSiteAdmin: true,
      memberships: { select: { role: true, team: { select: { id: true, slug: true, name: true } } }, orderBy: { createdAt: "asc" } },
    },
  });
  if (!user) return null;
  return {
    id: user.id,
    username: user.username,
    name: user.name,
    isReviewer: user.isReviewer,
    isSiteAdmin: user.isSiteAdmin,
    teams: user.memberships.map((m) => ({ ...m.team, role: teamRoleSchema.parse(m.role) })),
  };
}

/** Grants or revokes a site role; used by `chainswe admin` and the admin page. */
export async function setSiteRole(
  username: string,
  role: "reviewer" | "site_admin",
  granted: boolean,
  actorId: string | null,
): Promise<void> {
  await db.$transaction(async (tx) => {
    const user = await tx.user.findUnique({ where: { username }, select: { id: true } });
    if (!user) throw new FieldError("username", `no user "${username}"`);
    await tx.user.update({ where: { id: user.id }, data: role === "reviewer" ? { isReviewer: granted } : { isSiteAdmin: granted } });
    await tx.auditLog.create({
      data: { actorId, action: granted ? "role_granted" : "role_revoked", targetType: "user", targetId: user.id, reason: role },
    });
  });
}
