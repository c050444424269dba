/**
 * The quick start's data: the demo dataset as version "demo", a team of the
 * eight scripted demo systems, and their Oracle and Seq predictions queued as
 * submissions and published (they are the project's own fixtures, so the seed
 * stands in for the reviewer and says so in the audit log). Idempotent: a
 * second run adds nothing, so the quick start can run it every time.
 */
import { db } from "@/lib/db";
import { modeSchema } from "@/lib/schemas/prediction";
import { importDataset } from "@/lib/dataset/data";
import { createSubmission } from "@/lib/submissions/data";
import { ensureSystem } from "@/lib/teams/systems";

export const DEMO_VERSION = "demo";
export const DEMO_TEAM = "ChainSWE demo";

export type DemoPredictionFile = { system: string; mode: string; path: string };

/** What each scripted system does, shown as its scaffold on the portal. */
const DEMO_SCAFFOLDS: Record<string, string> = {
  "demo-gold": "scripted: the gold patch",
  "demo-empty": "scripted: no patch",
  "demo-breaker": "scripted: breaks working code",
  "demo-cheater": "scripted: forges test output",
  "demo-drifter": "scripted: stray edits",
  "demo-misapply": "scripted: patches that do not apply",
  "demo-overshoot": "scripted: overshoot",
  "demo-undershoot": "scripted: undershoot",
};

/**
 * A training cutoff for some demo systems, inside the demo dataset's bug dates
 * (2023-02 to 2024-03), so each has an "after its cutoff" view that keeps some
 * chains and not others.
 */
const DEMO_CUTOFFS: Record<string, string> = {
  "demo-gold": "2023-06-30",
  "demo-overshoot": "2023-07-31",
  "demo-undershoot": "2023-04-30",
};

export type DemoSeed = { imported: boolean; created: { system: string; mode: string; id: string }[] };

export async function seedDemo(datasetPath: string, files: DemoPredictionFile[]): Promise<DemoSeed> {
  const exists = await db.datasetVersion.findUnique({ where: { version: DEMO_VERSION }, select: { id: true } });
  if (!exists) await importDataset(datasetPath, DEMO_VERSION);
  const created: DemoSeed["created"] = [];
  for (const f of files) {
    const mode = modeSchema.parse(f.mode);
    const systemId = await ensureSystem({
      teamName: DEMO_TEAM,
      name: f.system,
      model: f.system,
      scaffold: DEMO_SCAFFOLDS[f.system] ?? "scripted",
      contextConfig: "Baseline",
      trainingCutoff: DEMO_CUTOFFS[f.system],
    });
    const already = await db.submission.findFirst({
      where: { systemId, mode, datasetVersion: { version: DEMO_VERSION } },
      select: { id: true },
    });
    if (already) continue;
    const { id } = await createSubmission({ systemId, datasetVersion: DEMO_VERSION, mode, predictions: f.path, metadata: { source: "demo/predictions" } });
    const now = new Date();
    await db.$transaction([
      db.submission.update({
        where: { id },
        data: { visibility: "public", publishRequestedAt: now, reviewedAt: now, reviewReason: "demo fixtures, published by chainswe demo seed" },
      }),
      db.auditLog.create({
        data: { actorId: null, action: "publication_approved", targetType: "submission", targetId: id, reason: "demo fixtures, published by chainswe demo seed" },
      }),
    ]);
    created.push({ system: f.system, mode, id });
  }
  return { imported: !exists, created };
}
