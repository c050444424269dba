/**
 * Held-out chains in the portal (SPEC §8): which chains of a version a viewer
 * may not see. Everything that shows a chain's tests, gold patch, problem
 * statement or per-chain or per-bug results asks here first and leaves these
 * chains out; reviewers (and site admins) see them. Read from the version's
 * rule `held_out` on every call: a rule changed is seen on the next request.
 */
import { heldOutTask, hiddenChains, NO_CHAINS } from "@/core/dataset/held-out";
import { ForbiddenError, NotFoundError, UnauthorizedError } from "@/core/errors";
import { parseColumn, type AuditAction } from "@/core/schemas/columns";
import { getChains } from "@/lib/dataset/data";
import { parseQuery } from "@/lib/view-query";
import { z } from "zod";
import { versionRulesSchema } from "@/core/schemas/manifest";
import { db } from "@/db/client";
import { isReviewer, type Viewer } from "@/lib/authz";

export { NO_CHAINS };

/** A version by its name or its row id. */
export type VersionKey = { version: string } | { id: string };

/** The version's held-out chain ids, in the rule's order; none for an unknown version. */
export async function heldOutChainIds(key: VersionKey): Promise<string[]> {
  const v = await db.datasetVersion.findUnique({ where: key, select: { rules: true } });
  return v ? (parseColumn(versionRulesSchema, v.rules, "DatasetVersion.rules").held_out ?? []) : [];
}

/** The chains of the version this viewer may not see: its held-out chains, or none for a reviewer. */
export async function chainsHiddenFrom(viewer: Viewer | null, key: VersionKey): Promise<ReadonlySet<string>> {
  if (isReviewer(viewer)) return NO_CHAINS;
  return hiddenChains(await heldOutChainIds(key), false);
}

const TEAM_NEEDED = "give the team whose agents it is for: ?team=<slug>";
export const heldOutQuerySchema = z.object({ team: z.string({ error: TEAM_NEEDED }).trim().min(1, TEAM_NEEDED) });

/**
 * A version's held-out problem statements for one team (SPEC §8): for a
 * signed-in member of that team (or a reviewer in it), each download one
 * audit row naming the team. JSON Lines, one chain per line (heldOutTask).
 * Not signed in: UnauthorizedError (before anything else is read); no
 * `team`: FieldError; not a member of `teamSlug`:
 * ForbiddenError; an unknown version: NotFoundError; no held-out chain: the
 * empty file (and still an audit row: the request was made).
 */
export async function heldOutDownload(viewer: Viewer | null, version: string, query: URLSearchParams): Promise<{ filename: string; jsonl: string }> {
  if (!viewer) throw new UnauthorizedError();
  const { team: teamSlug } = parseQuery(heldOutQuerySchema, query);
  const team = viewer.teams.find((t) => t.slug === teamSlug);
  if (!team) throw new ForbiddenError(`team: you are not a member of team "${teamSlug}"; held-out problem statements are given to a team's members`);
  const v = await db.datasetVersion.findUnique({ where: { version }, select: { id: true } });
  if (!v) throw new NotFoundError(`dataset version ${version}`);
  const ids = new Set(await heldOutChainIds({ id: v.id }));
  const chains = (await getChains(version)).filter((c) => ids.has(c.continuous_id));
  await db.auditLog.create({
    data: { actorId: viewer.id, action: "held_out_downloaded" satisfies AuditAction, targetType: "dataset_version", targetId: version, reason: `team ${team.slug}: ${chains.length} chain(s)` },
  });
  return { filename: `chainswe-${version.replace(/[^A-Za-z0-9._-]/g, "_")}-held-out-${team.slug}.jsonl`, jsonl: chains.map((c) => `${JSON.stringify(heldOutTask(c))}\n`).join("") };
}
