/**
 * Releases against a real database (SPEC §8): a new version from its parent,
 * every change with its reason, the records' manifest matching what the
 * version's records download gives, the parent untouched; bad input named and
 * nothing stored.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordSha256 } from "@/core/grading/version";
import { InputError } from "@/core/errors";
import type { Chain } from "@/core/schemas/dataset";
import { openTestDb, testViewer } from "@/lib/testing/test-db";

let t: Awaited<ReturnType<typeof openTestDb>>;
let release: typeof import("@/lib/dataset/release");

beforeAll(async () => {
  t = await openTestDb();
  release = await import("@/lib/dataset/release");
});
afterAll(async () => t?.close());

/** A chain like `c` under another id, its instances renamed so none is shared. */
const copyOf = (c: Chain, id: string): Chain => ({
  ...c,
  continuous_id: id,
  swebench_instance_ids: c.swebench_instance_ids.map((i) => `${i}-${id}`),
  bug_fixes: c.bug_fixes.map((b) => ({ ...b, swebench_instance_id: `${b.swebench_instance_id}-${id}` })),
});
const file = (name: string, chains: Chain[]) => {
  const path = join(t.dir, name);
  writeFileSync(path, chains.map((c) => `${JSON.stringify(c)}\n`).join(""));
  return path;
};

describe("a release", () => {
  it("adds, changes and retires chains with their reasons; freezes its records' sha256; leaves the parent as it was", async () => {
    const v1 = await t.datasets.getChains("v1");
    const inikit = v1.find((c) => c.continuous_id === "inikit-chain-1")!;
    const added = file("add.jsonl", [copyOf(v1[0]!, "fresh-chain-1"), { ...inikit, date_range: "2020-01-01 – 2020-02-01" }]);
    const r = await release.releaseVersion({
      version: "v2",
      parent: "v1",
      addPath: added,
      retire: ["tablefmt-chain-1"],
      reasons: { "fresh-chain-1": "proposal 7 accepted", "inikit-chain-1": "dates corrected", "tablefmt-chain-1": "every row solves it" },
    });
    expect(r.stats.chains).toBe(5);
    const v2 = await t.datasets.getChains("v2");
    expect(v2.map((c) => c.continuous_id)).toEqual(["dateranges-chain-1", "inikit-chain-1", "moneyx-chain-1", "semverkit-chain-1", "fresh-chain-1"]);
    const facts = await t.datasets.getVersionRelease("v2");
    expect(facts).toMatchObject({
      parent: "v1",
      notes: [
        { chain: "fresh-chain-1", change: "added", reason: "proposal 7 accepted" },
        { chain: "inikit-chain-1", change: "changed", reason: "dates corrected" },
        { chain: "tablefmt-chain-1", change: "removed", reason: "every row solves it" },
      ],
    });
    // the manifest is what the records download gives: each stored record hashes to its entry
    expect(facts!.manifest!.records).toEqual(v2.map((c) => ({ continuous_id: c.continuous_id, sha256: recordSha256(c) })));
    expect((await t.datasets.getChains("v1")).map((c) => c.continuous_id)).toEqual(v1.map((c) => c.continuous_id));
    expect((await t.datasets.getVersionRelease("v1"))!.parent).toBeNull();
  });

  it("refuses a duplicate instance across chains (naming the line and field), a missing reason and an unknown parent; nothing stored", async () => {
    const before = await t.db.datasetVersion.count();
    const v1 = await t.datasets.getChains("v1");
    const clash = { ...copyOf(v1[1]!, "clash-chain-1") };
    clash.bug_fixes = [{ ...clash.bug_fixes[0]!, swebench_instance_id: v1[0]!.bug_fixes[0]!.swebench_instance_id }, ...clash.bug_fixes.slice(1)];
    clash.swebench_instance_ids = clash.bug_fixes.map((b) => b.swebench_instance_id);
    const refused = await release
      .releaseVersion({ version: "v3", parent: "v1", addPath: file("clash.jsonl", [clash]), reasons: { "clash-chain-1": "new" } })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(InputError);
    expect((refused as InputError).issues[0]).toMatchObject({ line: 6, field: "bug_fixes[0].swebench_instance_id", message: expect.stringContaining("already belongs to chain dateranges-chain-1") });
    await expect(release.releaseVersion({ version: "v3", parent: "v1", retire: ["moneyx-chain-1"], reasons: {} })).rejects.toThrow("release v3 from v1: chain moneyx-chain-1: say why it is removed");
    await expect(release.releaseVersion({ version: "v3", parent: "v9", reasons: {} })).rejects.toThrow("no dataset version v9 to release from");
    expect(await t.db.datasetVersion.count()).toBe(before);
  });
});

describe("the site admin's release form", () => {
  it("releases for a site admin only; a bad field, a version that exists or the release's refusal named, nothing stored", async () => {
    const { NotFoundError, FieldError } = await import("@/core/errors");
    const admin = { ...(await testViewer(t, "release-admin", null)), isSiteAdmin: true };
    const reviewer = await testViewer(t, "release-reviewer", null, { isReviewer: true });
    const form = { version: "v-form", parent: "v1", accepted: false, retire: "tablefmt-chain-1", held_out: "", notes: "tablefmt-chain-1: retired from the form" };
    await expect(release.releaseAsSiteAdmin(reviewer, form)).rejects.toBeInstanceOf(NotFoundError);
    await expect(release.releaseAsSiteAdmin(null, form)).rejects.toBeInstanceOf(NotFoundError);
    const refused = async (input: typeof form, field: string, message: string) => {
      const e = await release.releaseAsSiteAdmin(admin, input).catch((e: unknown) => e);
      expect(e).toBeInstanceOf(FieldError);
      expect((e as InstanceType<typeof FieldError>).field).toBe(field);
      expect((e as Error).message).toContain(message);
    };
    await refused({ ...form, notes: "tablefmt-chain-1 retired" }, "notes", 'line 1: expected "<chain id>: why"');
    await refused({ ...form, version: " " }, "version", "required");
    await refused({ ...form, version: "v1" }, "version", "dataset version v1 exists already");
    await refused({ ...form, notes: "" }, "form", "chain tablefmt-chain-1: say why it is removed");
    await refused({ ...form, held_out: "no-such-chain" }, "form", "no chain no-such-chain");
    expect(await t.db.datasetVersion.count({ where: { version: "v-form" } })).toBe(0);
    const released = await release.releaseAsSiteAdmin(admin, form);
    expect(released.notes).toEqual([{ chain: "tablefmt-chain-1", change: "removed", reason: "retired from the form" }]);
    expect((await t.datasets.getChains("v-form")).map((c) => c.continuous_id)).not.toContain("tablefmt-chain-1");
    // the release is in the audit log with its admin, its parent and what changed; the refusals above left none
    const audit = await t.db.auditLog.findMany({ where: { action: "version_released" } });
    expect(audit.map((a) => [a.actorId, a.targetType, a.targetId, a.reason])).toEqual([[admin.id, "dataset_version", "v-form", "from v1: removed tablefmt-chain-1"]]);
  });
});
