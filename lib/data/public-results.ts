/**
 * The home page's table: every public, completed submission with its headline
 * scores, newest first. Computed per request for now; the leaderboard (issue 4)
 * stores aggregates when an evaluation completes.
 */
import { db } from "@/lib/db";
import { modeSchema, type Mode } from "@/lib/schemas/prediction";
import { scoresForSubmissions, type SubmissionScores } from "./submission-view";

export type PublicResult = {
  id: string;
  system: { name: string; model: string; contextConfig: string };
  team: string;
  mode: Mode;
  datasetVersion: string;
  finishedAt: Date | null;
  scores: SubmissionScores | null;
};

export async function listPublicResults(limit = 200): Promise<PublicResult[]> {
  const rows = await db.submission.findMany({
    where: { visibility: "public", status: "completed" },
    orderBy: [{ finishedAt: "desc" }, { id: "desc" }],
    take: limit,
    select: {
      id: true,
      mode: true,
      finishedAt: true,
      datasetVersion: { select: { version: true } },
      system: { select: { name: true, model: true, contextConfig: true, team: { select: { name: true } } } },
    },
  });
  const scores = await scoresForSubmissions(rows.map((r) => r.id));
  return rows.map((r) => ({
    id: r.id,
    system: { name: r.system.name, model: r.system.model, contextConfig: r.system.contextConfig },
    team: r.system.team.name,
    mode: modeSchema.parse(r.mode),
    datasetVersion: r.datasetVersion.version,
    finishedAt: r.finishedAt,
    scores: scores.get(r.id) ?? null,
  }));
}
