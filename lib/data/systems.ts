/**
 * Teams and systems, as far as submissions need them today: `ensureSystem`
 * finds or creates a team and one of its systems by name, for the CLI's
 * `submit-local` and for tests. The portal's team pages will add the rest.
 */
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";

export type SystemRef = {
  teamName: string;
  name: string;
  /** defaults: the system's name for model, "unknown" scaffold, "Baseline" context */
  model?: string;
  scaffold?: string;
  contextConfig?: string;
};

/** "Local Runs" → "local-runs": the team's URL name. */
export function teamSlug(name: string): string {
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
  return slug || "team";
}

function isUniqueViolation(e: unknown): boolean {
  return e instanceof Prisma.PrismaClientKnownRequestError && e.code === "P2002";
}

/** The id of the named system of the named team, both created when missing. */
export async function ensureSystem(ref: SystemRef): Promise<string> {
  const team = await db.team.upsert({
    where: { name: ref.teamName },
    update: {},
    create: { name: ref.teamName, slug: teamSlug(ref.teamName) },
    select: { id: true },
  });
  try {
    const system = await db.system.upsert({
      where: { teamId_name: { teamId: team.id, name: ref.name } },
      update: {},
      create: {
        teamId: team.id,
        name: ref.name,
        model: ref.model ?? ref.name,
        scaffold: ref.scaffold ?? "unknown",
        contextConfig: ref.contextConfig ?? "Baseline",
      },
      select: { id: true },
    });
    return system.id;
  } catch (e) {
    // two callers created it at once: the other one's row is the answer
    if (!isUniqueViolation(e)) throw e;
    const system = await db.system.findUniqueOrThrow({ where: { teamId_name: { teamId: team.id, name: ref.name } }, select: { id: true } });
    return system.id;
  }
}

export type SystemChoice = { id: string; name: string; model: string; contextConfig: string; teamId: string; teamName: string };

/** The systems the viewer may submit for: those of every team they belong to. */
export async function systemsForTeams(teamIds: string[]): Promise<SystemChoice[]> {
  const rows = await db.system.findMany({
    where: { teamId: { in: teamIds } },
    orderBy: [{ team: { name: "asc" } }, { name: "asc" }],
    select: { id: true, name: true, model: true, contextConfig: true, teamId: true, team: { select: { name: true } } },
  });
  return rows.map(({ team, ...s }) => ({ ...s, teamName: team.name }));
}
