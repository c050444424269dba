/**
 * People: sign-up with a username and password, sign-in checks, site roles, and
 * the Viewer (who is asking, with their teams) that every authorization check
 * takes. Roles are read from the database on each request, so a revoked role
 * or membership takes effect at once (sessions only carry the user id).
 */
import { z } from "zod";
import { oneLine } from "@/core/schemas/text";
import { hashPassword, verifyPassword } from "@/lib/auth/password";
import { passwordProblem } from "@/lib/auth/password-policy";
import { db } from "@/db/client";
import { FieldError, NotFoundError } from "@/core/errors";
import { teamRoleSchema, type TeamRole } from "@/core/schemas/columns";
import { auditLogPage, type AuditPage } from "@/lib/accounts/audit";
import { auditQuerySchema, type AuditQuery } from "@/lib/accounts/audit-query";

export const usernameSchema = z
  .string()
  .trim()
  .regex(/^[a-zA-Z0-9][a-zA-Z0-9_-]{2,31}$/, "3 to 32 letters, digits, - or _, starting with a letter or digit");

export const passwordSchema = z.string().min(10, "at least 10 characters").max(200, "at most 200 characters");

/**
 * The sign-up form and `chainswe admin create`. The password may be neither
 * the username nor a common password (lib/auth/password-policy.ts).
 */
export const signUpSchema = z
  .object({
    username: usernameSchema,
    password: passwordSchema,
    name: oneLine(z.string().trim().max(100)).optional(),
    email: z.email().optional(),
  })
  .superRefine((v, ctx) => {
    // one problem at a time: a password of the wrong length is told only that
    if (!passwordSchema.safeParse(v.password).success) return;
    const problem = passwordProblem(v.password, v.username);
    if (problem) ctx.addIssue({ code: "custom", path: ["password"], message: problem });
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

export const usernameTaken = (username: string): FieldError => new FieldError("username", `"${username}" is taken`);

/** Creates a user; a taken username or email is a FieldError naming the field. */
export async function createUser(input: SignUp, roles: { isSiteAdmin?: boolean; isReviewer?: boolean } = {}): Promise<{ id: string }> {
  const data = signUpSchema.parse(input);
  if (await db.user.findUnique({ where: { username: data.username }, select: { id: true } })) throw usernameTaken(data.username);
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

// ---------------------------------------------------------------- site administration (the /admin page)

export const SITE_ROLES = ["reviewer", "site_admin"] as const;
export const siteRoleChangeSchema = z.object({
  username: usernameSchema,
  role: z.enum(SITE_ROLES),
  /** a boolean, or the form's "true" / "false" */
  granted: z.union([z.boolean(), z.enum(["true", "false"]).transform((g) => g === "true")]),
});

export type AdminUserRow = { id: string; username: string | null; name: string | null; createdAt: Date; isReviewer: boolean; isSiteAdmin: boolean };
/** Site admins only; anyone else is told the page does not exist. */
function assertSiteAdmin(viewer: Viewer | null): asserts viewer is Viewer {
  if (!viewer?.isSiteAdmin) throw new NotFoundError("page");
}

/** Every user with their site roles, and one page of the audit log under its filter (lib/accounts/audit.ts). */
export async function siteAdminView(viewer: Viewer | null, auditQuery: AuditQuery = auditQuerySchema.parse({})): Promise<{ users: AdminUserRow[]; audit: AuditPage }> {
  assertSiteAdmin(viewer);
  const [users, audit] = await Promise.all([
    db.user.findMany({
      orderBy: { createdAt: "asc" },
      select: { id: true, username: true, name: true, createdAt: true, isReviewer: true, isSiteAdmin: true },
    }),
    auditLogPage(auditQuery),
  ]);
  return { users, audit };
}

/** Grants or revokes a site role from the admin page, logged with the admin as actor. */
export async function changeSiteRole(viewer: Viewer | null, input: z.input<typeof siteRoleChangeSchema>): Promise<void> {
  assertSiteAdmin(viewer);
  const { username, role, granted } = siteRoleChangeSchema.parse(input);
  // an admin locking themself out of this page is done from the command line, on purpose
  if (!granted && role === "site_admin" && username === viewer.username) {
    throw new FieldError("role", "you cannot revoke your own site admin role here (use chainswe admin revoke on the command line)");
  }
  await setSiteRole(username, role, granted, viewer.id);
}
