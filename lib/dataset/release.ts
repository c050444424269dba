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
