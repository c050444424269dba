/**
 * Systems: a team's model + scaffold + context configuration, the thing a
 * submission is the output of (SPEC §2). `ensureSystem` finds or creates a team
 * and one of its systems by name, for the CLI's `submit-local`, the demo seed
 * and tests; `createSystem` / `updateSystem` are the team page's, and check the
 * viewer themselves.
 */
import { countCreation } from "@/lib/accounts/creation-limits";
import { z } from "zod";
import { oneLine } from "@/core/schemas/text";
import { daySchema } from "@/core/scoring/window";
import { canActForTeam } from "@/lib/authz";
import { db, isUniqueViolation } from "@/db/client";
import { FieldError, NotFoundError, UnauthorizedError, ForbiddenError } from "@/core/errors";
import { columnJson, parseColumn, systemLinksSchema, type SystemLinks } from "@/core/schemas/columns";
import type { Viewer } from "@/lib/accounts/users";

export type SystemRef = {
  teamName: string;
  name: string;
  /** defaults: the system's name for model, "unknown" scaffold, "Baseline" context */
  model?: string;
  scaffold?: string;
  contextConfig?: string;
  trainingCutoff?: string;
};

/** "Local Runs" → "local-runs": the team's URL name. */
export function teamSlug(name: string): string {
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
  return slug || "team";
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
        trainingCutoff: ref.trainingCutoff ?? null,
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

// ---------------------------------------------------------------- the team page's systems

/** The paper's context configurations, offered as suggestions; any text is accepted. */
export const CONTEXT_CONFIG_SUGGESTIONS = ["Baseline", "Summarize", "Sub-Agent"] as const;

const optionalDay = z.preprocess((v) => (v === "" ? null : v), daySchema.nullable().default(null));

const text = (max: number) => oneLine(z.string().trim().min(1, "required").max(max, `at most ${max} characters`));

/** The system form (create and edit) and any API that describes a system. */
export const systemInputSchema = z.object({
  name: text(100),
  model: text(200),
  scaffold: text(200),
  contextConfig: text(100),
  openWeights: z.boolean().default(false),
  openScaffold: z.boolean().default(false),
  /** the model's release day and training-data cutoff, YYYY-MM-DD; either optional (SPEC §7: bugs dated after it are unseen) */
  releaseDate: optionalDay,
  trainingCutoff: optionalDay,
  // stricter than systemLinksSchema (which the stored column is checked against): links are shown as hrefs, so web URLs only
  links: z
    .array(z.object({ label: text(100), url: z.url({ protocol: /^https?$/, message: "not an http(s) URL" }) }))
    .max(10, "at most 10 links")
    .default([]),
});
export type SystemInput = z.input<typeof systemInputSchema>;

/**
 * The system form's fields as `systemInputSchema` takes them: checkboxes are
 * present ("on") or absent, and links are one per line, "Label https://…"
 * (a bare URL is its own label).
 */
export function systemFormInput(form: FormData): SystemInput {
  const str = (k: string) => (typeof form.get(k) === "string" ? (form.get(k) as string) : "");
  const links = str("links")
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean)
    .map((line) => {
      const at = line.lastIndexOf(" ");
      return at < 0 ? { label: line, url: line } : { label: line.slice(0, at).trim(), url: line.slice(at + 1) };
    });
  return {
    name: str("name"),
    model: str("model"),
    scaffold: str("scaffold"),
    contextConfig: str("contextConfig"),
    openWeights: form.get("openWeights") === "on",
    openScaffold: form.get("openScaffold") === "on",
    releaseDate: str("releaseDate"),
    trainingCutoff: str("trainingCutoff"),
    links,
  };
}

/** The links as the form's textarea shows them, the inverse of `systemFormInput`. */
export const linksText = (links: SystemLinks): string => links.map((l) => (l.label === l.url ? l.url : `${l.label} ${l.url}`)).join("\n");

/** What a system says of itself, as its team page and the leaderboard show it. */
export type SystemFacts = {
  id: string;
  name: string;
  model: string;
  scaffold: string;
  contextConfig: string;
  openWeights: boolean;
  openScaffold: boolean;
  releaseDate: string | null;
  trainingCutoff: string | null;
  links: SystemLinks;
};

export type SystemRow = SystemFacts & { updatedAt: Date };

/** Selects a system's facts (its links still JSON text, for parseColumn). */
export const systemFactsSelect = {
  id: true,
  name: true,
  model: true,
  scaffold: true,
  contextConfig: true,
  openWeights: true,
  openScaffold: true,
  releaseDate: true,
  trainingCutoff: true,
  links: true,
} as const;


export const systemRowSelect = { ...systemFactsSelect, updatedAt: true } as const;

export function toSystemRow(r: Omit<SystemRow, "links"> & { links: string }): SystemRow {
  return { ...r, links: parseColumn(systemLinksSchema, r.links, "System.links") };
}

/** Members act for their team; anyone else who can see the team is refused, visitors asked to sign in. */
function assertCanEditSystems(viewer: Viewer | null, teamId: string): asserts viewer is Viewer {
  if (!viewer) throw new UnauthorizedError("sign in to change a team's systems");
  if (!canActForTeam(viewer, teamId)) throw new ForbiddenError("only the team's members can change its systems");
}

function nameTaken(name: string): FieldError {
  return new FieldError("name", `the team already has a system named "${name}"`);
}

/**
 * What is odd but allowed in a system's description, said once it is saved: a
 * training cutoff after the release date (a model is not trained on what came
 * after its release; the "after its cutoff" window trusts the cutoff).
 */
export function systemWarnings(input: { releaseDate?: string | null; trainingCutoff?: string | null }): string[] {
  const { releaseDate, trainingCutoff } = input;
  if (releaseDate && trainingCutoff && trainingCutoff > releaseDate) {
    return [`the training cutoff (${trainingCutoff}) is after the release date (${releaseDate}): check both; "after its cutoff" views use the cutoff`];
  }
  return [];
}

/** A new system of the team (any member); a name the team already uses is a FieldError on "name". */
export async function createSystem(viewer: Viewer | null, teamSlugValue: string, input: SystemInput): Promise<{ id: string }> {
  const team = await db.team.findUnique({ where: { slug: teamSlugValue }, select: { id: true } });
  if (!team) throw new NotFoundError("team");
  assertCanEditSystems(viewer, team.id);
  const data = systemInputSchema.parse(input);
  await countCreation("system", viewer.id);
  try {
    return await db.system.create({
      data: { ...data, teamId: team.id, links: columnJson(systemLinksSchema, data.links) },
      select: { id: true },
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw nameTaken(data.name);
    throw e;
  }
}

/** Replaces a system's description (any member of its team). */
export async function updateSystem(viewer: Viewer | null, systemId: string, input: SystemInput): Promise<void> {
  const system = await db.system.findUnique({ where: { id: systemId }, select: { teamId: true } });
  if (!system) throw new NotFoundError("system");
  assertCanEditSystems(viewer, system.teamId);
  const data = systemInputSchema.parse(input);
  try {
    await db.system.update({ where: { id: systemId }, data: { ...data, links: columnJson(systemLinksSchema, data.links) } });
  } catch (e) {
    if (isUniqueViolation(e)) throw nameTaken(data.name);
    throw e;
  }
}
