/**
 * A release (SPEC §8): a new dataset version assembled from its parent plus
 * chains added or changed, minus chains retired, every change with its reason,
 * and a frozen manifest of its records' sha256. Pure, over plain data: the
 * portal and `chainswe dataset release` store what this gives.
 */
import { recordSha256 } from "@/core/grading/version";
import type { Chain } from "@/core/schemas/dataset";

export type ReleaseChange = { chain: string; change: "added" | "changed" | "removed"; reason: string };
export type ReleaseManifest = { parent: string | null; records: { continuous_id: string; sha256: string }[] };

/** Each record's sha256: of its canonical JSON (the line the version's records download writes, and every graded bug's record_sha256). */
export function releaseManifest(parent: string | null, chains: readonly Chain[]): ReleaseManifest {
  return { parent, records: chains.map((c) => ({ continuous_id: c.continuous_id, sha256: recordSha256(c) })) };
}

export type ReleaseInput = {
  /** the chains to add, or to change (a chain of the parent's id, with another record) */
  add: readonly Chain[];
  /** the parent's chains to retire */
  retire: readonly string[];
  /** why, for every chain added, changed or retired */
  reasons: Readonly<Record<string, string>>;
};

/**
 * The new version's chains (the parent's order, changed chains in place,
 * retired ones dropped, added ones last) and its notes; or every problem,
 * each naming its chain.
 */
export function assembleRelease(parent: readonly Chain[], input: ReleaseInput): { chains: Chain[]; notes: ReleaseChange[] } | { problems: string[] } {
  const problems: string[] = [];
  const byId = new Map(parent.map((c) => [c.continuous_id, c]));
  const added = new Map<string, Chain>();
  for (const c of input.add) {
    if (added.has(c.continuous_id)) problems.push(`chain ${c.continuous_id}: added twice`);
    added.set(c.continuous_id, c);
  }
  const retired = new Set(input.retire);
  const notes: ReleaseChange[] = [];
  const reason = (chain: string, change: ReleaseChange["change"]) => {
    const why = input.reasons[chain]?.trim();
    if (!why) problems.push(`chain ${chain}: say why it is ${change} (a reason in the notes)`);
    else notes.push({ chain, change, reason: why });
  };
  for (const id of retired) {
    if (!byId.has(id)) problems.push(`chain ${id}: not in the parent version, so it cannot be retired`);
    else if (added.has(id)) problems.push(`chain ${id}: both retired and added`);
    else reason(id, "removed");
  }
  for (const [id, c] of added) {
    const old = byId.get(id);
    if (!old) reason(id, "added");
    else if (recordSha256(old) === recordSha256(c)) problems.push(`chain ${id}: the same record as in the parent version; nothing changes`);
    else reason(id, "changed");
  }
  for (const id of Object.keys(input.reasons)) {
    if (!added.has(id) && !retired.has(id)) problems.push(`chain ${id}: a reason for a chain this release neither adds, changes nor retires`);
  }
  if (problems.length) return { problems };
  const chains = [...parent.filter((c) => !retired.has(c.continuous_id)).map((c) => added.get(c.continuous_id) ?? c), ...[...added.values()].filter((c) => !byId.has(c.continuous_id))];
  if (chains.length === 0) return { problems: ["the release would have no chains"] };
  const order = (n: ReleaseChange) => ["added", "changed", "removed"].indexOf(n.change);
  return { chains, notes: notes.toSorted((a, b) => order(a) - order(b) || (a.chain < b.chain ? -1 : 1)) };
}
