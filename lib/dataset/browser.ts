/**
 * The dataset browser's data (SPEC §6 "the dataset (repos,
 * chains, bugs, difficulty across systems)"): public, so nothing here takes a
 * viewer, and only public completed submissions count towards difficulty
 * (lib/dataset/view.ts says which and how). The chains a viewer may not see
 * (held out, SPEC §8: lib/dataset/held-out.ts) are given by the caller and
 * left out of everything: lists, neighbours and solve rates.
 */
import { touchedFiles } from "@/core/diff";
import type { PositionSet } from "@/core/scoring";
import { db } from "@/db/client";
import { repositoryRows, type BugOutcome, type DatasetBugRow, type DatasetChainRow, type DatasetVersionRow, type RepositoryRow } from "@/lib/dataset/view";
import { bugSolveRates, chainSolveRates, positionSolveRates, standingSubmissions, type Population, type PositionSolveRate, type PublicOutcome } from "@/lib/dataset/solve-rates";
import { datasetModesSchema, datasetStatsSchema, parseColumn, testIdsSchema } from "@/core/schemas/columns";
import { MODES, modeSchema } from "@/core/schemas/prediction";
import { fingerprintSchema } from "@/core/schemas/results";

export type DatasetIndex = { versions: (DatasetVersionRow & { repositories: RepositoryRow[] })[] };

export type DatasetVersionView = {
  version: DatasetVersionRow;
  population: Population;
  chains: DatasetChainRow[];
  positions: PositionSet;
  positionRates: PositionSolveRate[];
};

export type DatasetChainView = {
  version: string;
  chain: DatasetChainRow & { logParser: string };
  population: Population;
  bugs: DatasetBugRow[];
  /** neighbouring chains of the version, by id */
  previous: string | null;
  next: string | null;
};

function versionRow(r: { version: string; createdAt: Date; sha256: string; stats: string; modes: string }): DatasetVersionRow {
  const stats = parseColumn(datasetStatsSchema, r.stats, "DatasetVersion.stats");
  return { version: r.version, createdAt: r.createdAt, sha256: r.sha256, ...stats, modes: parseColumn(datasetModesSchema, r.modes, "DatasetVersion.modes") };
}

/** Every version, newest first, each with its repositories. */
export async function getDatasetIndex(): Promise<DatasetIndex> {
  const rows = await db.datasetVersion.findMany({
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: { version: true, createdAt: true, sha256: true, stats: true, modes: true, chains: { select: { repo: true, _count: { select: { bugs: true } } } } },
  });
  return {
    versions: rows.map((r) => ({ ...versionRow(r), repositories: repositoryRows(r.chains.map((c) => ({ repo: c.repo, length: c._count.bugs }))) })),
  };
}

type Standing = PublicOutcome & { system: string; team: string; fingerprints: Map<string, string | null> };

/**
 * The standing public submissions of a version with their verdicts (only on
 * `continuousId` when given): the newest public completed one per system × mode.
 */
async function standingOutcomes(datasetVersionId: string, continuousId?: string): Promise<Standing[]> {
  const subs = await db.submission.findMany({
    // the full version's rows: a Mini split row is another board's (SPEC §8)
    where: { datasetVersionId, visibility: "public", status: "completed", split: "full" },
    select: { id: true, systemId: true, mode: true, finishedAt: true, system: { select: { name: true, team: { select: { name: true } } } } },
  });
  const standing = standingSubmissions(subs.map((s) => ({ ...s, submissionId: s.id, mode: modeSchema.parse(s.mode) })));
  const ids = standing.map((s) => s.submissionId);
  const chainFilter = continuousId === undefined ? {} : { continuousId };
  const [jobs, results] = await Promise.all([
    db.evaluationJob.findMany({ where: { submissionId: { in: ids }, ...chainFilter }, select: { submissionId: true, continuousId: true } }),
    db.bugResult.findMany({
      where: { submissionId: { in: ids }, ...chainFilter },
      select: { submissionId: true, continuousId: true, order: true, resolved: true, fingerprint: true },
    }),
  ]);
  const by = <T extends { submissionId: string }>(rows: T[]) => {
    const map = new Map<string, T[]>();
    for (const r of rows) map.set(r.submissionId, [...(map.get(r.submissionId) ?? []), r]);
    return map;
  };
  const jobsOf = by(jobs);
  const resultsOf = by(results);
  return standing.map((s) => ({
    submissionId: s.submissionId,
    systemId: s.systemId,
    mode: s.mode,
    finishedAt: s.finishedAt,
    system: s.system.name,
    team: s.system.team.name,
    chains: (jobsOf.get(s.submissionId) ?? []).map((j) => j.continuousId),
    verdicts: resultsOf.get(s.submissionId) ?? [],
    fingerprints: new Map((resultsOf.get(s.submissionId) ?? []).map((r) => [`${r.continuousId}\0${r.order}`, r.fingerprint])),
  }));
}

