/** Facts the site header shows on every page. */
import { db } from "@/db/client";

export type HeaderFacts = { datasetVersion: string | null; newestResult: Date | null };

export async function headerFacts(): Promise<HeaderFacts> {
  const [version, newest] = await Promise.all([
    db.datasetVersion.findFirst({ orderBy: { createdAt: "desc" }, select: { version: true } }),
    db.submission.findFirst({ where: { visibility: "public", status: "completed" }, orderBy: { finishedAt: "desc" }, select: { finishedAt: true } }),
  ]);
  return { datasetVersion: version?.version ?? null, newestResult: newest?.finishedAt ?? null };
}
