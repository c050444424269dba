/**
 * The dataset version a page shows when none is asked for (SPEC §8): the
 * newest version with a row published on its full board, so a release that
 * has no published row yet does not empty the board; with none anywhere, the
 * newest version. The board, its API and CSV, the chain-error analyses and the
 * submit form start from it.
 */
import { db } from "@/db/client";

/** The default of `versions` (newest first, as versionsNewestFirst gives them), or null when there is none. */
export async function defaultVersion(versions: readonly string[]): Promise<string | null> {
  const published = await db.submission.findMany({
    where: { visibility: "public", status: "completed", split: "full", score: { isNot: null } },
    distinct: ["datasetVersionId"],
    select: { datasetVersion: { select: { version: true } } },
  });
  const withRows = new Set(published.map((s) => s.datasetVersion.version));
  return versions.find((v) => withRows.has(v)) ?? versions[0] ?? null;
}