function population(outcomes: readonly PublicOutcome[]): Population {
  return Object.fromEntries(MODES.map((m) => [m, outcomes.filter((o) => o.mode === m).length])) as Population;
}

/** One version's chains with their difficulty, and the per-position solve rates; null for an unknown version. */
export async function getDatasetVersionView(version: string, hidden: ReadonlySet<string>, positions: PositionSet = "length3"): Promise<DatasetVersionView | null> {
  const row = await db.datasetVersion.findUnique({
    where: { version },
    select: {
      id: true,
      version: true,
      createdAt: true,
      sha256: true,
      stats: true,
      modes: true,
      chains: { select: { continuousId: true, repo: true, dateRange: true, source: true, dockerImage: true, baseCommit: true, _count: { select: { bugs: true } } } },
    },
  });
  if (!row) return null;
  const chains = row.chains
    .filter((c) => !hidden.has(c.continuousId))
    .map((c) => ({ ...c, length: c._count.bugs }))
    .sort((a, b) => (a.continuousId < b.continuousId ? -1 : 1));
  const outcomes = await standingOutcomes(row.id);
  const solved = chainSolveRates(chains, outcomes);
  return {
    version: versionRow(row),
    population: population(outcomes),
    chains: chains.map(({ _count: _, ...c }) => ({ ...c, solved: solved.get(c.continuousId)! })),
    positions,
    positionRates: positionSolveRates(chains, outcomes, positions),
  };
}

/** One chain of a version: its bugs with gold files, test counts and solve rates; null when either is unknown. */
export async function getDatasetChainView(version: string, continuousId: string, hidden: ReadonlySet<string>): Promise<DatasetChainView | null> {
  if (hidden.has(continuousId)) return null;
  const row = await db.chain.findFirst({
    where: { continuousId, datasetVersion: { version } },
    include: { bugs: { orderBy: { order: "asc" } } },
  });
  if (!row) return null;
  const [standing, siblings] = await Promise.all([
    standingOutcomes(row.datasetVersionId, continuousId),
    db.chain.findMany({ where: { datasetVersionId: row.datasetVersionId }, select: { continuousId: true }, orderBy: { continuousId: "asc" } }),
  ]);
  const outcomes = standing.filter((o) => o.chains.includes(continuousId));
  const shape = [{ continuousId, length: row.bugs.length }];
  const bugRates = bugSolveRates(shape, outcomes).get(continuousId)!;
  const chainRates = chainSolveRates(shape, outcomes).get(continuousId)!;
  const outcomesFor = (order: number): BugOutcome[] =>
    outcomes.map((o) => {
      const verdict = o.verdicts.find((v) => v.order === order);
      const stored = o.fingerprints.get(`${continuousId}\0${order}`) ?? null;
      const fingerprint = stored === null ? null : fingerprintSchema.parse(stored);
      return { submissionId: o.submissionId, system: o.system, team: o.team, mode: o.mode, resolved: verdict?.resolved ?? null, fingerprint };
    });
  const shown = siblings.filter((s) => !hidden.has(s.continuousId));
  const at = shown.findIndex((s) => s.continuousId === continuousId);
  return {
    version,
    chain: {
      continuousId,
      repo: row.repo,
      length: row.bugs.length,
      dateRange: row.dateRange,
      source: row.source,
      dockerImage: row.dockerImage,
      baseCommit: row.baseCommit,
      logParser: row.logParser,
      solved: chainRates,
    },
    population: population(outcomes),
    bugs: row.bugs.map((b, i) => ({
      order: b.order,
      swebenchInstanceId: b.swebenchInstanceId,
      date: b.date,
      commitHash: b.commitHash,
      problemStatement: b.problemStatement,
      goldFiles: touchedFiles(b.patch),
      testFiles: touchedFiles(b.testPatch),
      failToPass: parseColumn(testIdsSchema, b.failToPass, "Bug.failToPass").length,
      passToPass: parseColumn(testIdsSchema, b.passToPass, "Bug.passToPass").length,
      solved: bugRates[i]!,
      outcomes: outcomesFor(b.order),
    })),
    previous: shown[at - 1]?.continuousId ?? null,
    next: shown[at + 1]?.continuousId ?? null,
  };
}
