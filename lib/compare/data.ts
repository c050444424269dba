/**
 * The comparison of two submissions: pairedComparison, the
 * evaluator's, over both submissions' stored results, scored on request, with
 * the leaderboard's rows to pick from and to plot. A compared submission may be
 * any the viewer may read (lib/authz.ts, as the submission page).
 * /compare and its export route share it.
 */
import { MODE_LABELS, budgetCurveOfRun, pairedComparison, type PairedComparison } from "@/core/scoring";
import type { CompareQuery } from "@/lib/compare/url";
import type { Viewer } from "@/lib/authz";
import type { BudgetSeries } from "@/lib/compare/budget";
import { chainWinLoss, scatterPoints, type ChainWinLoss, type ScatterPoint } from "@/lib/compare/view";
import { db } from "@/db/client";
import { FieldError } from "@/core/errors";
import { modeSchema, type Mode } from "@/core/schemas/prediction";
import { getLeaderboard, type LeaderboardRow } from "@/lib/leaderboard/data";
import { runResultsForSubmission } from "@/lib/submissions/run-results";
import { readableSubmission } from "@/lib/submissions/access";
import { chainsHiddenFrom } from "@/lib/dataset/held-out";
import { runWithout } from "@/core/dataset/held-out";

export type ComparePick = {
  submissionId: string;
  systemName: string;
  teamName: string;
  model: string;
  mode: Mode;
  visibility: string;
  datasetVersion: string;
};

export type CompareOption = { submissionId: string; label: string; visibility: string };

export type CompareView = {
  version: string | null;
  versions: string[];
  query: CompareQuery;
  /** the leaderboard's rows, plus a picked submission that is not among them (one the viewer may read) */
  options: CompareOption[];
  a: ComparePick | null;
  b: ComparePick | null;
  /** why there is no comparison although both are picked */
  problem: string | null;
  paired: PairedComparison | null;
  chains: ChainWinLoss[];
  rows: LeaderboardRow[];
  scatter: { points: ScatterPoint[]; withoutCost: string[] };
  /** per visible row, its budget curve on the asked effort (SPEC §4) */
  budget: BudgetSeries[];
};

const optionLabel = (p: { systemName: string; teamName: string; mode: Mode }) => `${p.systemName} · ${MODE_LABELS[p.mode]} (${p.teamName})`;

/** A submission the viewer may read and that finished evaluating; NotFoundError / FieldError otherwise. */
async function pick(viewer: Viewer | null, id: string, field: "a" | "b"): Promise<ComparePick> {
  const access = await readableSubmission(viewer, id);
  if (access.status !== "completed") throw new FieldError(field, `submission ${id} has not completed its evaluation`);
  const s = await db.submission.findUniqueOrThrow({
    where: { id },
    select: { mode: true, system: { select: { name: true, model: true, team: { select: { name: true } } } }, datasetVersion: { select: { version: true } } },
  });
  return {
    submissionId: id,
    systemName: s.system.name,
    teamName: s.system.team.name,
    model: s.system.model,
    mode: modeSchema.parse(s.mode),
    visibility: access.visibility,
    datasetVersion: s.datasetVersion.version,
  };
}

/** Each row's budget curve on `query.effort`, from the per-bug effort of its stored results (for a row of repeated runs, the run it links to). */
async function budgetSeries(rows: readonly LeaderboardRow[], query: CompareQuery, picked: { a?: string; b?: string }): Promise<BudgetSeries[]> {
  const runs = await Promise.all(rows.map((r) => runResultsForSubmission(r.submissionId)));
  return rows.flatMap((r, i) => {
    const run = runs[i];
    if (!run) return [];
    const mark = r.submissionId === picked.a ? "a" : r.submissionId === picked.b ? "b" : null;
    return [{ submissionId: r.submissionId, system: r.system.name, mode: r.mode, picked: mark, curve: budgetCurveOfRun(run, query.effort, query.scoring) }];
  });
}

/**
 * The comparison of submissions `a` and `b` (when both are given), on the
 * dataset version of `a` unless one is asked for. Throws NotFoundError for a
 * submission the viewer may not read, FieldError for one still evaluating.
 */
export async function getComparison(viewer: Viewer | null, query: CompareQuery): Promise<CompareView> {
  const [a, b] = await Promise.all([query.a ? pick(viewer, query.a, "a") : null, query.b ? pick(viewer, query.b, "b") : null]);
  const board = await getLeaderboard({ version: query.version ?? a?.datasetVersion ?? b?.datasetVersion, scoring: query.scoring });
  const options: CompareOption[] = board.rows.map((r) => ({
    submissionId: r.submissionId,
    label: optionLabel({ systemName: r.system.name, teamName: r.team.name, mode: r.mode }),
    visibility: "public",
  }));
  for (const p of [a, b]) {
    if (p && !options.some((o) => o.submissionId === p.submissionId)) {
      options.push({ submissionId: p.submissionId, label: `${optionLabel(p)} · dataset ${p.datasetVersion}`, visibility: p.visibility });
    }
  }
  let problem: string | null = null;
  let paired: PairedComparison | null = null;
  let chains: ChainWinLoss[] = [];
  if (a && b) {
    // held-out chains (SPEC §8) are compared for reviewers only
    const hidden = await chainsHiddenFrom(viewer, { version: a.datasetVersion });
    const [ra, rb] = (await Promise.all([runResultsForSubmission(a.submissionId), runResultsForSubmission(b.submissionId)])).map((r) => r && runWithout(r, hidden));
    if (a.datasetVersion !== b.datasetVersion) problem = `they were evaluated on different dataset versions (${a.datasetVersion} and ${b.datasetVersion})`;
    else if (ra && rb) {
      try {
        paired = pairedComparison(ra, rb, { scoring: query.scoring });
        chains = chainWinLoss(ra, rb, query.scoring);
      } catch (e) {
        if (!(e instanceof RangeError)) throw e;
        problem = e.message;
      }
    }
  }
  return {
    version: board.version,
    versions: board.versions,
    query,
    options,
    a,
    b,
    problem,
    paired,
    chains,
    rows: board.rows,
    scatter: scatterPoints(board.rows, { a: a?.submissionId, b: b?.submissionId }),
    budget: await budgetSeries(board.rows, query, { a: a?.submissionId, b: b?.submissionId }),
  };
}
