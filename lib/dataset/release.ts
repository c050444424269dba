/**
 * Releasing a new dataset version (SPEC §8): its parent's records plus the
 * chains added or changed, minus those retired (core/dataset/release.ts), each
 * change with its reason, validated as any import is (every record, instance
 * ids unique across the version) and stored whole or not at all, with its
 * notes and the frozen manifest of its records' sha256. The parent is never
 * changed: results stay keyed by the version they were made on.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { assembleRelease, type ReleaseChange } from "@/core/dataset/release";
import type { Chain } from "@/core/schemas/dataset";
import { loadDataset } from "@/evaluator/dataset";
import { DatasetImportError, getChains, importDataset, type DatasetImport } from "@/lib/dataset/data";
import { db } from "@/db/client";
import { acceptedProposedChains, type AcceptedProposedChain } from "@/lib/proposals/data";
import { FieldError, InputError, NotFoundError } from "@/core/errors";
import type { Viewer } from "@/lib/authz";
import { z } from "zod";
import type { AuditAction } from "@/core/schemas/columns";

/** An accepted proposal's note: whose it was, who accepted it, when and why. */
const acceptedReason = (a: AcceptedProposedChain) =>
  `proposal ${a.proposalId} by ${a.proposedBy ?? "a former user"}, accepted by ${a.acceptedBy ?? "a former reviewer"} on ${a.acceptedAt.toISOString().slice(0, 10)}${a.reason ? `: ${a.reason}` : ""}`;

export type ReleaseRequest = {
  version: string;
  parent: string;
  /** a dataset file (JSONL) of chains to add, or to change (a parent chain's id with another record) */
  addPath?: string | null;
  /** or the chains themselves */
  add?: Chain[];
  /** also every chain proposed for the parent and accepted by a reviewer (lib/proposals), each noted with its proposal and review unless `reasons` names it */
  accepted?: boolean;
  retire?: string[];
  /** why, for every chain added, changed or retired */
  reasons: Record<string, string>;
  /** the new version's held-out chains (SPEC §8), checked against its chains */
  heldOut?: string[];
};

/** Assembles and stores the release; a DatasetImportError naming every problem (or an InputError naming a line of the added file), nothing stored. */
export async function releaseVersion(r: ReleaseRequest): Promise<DatasetImport & { notes: ReleaseChange[] }> {
  if (!(await db.datasetVersion.findUnique({ where: { version: r.parent }, select: { id: true } }))) throw new DatasetImportError(`no dataset version ${r.parent} to release from`);
  const accepted = r.accepted ? await acceptedProposedChains(r.parent) : [];
  const added = [...(r.add ?? []), ...(r.addPath ? (await loadDataset(r.addPath)).chains : []), ...accepted.map((a) => a.record)];
  const reasons = { ...Object.fromEntries(accepted.map((a) => [a.record.continuous_id, acceptedReason(a)])), ...r.reasons };
  const assembled = assembleRelease(await getChains(r.parent), { add: added, retire: r.retire ?? [], reasons });
  if ("problems" in assembled) throw new DatasetImportError(`release ${r.version} from ${r.parent}: ${assembled.problems.join("; ")}`);
  const dir = await mkdtemp(join(tmpdir(), "chainswe-release-"));
  try {
    const path = join(dir, `${r.version}.jsonl`);
    await writeFile(path, assembled.chains.map((c) => `${JSON.stringify(c)}\n`).join(""));
    // checked again as a whole version: every record, and no instance in two chains
    return { ...(await importDataset(path, r.version, { parent: r.parent, notes: assembled.notes }, { heldOut: r.heldOut })), notes: assembled.notes };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const chainIds = z
  .string()
  .transform((s) => s.split(/[\s,]+/).filter(Boolean))
  .pipe(z.array(z.string().max(200)));

/**
 * The site admin's release form (/admin): `chainswe dataset release`'s options
 * as fields. `notes`: one line per chain, `<chain id>: why`.
 */
export const releaseFormSchema = z.object({
  version: z.string().trim().min(1, "required: the new version's name, e.g. v2").max(100, "at most 100 characters"),
  parent: z.string().trim().min(1, "required: the version to release from"),
  accepted: z.boolean(),
  retire: chainIds,
  held_out: chainIds,
  notes: z.string().transform((text, ctx) => {
    const reasons: Record<string, string> = {};
    for (const [i, line] of text.split("\n").entries()) {
      if (!line.trim()) continue;
      const m = /^\s*([^:\s]+)\s*:\s*(\S.*)$/.exec(line);
      if (!m) {
        ctx.addIssue({ code: "custom", message: `line ${i + 1}: expected "<chain id>: why"` });
        return z.NEVER;
      }
      reasons[m[1]!] = m[2]!.trim();
    }
    return reasons;
  }),
});

/** The form's release, for a site admin (anyone else: NotFoundError, as the page); a FieldError naming the field, or the release's refusal on `form`. */
export async function releaseAsSiteAdmin(viewer: Viewer | null, input: z.input<typeof releaseFormSchema>): Promise<Awaited<ReturnType<typeof releaseVersion>>> {
  if (!viewer?.isSiteAdmin) throw new NotFoundError("page");
  const parsed = releaseFormSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new FieldError(String(issue.path[0] ?? "form"), issue.message);
  }
  const f = parsed.data;
  if (await db.datasetVersion.findUnique({ where: { version: f.version }, select: { id: true } })) throw new FieldError("version", `dataset version ${f.version} exists already`);
  try {
    const released = await releaseVersion({ version: f.version, parent: f.parent, accepted: f.accepted, retire: f.retire, reasons: f.notes, heldOut: f.held_out });
    const changes = released.notes.map((n) => `${n.change} ${n.chain}`).join(", ") || "no chain changed";
    await db.auditLog.create({
      data: { actorId: viewer.id, action: "version_released" satisfies AuditAction, targetType: "dataset_version", targetId: f.version, reason: `from ${f.parent}: ${changes}` },
    });
    return released;
  } catch (e) {
    if (e instanceof DatasetImportError || e instanceof InputError) throw new FieldError("form", e.message);
    throw e;
  }
}
